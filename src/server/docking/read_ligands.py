"""Reads the molecules of an SDF for a docking batch (issue 30 sec. 6) with RDKit.

stdin: the SDF text. stdout: one JSON object, {"records": [{"name", "smiles"} or {"name", "error"}]},
one per record in file order (all records are counted; the caller refuses more than it docks).
"""
import io
import json
import sys

from rdkit import Chem, RDLogger, rdBase


def main():
    text = sys.stdin.buffer.read()
    # RDKit's reasons for a bad record go to Python's stderr, caught per record below.
    rdBase.LogToPythonStderr()
    RDLogger.DisableLog("rdApp.warning")
    records = []
    supplier = Chem.ForwardSDMolSupplier(io.BytesIO(text), sanitize=True, removeHs=True)
    while True:
        caught = io.StringIO()
        sys.stderr = caught
        try:
            mol = next(supplier)
        except StopIteration:
            break
        finally:
            sys.stderr = sys.__stderr__
        if mol is None:
            lines = [l.strip() for l in caught.getvalue().splitlines()]
            lines = [l.split("]", 1)[-1].strip() if l.startswith("[") else l for l in lines]
            lines = [l[len("ERROR:"):].strip() if l.startswith("ERROR:") else l for l in lines]
            lines = [l for l in lines if l and not l.startswith("****") and "moving to the beginning" not in l]
            reason = lines[-1] if lines else "unreadable record"
            records.append({"name": "", "error": reason[:200]})
            continue
        name = mol.GetProp("_Name").strip() if mol.HasProp("_Name") else ""
        records.append({"name": name[:100], "smiles": Chem.MolToSmiles(mol)})
    print(json.dumps({"records": records}))


if __name__ == "__main__":
    main()
