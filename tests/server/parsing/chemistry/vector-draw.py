# Draws molecules with RDKit (Debian python3-rdkit) as vector SVG, as bench/chemdocs-gen.py does
# (PrepareAndDrawMolecule: wedges from the SMILES' stereo), into an HTML page of two columns that
# Chromium prints to a one-page PDF.
# usage: vector-draw.py out.html SMILES...
import sys
from rdkit import Chem
from rdkit.Chem.Draw import rdMolDraw2D

cells = []
for smi in sys.argv[2:]:
    d = rdMolDraw2D.MolDraw2DSVG(200, 150)
    rdMolDraw2D.PrepareAndDrawMolecule(d, Chem.MolFromSmiles(smi))
    d.FinishDrawing()
    svg = d.GetDrawingText().split('?>', 1)[-1].replace("width='200px' height='150px'", "width='150pt' height='112pt'", 1)
    cells.append(f'<div style="display:inline-block;margin:10pt">{svg}</div>')
html = '<html><body style="margin:20pt;width:400pt">' + ''.join(cells) + '<p>Figure 1. Compounds.</p></body></html>'
open(sys.argv[1], 'w').write(html)
