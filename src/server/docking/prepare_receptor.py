"""Receptor preparation with PDBFixer (Debian python3-pdbfixer), issue 30.

Run by src/server/docking/run.ts as `python3 -I prepare_receptor.py` in the task folder, with a JSON
request on stdin: {"pdb": "receptor.pdb", "missing_residues": false}. Rewrites the file with missing
heavy atoms (and, when asked, missing residues inside chains) added, residue numbers and chains kept,
and prints what changed as JSON. Hydrogens are left to Open Babel (pH 7.4), as before.
"""

import io
import json
import sys

from openmm.app import PDBFile
from pdbfixer import PDBFixer


def main():
    req = json.loads(sys.stdin.read())
    fixer = PDBFixer(filename=req["pdb"])
    fixer.findMissingResidues()
    chains = list(fixer.topology.chains())
    residues_added = []
    if req.get("missing_residues"):
        # Only gaps inside a chain: tails at either end are disordered and would dangle into the solvent.
        kept = {}
        for (ci, ri), names in fixer.missingResidues.items():
            if 0 < ri < len(list(chains[ci].residues())):
                kept[(ci, ri)] = names
                residues_added.append({"chain": chains[ci].id, "after": list(chains[ci].residues())[ri - 1].id, "residues": list(names)})
        fixer.missingResidues = kept
    else:
        fixer.missingResidues = {}
    gaps = sum(len(v) for v in fixer.missingResidues.values())
    fixer.findNonstandardResidues()
    nonstandard = [{"residue": "%s%s%s" % (r.name, r.id, r.chain.id), "replaced_by": n} for r, n in fixer.nonstandardResidues]
    fixer.replaceNonstandardResidues()
    fixer.findMissingAtoms()
    atoms_added = [{"residue": "%s%s%s" % (r.name, r.id, r.chain.id), "atoms": [a.name for a in atoms]} for r, atoms in fixer.missingAtoms.items()]
    terminals = sum(len(v) for v in fixer.missingTerminals.values())
    fixer.addMissingAtoms()
    out = io.StringIO()
    PDBFile.writeFile(fixer.topology, fixer.positions, out, keepIds=True)
    with open(req["pdb"], "w") as f:
        f.write(out.getvalue())
    print(json.dumps({
        "heavy_atoms_added": sum(len(a["atoms"]) for a in atoms_added) + terminals,
        "residues_with_atoms_added": atoms_added,
        "residues_added": gaps,
        "gaps_filled": residues_added,
        "nonstandard_replaced": nonstandard,
    }))


if __name__ == "__main__":
    main()
