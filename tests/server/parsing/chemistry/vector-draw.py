# Draws molecules with RDKit (Debian python3-rdkit) as vector SVG, as bench/chemdocs-gen.py does
# (PrepareAndDrawMolecule: wedges from the SMILES' stereo), into an HTML page of two columns that
# Chromium prints to a one-page PDF.
# usage: vector-draw.py out.html [--abbreviations] [--bw] [--label TEXT] SMILES...
#   --abbreviations  groups condensed to labels (CF3, OMe, CO2H …) by rdAbbreviations.CondenseMolAbbreviations
#   --bw             black atom labels (useBWAtomPalette) instead of RDKit's element colours
#   --label TEXT     one more drawing (repeatable): methane's atom drawn as TEXT (glyphs of the font)
import sys
from rdkit import Chem
from rdkit.Chem import rdAbbreviations
from rdkit.Chem.Draw import rdMolDraw2D

args = sys.argv[2:]
abbreviations = '--abbreviations' in args
bw = '--bw' in args
labels = []
while '--label' in args:
    labels.append(args[args.index('--label') + 1])
    del args[args.index('--label'):args.index('--label') + 2]
mols = []
for smi in (a for a in args if not a.startswith('--')):
    m = Chem.MolFromSmiles(smi)
    if abbreviations:
        m = rdAbbreviations.CondenseMolAbbreviations(m, rdAbbreviations.GetDefaultAbbreviations(), maxCoverage=0.6)
    mols.append(m)
for label in labels:
    m = Chem.MolFromSmiles('C')
    m.GetAtomWithIdx(0).SetProp('atomLabel', label)
    mols.append(m)
cells = []
for m in mols:
    d = rdMolDraw2D.MolDraw2DSVG(200, 150)
    if bw:
        d.drawOptions().useBWAtomPalette()
    rdMolDraw2D.PrepareAndDrawMolecule(d, m)
    d.FinishDrawing()
    svg = d.GetDrawingText().split('?>', 1)[-1].replace("width='200px' height='150px'", "width='150pt' height='112pt'", 1)
    cells.append(f'<div style="display:inline-block;margin:10pt">{svg}</div>')
html = '<html><body style="margin:20pt;width:400pt">' + ''.join(cells) + '<p>Figure 1. Compounds.</p></body></html>'
open(sys.argv[1], 'w').write(html)
