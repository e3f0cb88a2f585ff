"""Docked poses -> chemically valid SDF, per-pose sanity checks and PLIP interactions (issue 30).

Run by src/server/docking/poses.ts as `python3 -I dock_poses.py` with one JSON request on stdin:
  {"dir": ..., "smiles": <docked SMILES>, "ligand": "ligand.pdbqt", "poses": "poses.pdbqt", "receptor": "receptor.pdb",
   "sdf": "poses.sdf", "interactions": true, "complex_prefix": "complex-"}
and answers one JSON object on stdout: {"poses": [...]}; a pose the submitted molecule cannot be
matched to ends it with status 2 and a Chinese line on stderr.

Vina's PDBQT keeps only polar hydrogens and no bond orders. The ligand Vina docked (Open Babel's 3D
structure, same atom order as every pose) is bonded by proximity and given the submitted molecule's
bond orders and formal charges (RDKit AssignBondOrdersFromTemplate); each pose is that molecule at the
pose's coordinates, with every hydrogen placed (AddHs addCoords). A distorted pose thus keeps the
right graph, and the checks below find the distortion. The checks follow the PoseBusters idea (Buttenschoen et al. 2024) with RDKit:
bond lengths and angles against the molecule's own distance-geometry bounds, flat aromatic rings,
no clash with the protein, stereochemistry as submitted.
"""

import json
import os
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem, rdDistGeom, rdMolTransforms  # noqa: F401  (AllChem registers AssignBondOrdersFromTemplate)
from rdkit.Chem.AllChem import AssignBondOrdersFromTemplate

RDLogger.DisableLog("rdApp.*")

# AutoDock atom types -> element symbols.
AD_ELEMENT = {"A": "C", "C": "C", "NA": "N", "NS": "N", "N": "N", "OA": "O", "OS": "O", "O": "O", "SA": "S", "S": "S",
              "HD": "H", "HS": "H", "H": "H", "CL": "Cl", "BR": "Br", "F": "F", "I": "I", "P": "P", "MG": "Mg", "ZN": "Zn",
              "FE": "Fe", "CA": "Ca", "MN": "Mn", "B": "B", "SI": "Si", "SE": "Se"}

# PoseBusters' defaults: bonds and angles within 25 % outside the bounds, ring atoms within 0.25 Å of their
# plane, heavy-atom distances to the protein at least 0.75 of the sum of van der Waals radii,
# non-bonded intramolecular distances at least 0.7 of their lower bound.
BOND_TOLERANCE = 0.25
PLANARITY_TOLERANCE = 0.25
CLASH_SCALE = 0.75
INTERNAL_CLASH_SCALE = 0.7


def pdbqt_models(text):
    """[(score, [(element, x, y, z), ...]), ...] of a Vina output, heavy atoms only, in file order."""
    models, atoms, score = [], None, None
    for line in text.splitlines():
        if line.startswith("MODEL"):
            atoms, score = [], None
        elif line.startswith("REMARK VINA RESULT:"):
            score = float(line.split()[3])
        elif line.startswith(("ATOM", "HETATM")) and atoms is not None:
            t = line[77:].strip().upper()
            element = AD_ELEMENT.get(t) or (t[:1] + t[1:].lower())
            if element != "H":
                atoms.append((element, float(line[30:38]), float(line[38:46]), float(line[46:54])))
        elif line.startswith("ENDMDL") and atoms is not None:
            models.append((score, atoms))
            atoms = None
    if not models and "MODEL" not in text:
        # One structure without MODEL records (Vina's input ligand).
        body = "MODEL 1\n" + text + "\nENDMDL\n"
        return pdbqt_models(body)
    return models


def pose_pdb_block(atoms):
    out = []
    for i, (element, x, y, z) in enumerate(atoms, 1):
        name = (element.upper() + str(i))[:4]
        out.append("HETATM%5d %-4s LIG Z   1    %8.3f%8.3f%8.3f  1.00  0.00          %2s" % (i, name, x, y, z, element.upper()))
    return "\n".join(out) + "\nEND\n"


def bonded_molecule(atoms, template):
    """The ligand's heavy atoms bonded by proximity (from Vina's input, whose geometry Open Babel built) with the
    template's bond orders, charges and hydrogen counts; atom i is atom i of every pose (Vina keeps the order)."""
    raw = Chem.MolFromPDBBlock(pose_pdb_block(atoms), removeHs=False, sanitize=False, proximityBonding=True)
    if raw is None:
        raise ValueError("pose not readable")
    for a in raw.GetAtoms():
        a.SetNoImplicit(False)
    mol = AssignBondOrdersFromTemplate(template, raw)
    # Formal charges and explicit H counts of the template (AssignBondOrdersFromTemplate matches by graph).
    match = mol.GetSubstructMatch(template)
    if len(match) != template.GetNumAtoms():
        raise ValueError("template does not match the pose")
    for ti, pi in enumerate(match):
        t, p = template.GetAtomWithIdx(ti), mol.GetAtomWithIdx(pi)
        p.SetFormalCharge(t.GetFormalCharge())
        p.SetNumExplicitHs(t.GetTotalNumHs())
        p.SetNoImplicit(True)
        p.SetNumRadicalElectrons(0)
    Chem.SanitizeMol(mol)
    return mol, match


def pose_molecule(base, atoms):
    """The bonded molecule at a pose's coordinates, with every hydrogen placed (AddHs addCoords)."""
    if len(atoms) != base.GetNumAtoms() or any(a[0].upper() != base.GetAtomWithIdx(i).GetSymbol().upper() for i, a in enumerate(atoms)):
        raise ValueError("the pose's atoms differ from the docked ligand's")
    mol = Chem.Mol(base)
    conf = mol.GetConformer()
    for i, (_, x, y, z) in enumerate(atoms):
        conf.SetAtomPosition(i, (x, y, z))
    mol = Chem.AddHs(mol, addCoords=True)
    Chem.AssignStereochemistryFrom3D(mol)
    return mol


def radicals(mol):
    return sum(a.GetNumRadicalElectrons() for a in mol.GetAtoms())


def geometry_checks(mol):
    """Bond lengths, angles (1-3 distances) and internal clashes against the distance-geometry bounds."""
    bounds = rdDistGeom.GetMoleculeBoundsMatrix(mol)
    conf = mol.GetConformer()
    pos = conf.GetPositions()
    n = mol.GetNumAtoms()

    def dist(i, j):
        d = pos[i] - pos[j]
        return float((d * d).sum() ** 0.5)

    def bounds_of(i, j):
        """(upper, lower): RDKit keeps the upper bound above the diagonal, the lower below it."""
        small, large = min(i, j), max(i, j)
        return bounds[small][large], bounds[large][small]

    bad_bonds, bad_angles, clashes = [], [], []
    bonded = set()
    for b in mol.GetBonds():
        i, j = b.GetBeginAtomIdx(), b.GetEndAtomIdx()
        bonded.add((min(i, j), max(i, j)))
        up, lo = bounds_of(i, j)
        d = dist(i, j)
        if d < lo * (1 - BOND_TOLERANCE) or d > up * (1 + BOND_TOLERANCE):
            bad_bonds.append((i, j, d))
    angle_pairs = set()
    for a in mol.GetAtoms():
        nb = [x.GetIdx() for x in a.GetNeighbors()]
        for x in range(len(nb)):
            for y in range(x + 1, len(nb)):
                i, j = min(nb[x], nb[y]), max(nb[x], nb[y])
                if (i, j) in bonded or (i, j) in angle_pairs:
                    continue
                angle_pairs.add((i, j))
                up, lo = bounds_of(i, j)
                d = dist(i, j)
                if d < lo * (1 - BOND_TOLERANCE) or d > up * (1 + BOND_TOLERANCE):
                    bad_angles.append((i, j, d))
    topo = Chem.GetDistanceMatrix(mol)
    for i in range(n):
        for j in range(i + 1, n):
            if topo[i][j] <= 3:
                continue
            if mol.GetAtomWithIdx(i).GetAtomicNum() == 1 or mol.GetAtomWithIdx(j).GetAtomicNum() == 1:
                continue
            _, lo = bounds_of(i, j)
            if dist(i, j) < lo * INTERNAL_CLASH_SCALE:
                clashes.append((i, j, dist(i, j)))
    return bad_bonds, bad_angles, clashes


def ring_planarity(mol):
    """Largest distance (Å) of an atom of a 5- or 6-membered aromatic ring to its least-squares plane."""
    import numpy as np
    pos = mol.GetConformer().GetPositions()
    worst = 0.0
    for ring in mol.GetRingInfo().AtomRings():
        if len(ring) not in (5, 6) or not all(mol.GetAtomWithIdx(i).GetIsAromatic() for i in ring):
            continue
        pts = pos[list(ring)]
        centred = pts - pts.mean(axis=0)
        normal = np.linalg.svd(centred)[2][-1]
        worst = max(worst, float(np.abs(centred @ normal).max()))
    return worst


def protein_heavy_atoms(receptor_text):
    import numpy as np
    coords, elements = [], []
    for line in receptor_text.splitlines():
        if line.startswith(("ATOM", "HETATM")):
            e = line[76:78].strip() or line[12:14].strip()
            e = e[:1].upper() + e[1:].lower()
            if e in ("H", "D"):
                continue
            elements.append(e)
            coords.append((float(line[30:38]), float(line[38:46]), float(line[46:54])))
    return np.array(coords), elements


def protein_clash(mol, protein):
    """Closest heavy-atom contact with the protein as a fraction of the sum of van der Waals radii (lower is worse)."""
    import numpy as np
    coords, elements = protein
    if len(coords) == 0:
        return 10.0, None
    table = Chem.GetPeriodicTable()
    prot_r = np.array([table.GetRvdw(table.GetAtomicNumber(e)) if e in PERIODIC else 1.7 for e in elements])
    pos = mol.GetConformer().GetPositions()
    worst, where = 10.0, None
    for a in mol.GetAtoms():
        if a.GetAtomicNum() == 1:
            continue
        d = np.linalg.norm(coords - pos[a.GetIdx()], axis=1)
        ratio = d / (table.GetRvdw(a.GetAtomicNum()) + prot_r)
        k = int(ratio.argmin())
        if ratio[k] < worst:
            worst, where = float(ratio[k]), (a.GetIdx(), float(d[k]))
    return worst, where


PERIODIC = {"C", "N", "O", "S", "P", "F", "Cl", "Br", "I", "Se", "Zn", "Mg", "Ca", "Fe", "Mn", "Na", "K", "Cu", "Co", "Ni", "Cd", "Hg"}


def stereo_kept(pose, template, match):
    """Stereocentres and double bonds specified in the submitted molecule keep their configuration in the pose."""
    Chem.AssignStereochemistry(template, cleanIt=True, force=True)
    changed = []
    for ti, pi in enumerate(match):
        t = template.GetAtomWithIdx(ti)
        if t.HasProp("_CIPCode"):
            p = pose.GetAtomWithIdx(pi)
            got = p.GetProp("_CIPCode") if p.HasProp("_CIPCode") else "?"
            if got != t.GetProp("_CIPCode"):
                changed.append("%s%d" % (t.GetSymbol(), ti + 1))
    for b in template.GetBonds():
        if b.GetStereo() in (Chem.BondStereo.STEREOE, Chem.BondStereo.STEREOZ):
            pb = pose.GetBondBetweenAtoms(match[b.GetBeginAtomIdx()], match[b.GetEndAtomIdx()])
            if pb is None or pb.GetStereo() != b.GetStereo():
                changed.append("%s=%s" % (b.GetBeginAtomIdx() + 1, b.GetEndAtomIdx() + 1))
    return changed


def sanity(mol, template, match, protein):
    bad_bonds, bad_angles, clashes = geometry_checks(mol)
    planarity = ring_planarity(mol)
    clash_ratio, clash_at = protein_clash(mol, protein)
    changed = stereo_kept(mol, template, match)
    checks = {
        "bond_lengths": not bad_bonds,
        "bond_angles": not bad_angles,
        "internal_clash": not clashes,
        "aromatic_rings_flat": planarity <= PLANARITY_TOLERANCE,
        "protein_clash": clash_ratio >= CLASH_SCALE,
        "stereochemistry": not changed,
    }
    return {
        "passed": all(checks.values()),
        "checks": checks,
        "bad_bonds": len(bad_bonds),
        "bad_angles": len(bad_angles),
        "internal_clashes": len(clashes),
        "ring_deviation": round(planarity, 3),
        "closest_contact_ratio": round(clash_ratio, 3),
        "closest_contact": round(clash_at[1], 2) if clash_at else None,
        "stereo_changed": changed,
    }


def complex_pdb(receptor_text, mol):
    """The receptor's records, then the pose (with hydrogens and CONECT records) as residue LIG Z 1."""
    lines = [l for l in receptor_text.splitlines() if l.startswith(("ATOM", "HETATM", "TER"))]
    last = 0
    for l in lines:
        if l.startswith(("ATOM", "HETATM")):
            try:
                last = max(last, int(l[6:11]))
            except ValueError:
                pass
    lig = Chem.Mol(mol)
    counts = {}
    for a in lig.GetAtoms():
        s = a.GetSymbol()
        counts[s] = counts.get(s, 0) + 1
        info = Chem.AtomPDBResidueInfo()
        info.SetName((" %-3s" % (s.upper() + str(counts[s])))[:4] if len(s) == 1 else ("%-4s" % (s.upper() + str(counts[s])))[:4])
        info.SetResidueName("LIG")
        info.SetResidueNumber(1)
        info.SetChainId("Z")
        info.SetIsHeteroAtom(True)
        info.SetSerialNumber(last + 1 + a.GetIdx())
        a.SetMonomerInfo(info)
    block = Chem.MolToPDBBlock(lig, flavor=0)
    lig_lines = [l for l in block.splitlines() if l.startswith(("HETATM", "CONECT"))]
    # RDKit numbers the ligand from 1; shift serials (HETATM columns 7-11, CONECT fields) past the receptor's.
    shifted = []
    for l in lig_lines:
        if l.startswith("HETATM"):
            shifted.append("HETATM%5d%s" % (int(l[6:11]) + last, l[11:]))
        else:
            nums = [int(l[i:i + 5]) + last for i in range(6, len(l.rstrip()), 5)]
            shifted.append("CONECT" + "".join("%5d" % x for x in nums))
    hets = [l for l in shifted if l.startswith("HETATM")]
    conect = [l for l in shifted if l.startswith("CONECT")]
    return "\n".join(lines + hets + ["TER"] + conect + ["END"]) + "\n"


# PLIP's interaction lists -> (kind, fields). Distances as PLIP reports them in its XML.
def plip_interactions(path):
    from plip.basic import config as plip_config
    from plip.structure.preparation import PDBComplex

    plip_config.NOFIXFILE = True
    plip_config.QUIET = True
    plip_config.SILENT = True
    complex_ = PDBComplex()
    complex_.output_path = os.path.dirname(path)
    complex_.load_pdb(path)
    out = []
    for ligand in complex_.ligands:
        if ligand.hetid == "LIG":
            complex_.characterize_complex(ligand)
    for key, site in complex_.interaction_sets.items():
        if not key.startswith("LIG:Z:1"):
            continue
        for hb in site.hbonds_ldon + site.hbonds_pdon:
            lig, prot = (hb.d, hb.a) if not hb.protisdon else (hb.a, hb.d)
            out.append(entry("hbond", hb, hb.distance_ah, lig.coords, prot.coords,
                             {"distance_donor_acceptor": hb.distance_ad, "angle": hb.angle, "protein_is_donor": bool(hb.protisdon)}))
        for hc in site.hydrophobic_contacts:
            out.append(entry("hydrophobic", hc, hc.distance, hc.ligatom.coords, hc.bsatom.coords))
        for ps in site.pistacking:
            out.append(entry("pi_stacking", ps, ps.distance, ps.ligandring.center, ps.proteinring.center, {"stacking": ps.type, "angle": ps.angle}))
        for pc in site.pication_laro + site.pication_paro:
            lig, prot = (pc.ring.center, pc.charge.center) if pc.protcharged else (pc.charge.center, pc.ring.center)
            out.append(entry("pi_cation", pc, pc.distance, lig, prot, {"protein_charged": bool(pc.protcharged)}))
        for sb in site.saltbridge_lneg + site.saltbridge_pneg:
            lig, prot = (sb.negative.center, sb.positive.center) if sb.protispos else (sb.positive.center, sb.negative.center)
            out.append(entry("salt_bridge", sb, sb.distance, lig, prot, {"protein_is_positive": bool(sb.protispos)}))
        for hx in site.halogen_bonds:
            out.append(entry("halogen_bond", hx, hx.distance, hx.don.x.coords, hx.acc.o.coords))
        for wb in site.water_bridges:
            lig = wb.a.coords if wb.protisdon else wb.d.coords
            out.append(entry("water_bridge", wb, wb.distance_aw, lig, wb.water.coords, {"distance_donor_water": wb.distance_dw}))
        for mc in site.metal_complexes:
            out.append(entry("metal_complex", mc, mc.distance, mc.target.atom.coords, mc.metal.coords, {"metal": mc.metal_type}))
    return out


def entry(kind, it, distance, ligand_xyz, protein_xyz, extra=None):
    """One interaction: its kind, the residue, PLIP's distance (Å) and the two ends (ligand side, protein side)."""
    e = {"type": kind, "residue": "%s%s%s" % (it.restype, it.resnr, it.reschain), "restype": it.restype,
         "resnr": int(it.resnr), "reschain": it.reschain, "distance": round(float(distance), 2),
         "ligand_xyz": [round(float(v), 3) for v in ligand_xyz], "protein_xyz": [round(float(v), 3) for v in protein_xyz]}
    for k, v in (extra or {}).items():
        e[k] = round(float(v), 2) if isinstance(v, float) else v
    return e


def main():
    req = json.loads(sys.stdin.read())
    d = req["dir"]
    template = Chem.MolFromSmiles(req["smiles"])
    if template is None:
        sys.stderr.write("RDKit 无法读取对接分子的 SMILES（%s），无法为构象指定键级与氢\n" % req["smiles"])
        sys.exit(2)
    with open(os.path.join(d, req["poses"])) as f:
        models = pdbqt_models(f.read())
    with open(os.path.join(d, req["receptor"])) as f:
        receptor_text = f.read()
    protein = protein_heavy_atoms(receptor_text)
    template_smiles = Chem.MolToSmiles(template, isomericSmiles=False)
    with open(os.path.join(d, req["ligand"])) as f:
        ligand = pdbqt_models(f.read())
    try:
        base, match = bonded_molecule(ligand[0][1], template)
    except Exception as err:  # noqa: BLE001 - reported as the reason the docking failed
        sys.stderr.write("无法按提交的分子为对接配体指定键级与氢（%s）\n" % err)
        sys.exit(2)
    writer = Chem.SDWriter(os.path.join(d, req["sdf"]))
    writer.SetKekulize(True)
    results = []
    for n, (score, atoms) in enumerate(models, 1):
        try:
            mol = pose_molecule(base, atoms)
        except Exception as err:  # noqa: BLE001 - reported as the reason the docking failed
            sys.stderr.write("构象 %d 与对接配体的原子不一致（%s）\n" % (n, err))
            sys.exit(2)
        s = sanity(mol, template, match, protein)
        interactions = []
        if req.get("interactions"):
            path = os.path.join(d, "%s%d.pdb" % (req["complex_prefix"], n))
            with open(path, "w") as f:
                f.write(complex_pdb(receptor_text, mol))
            interactions = plip_interactions(path)
            # PLIP leaves its protonated copy beside the input; the complex itself is kept (download, PLIP's CLI).
            for extra in os.listdir(d):
                if extra.startswith("%s%d_" % (req["complex_prefix"], n)) or extra.startswith("plipfixed."):
                    os.remove(os.path.join(d, extra))
        mol.SetProp("_Name", "%s pose %d" % (req.get("name") or "ligand", n))
        mol.SetProp("VINA_SCORE", "%.3f" % score if score is not None else "")
        mol.SetProp("MODE", str(n))
        mol.SetProp("SMILES", Chem.MolToSmiles(Chem.RemoveHs(mol)))
        mol.SetProp("POSE_SANITY", "pass" if s["passed"] else "fail: " + ", ".join(k for k, v in s["checks"].items() if not v))
        for kind in ("hbond", "hydrophobic", "pi_stacking", "pi_cation", "salt_bridge", "halogen_bond", "water_bridge", "metal_complex"):
            items = [i for i in interactions if i["type"] == kind]
            if items:
                mol.SetProp("PLIP_" + kind.upper(), " ".join("%s:%.2f" % (i["residue"], i["distance"]) for i in items))
        writer.write(mol)
        results.append({"mode": n, "radicals": radicals(mol), "same_graph": Chem.MolToSmiles(Chem.RemoveHs(mol), isomericSmiles=False) == template_smiles,
                        "sanity": s, "interactions": interactions})
    writer.close()
    print(json.dumps({"poses": results}))


if __name__ == "__main__":
    main()
