# Draws molecules with RDKit (Debian python3-rdkit) as vector SVG into an HTML page that Chromium
# prints to a PDF: a paper-like page of structure drawings with compound labels under them.
# usage: chemdocs-draw.py out.html SMILES...
import sys
from rdkit import Chem
from rdkit.Chem.Draw import rdMolDraw2D

out = sys.argv[1]
cells = []
for i, smi in enumerate(sys.argv[2:]):
    m = Chem.MolFromSmiles(smi)
    d = rdMolDraw2D.MolDraw2DSVG(300, 220)
    o = d.drawOptions()
    o.clearBackground = False
    o.fixedBondLength = 28
    d.DrawMolecule(m)
    d.FinishDrawing()
    svg = d.GetDrawingText().split('?>', 1)[-1]
    cells.append(f'<div class="c"><div class="m">{svg}</div><div class="l">Compound {i + 1}</div></div>')
html = ('<html><head><style>body{font-family:serif;margin:30px} .c{display:inline-block;margin:8px;text-align:center;vertical-align:top}'
        ' .m svg{width:240px;height:auto} .l{font-size:11px} p{font-size:11px}</style></head><body>'
        '<p>Kinase inhibitors. The compounds below were prepared as described in the experimental section.</p>'
        + ''.join(cells) + '</body></html>')
open(out, 'w').write(html)
