# Draws molecules with RDKit (Debian python3-rdkit) as PNG pictures, one file per molecule, for a
# test page that is then set out and scanned (an image-only PDF, a PNG upload).
# usage: scan-draw.py out-dir width height SMILES...   (writes out-dir/0.png, 1.png, ...)
import os
import sys
from rdkit import Chem
from rdkit.Chem.Draw import rdMolDraw2D

out, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i, smi in enumerate(sys.argv[4:]):
    d = rdMolDraw2D.MolDraw2DCairo(width, height)
    o = d.drawOptions()
    o.useBWAtomPalette()
    o.fixedBondLength = 40
    o.bondLineWidth = 2
    d.DrawMolecule(Chem.MolFromSmiles(smi))
    d.FinishDrawing()
    with open(os.path.join(out, f'{i}.png'), 'wb') as f:
        f.write(d.GetDrawingText())
