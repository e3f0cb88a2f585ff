# Draws molecules with RDKit (Debian python3-rdkit) as PNG pictures, one file per molecule, for a
# test page that is then set out and scanned (an image-only PDF, a PNG upload).
# usage: scan-draw.py out-dir width height [--as-written] SMILES...   (writes out-dir/0.png, 1.png, ...)
# --as-written: each SMILES drawn as it is written, not sanitised (a nitro N without its + stays so).
import os
import sys
from rdkit import Chem
from rdkit.Chem.Draw import rdMolDraw2D

out, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
smiles = sys.argv[4:]
as_written = smiles[:1] == ['--as-written']
if as_written:
    smiles = smiles[1:]


def molecule(smi):
    if not as_written:
        return Chem.MolFromSmiles(smi)
    m = Chem.MolFromSmiles(smi, sanitize=False)
    m.UpdatePropertyCache(strict=False)
    Chem.SanitizeMol(m, Chem.SanitizeFlags.SANITIZE_ALL ^ Chem.SanitizeFlags.SANITIZE_PROPERTIES)
    return m


for i, smi in enumerate(smiles):
    d = rdMolDraw2D.MolDraw2DCairo(width, height)
    o = d.drawOptions()
    o.useBWAtomPalette()
    o.fixedBondLength = 40
    o.bondLineWidth = 2
    d.DrawMolecule(molecule(smi))
    d.FinishDrawing()
    with open(os.path.join(out, f'{i}.png'), 'wb') as f:
        f.write(d.GetDrawingText())
