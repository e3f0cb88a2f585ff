import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRdkit } from '../../../../src/server/chem/rdkit-loader';
import { pdfStructures } from '../../../../src/server/parsing/chemistry/document';
import { OSRA_MISSING, osraVersion } from '../../../../src/server/parsing/chemistry/osra';
import { groupGraph, groupSmiles } from '../../../../src/server/parsing/chemistry/abbreviations';
import { readGlyphs } from '../../../../src/server/parsing/chemistry/glyphs';
import { pageGraphics, parseLabel, readVectorPage, textRuns, type VectorMolecule } from '../../../../src/server/parsing/chemistry/vector';
import { OPS, openDocument } from '../../../../src/server/parsing/pdfjs';

// Structures read from a PDF page's drawing operators (issue 28 §1, parsing/chemistry/vector.ts):
// RDKit's own SVG drawings (Debian python3-rdkit, as bench/chemdocs-gen.py draws them: glyph
// outlines for atom labels, hashed and solid wedges) printed to PDF by Chromium, and PDFs written
// here by hand with lines and text labels (as Open Babel's SVG and most editors draw them).

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-vector-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Canonical SMILES and InChIKey of a SMILES, by @rdkit/rdkit. */
async function identity(smiles: string): Promise<{ smiles: string; inchiKey: string }> {
  const rdkit = await loadRdkit();
  const mol = rdkit.get_mol(smiles)!;
  try {
    return { smiles: mol.get_smiles(), inchiKey: rdkit.get_inchikey_for_inchi(mol.get_inchi()) };
  } finally {
    mol.delete();
  }
}

async function readPdf(file: string): Promise<VectorMolecule[]> {
  const { task, close } = openDocument({ data: new Uint8Array(fs.readFileSync(file)), isEvalSupported: false, verbosity: 0 });
  try {
    const doc = await task.promise;
    const out: VectorMolecule[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const graphics = pageGraphics(await page.getOperatorList(), OPS)!;
      const runs = textRuns((await page.getTextContent()).items.filter((i) => 'str' in i));
      out.push(...readVectorPage(await loadRdkit(), graphics, runs));
    }
    return out;
  } finally {
    await close();
  }
}

/** An HTML page printed by Chromium to PDF. */
function print(name: string, html: string): string {
  const pdf = path.join(dir, `${name}.pdf`);
  execFileSync('/usr/bin/chromium', ['--headless', '--no-sandbox', '--disable-gpu', `--user-data-dir=${path.join(dir, 'profile')}`, '--no-pdf-header-footer', `--print-to-pdf=${pdf}`, `file://${html}`], { stdio: 'ignore', timeout: 120_000 });
  return pdf;
}

/** RDKit drawings of `smiles` (vector-draw.py's options first: --abbreviations, --bw), printed by Chromium to one PDF page. */
function rdkitPdf(name: string, smiles: string[], options: string[] = []): string {
  const html = path.join(dir, `${name}.html`);
  execFileSync('/usr/bin/python3', [path.join(__dirname, 'vector-draw.py'), html, ...options, ...smiles]);
  return print(name, html);
}

/**
 * Open Babel's drawings of `smiles` (Debian openbabel: `--genalias -xA` writes groups as their
 * labels, CF3, OMe, AcNH, Cl3C, as text), printed by Chromium to PDF.
 */
function obabelPdf(name: string, smiles: string[], aliases = true): string {
  const cells = smiles.map((s) => {
    const svg = execFileSync('obabel', [`-:${s}`, ...(aliases ? ['--genalias', '-osvg', '-xA'] : ['-osvg']), '-xd'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return `<div style="display:inline-block;margin:10pt;width:150pt;height:150pt">${svg.replace(/<\?xml[^>]*\?>/, '').replace('width="200px" height="200px"', 'width="150pt" height="150pt"')}</div>`;
  });
  const html = path.join(dir, `${name}.html`);
  fs.writeFileSync(html, `<html><body style="margin:20pt;width:400pt">${cells.join('')}</body></html>`);
  return print(name, html);
}

/** A one-page PDF written by hand: a content stream of path and text operators, Helvetica as /F1. */
function handPdf(name: string, content: string): string {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(pdf));
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf);
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  return file;
}

type P = [number, number];
const line = (a: P, b: P) => `${a[0].toFixed(2)} ${a[1].toFixed(2)} m ${b[0].toFixed(2)} ${b[1].toFixed(2)} l S`;
/** A line from a to b, shortened by `ta` at a and `tb` at b (where a label stands). */
function bond(a: P, b: P, ta = 0, tb = 0, offset = 0): string {
  const l = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const u: P = [(b[0] - a[0]) / l, (b[1] - a[1]) / l];
  const n: P = [-u[1] * offset, u[0] * offset];
  return line([a[0] + u[0] * ta + n[0], a[1] + u[1] * ta + n[1]], [b[0] - u[0] * tb + n[0], b[1] - u[1] * tb + n[1]]);
}
/** A label centred on its first letter at p (8 pt Helvetica). */
const label = (p: P, text: string) => `BT /F1 8 Tf ${(p[0] - 2.8).toFixed(2)} ${(p[1] - 2.9).toFixed(2)} Td (${text}) Tj ET`;

describe('vector structures from RDKit drawings printed by Chromium', () => {
  const drawn = ['c1ccccc1', 'Clc1ccccc1', 'CC(=O)NC', 'C[C@H](N)C(=O)O', 'O=[N+]([O-])c1ccccc1', 'C[C@@H](O)CC'];

  it('reads benzene, chlorobenzene, an amide, a nitro group and both kinds of wedge exactly', async () => {
    const read = await readPdf(rdkitPdf('rdkit', drawn));
    const want = await Promise.all(drawn.map(identity));
    expect(read.map((m) => m.inchiKey).sort()).toEqual(want.map((w) => w.inchiKey).sort());
    expect(read.map((m) => m.smiles).sort()).toEqual(want.map((w) => w.smiles).sort());
    // The stereocentres are read, not dropped: L-alanine and (R)-butan-2-ol, not their mirror images.
    expect(read.map((m) => m.smiles)).toContain('C[C@H](N)C(=O)O');
    expect(read.map((m) => m.smiles)).toContain((await identity('C[C@@H](O)CC')).smiles);
  }, 120_000);

  it('reads one drawing alone on its page (more line joins than bonds)', async () => {
    const read = await readPdf(rdkitPdf('alone', ['c1ccccc1']));
    expect(read.map((m) => m.smiles)).toEqual(['c1ccccc1']);
  }, 120_000);

  it('reads black atom labels (useBWAtomPalette) by their letters', async () => {
    const bw = ['Clc1ccccc1', 'CC(=O)NC', 'C[C@H](N)C(=O)O', 'O=[N+]([O-])c1ccccc1', 'FC(F)(F)c1ccc(Br)cc1S', 'OCc1ccc(I)cc1P'];
    const read = await readPdf(rdkitPdf('bw', bw, ['--bw']));
    expect(read.map((m) => m.inchiKey).sort()).toEqual((await Promise.all(bw.map(identity))).map((w) => w.inchiKey).sort());
  }, 120_000);

  it('reads every glyph of RDKit\'s font', async () => {
    const rdkit = await loadRdkit();
    const lines = ['ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz', '0123456789+-()'];
    const pdf = rdkitPdf('font', [], lines.flatMap((l) => ['--label', l]));
    const { task, close } = openDocument({ data: new Uint8Array(fs.readFileSync(pdf)), isEvalSupported: false, verbosity: 0 });
    try {
      const page = await (await task.promise).getPage(1);
      const glyphs = pageGraphics(await page.getOperatorList(), OPS)!.fills.filter((f) => f.color !== '#ffffff');
      // One line of glyphs a drawing (two side by side, one below): glyphs a few points apart are one line.
      const rows: (typeof glyphs)[] = [];
      for (const g of [...glyphs].sort((a, b) => a.box[0] - b.box[0])) {
        const row = rows.find((r) => Math.abs(r.at(-1)!.box[1] - g.box[1]) < 20 && g.box[0] - r.at(-1)!.box[2] < 5);
        if (row) row.push(g);
        else rows.push([g]);
      }
      const byLine = rows.map((row) => readGlyphs(rdkit, row)!.map((r) => r.options[0]!.ch).join(''));
      expect(byLine.sort()).toEqual([...lines].sort());
    } finally {
      await close();
    }
  }, 120_000);

  it('gives the drawings to the page reading as method "vector" (document.ts → recognize.ts)', async () => {
    const file = rdkitPdf('rdkit-doc', ['Clc1ccccc1', 'CC(=O)NC']);
    const { structures } = await pdfStructures(file, () => {});
    const vector = structures.filter((s) => s.method.startsWith('vector'));
    expect(vector.map((s) => s.smiles).sort()).toEqual([(await identity('CC(=O)NC')).smiles, (await identity('Clc1ccccc1')).smiles].sort());
    for (const s of vector) {
      expect(s.page).toBe(1);
      expect(s.bbox[2]).toBeGreaterThan(s.bbox[0]);
    }
  }, 180_000);
});

describe('without osra', () => {
  // osra taken away by a PATH that has no folder holding it (osra.ts looks it up again when PATH changes).
  const savedPath = process.env.PATH;
  afterAll(() => {
    process.env.PATH = savedPath;
  });
  const withoutOsra = async <T>(f: () => Promise<T>): Promise<T> => {
    process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-no-osra-'));
    try {
      expect(await osraVersion()).toBeNull();
      return await f();
    } finally {
      process.env.PATH = savedPath;
    }
  };

  it('still reads vector drawings, and says nothing is missing when they are all there is', async () => {
    const file = rdkitPdf('no-osra', ['Clc1ccccc1', 'CC(=O)NC']);
    const { structures, notes } = await withoutOsra(() => pdfStructures(file, () => {}));
    expect(structures.map((s) => s.method)).toEqual(['vector', 'vector']);
    expect(structures.map((s) => s.smiles).sort()).toEqual([(await identity('CC(=O)NC')).smiles, (await identity('Clc1ccccc1')).smiles].sort());
    expect(notes).toEqual(['从图中识别出 2 个化学结构']);
  }, 180_000);

  it('reads the vector drawing beside a picture, and says what to install for the picture', async () => {
    const html = path.join(dir, 'no-osra-picture.html');
    execFileSync('/usr/bin/python3', [path.join(__dirname, 'vector-draw.py'), html, 'CC(=O)NC']);
    const png = execFileSync('/usr/bin/python3', ['-c', "import sys; from rdkit import Chem; from rdkit.Chem import Draw; sys.stdout.buffer.write(Draw.MolToImage(Chem.MolFromSmiles('Clc1ccccc1'), size=(300, 300))._repr_png_())"]);
    fs.writeFileSync(html, fs.readFileSync(html, 'utf8').replace('<p>', `<img src="data:image/png;base64,${png.toString('base64')}" style="width:150pt;height:150pt"><p>`));
    const file = print('no-osra-picture', html);
    const { structures, notes } = await withoutOsra(() => pdfStructures(file, () => {}));
    expect(structures.map((s) => [s.method, s.smiles])).toEqual([['vector', (await identity('CC(=O)NC')).smiles]]);
    expect(notes).toEqual(['从图中识别出 1 个化学结构', OSRA_MISSING]);
  }, 180_000);
});

describe('groups written as their labels (abbreviations)', () => {
  // Groups on either side of the drawing: CO2Et, iPr, CF3, OMe/MeO, NHAc/AcHN, SO3H, SMe, CHO/OHC,
  // OEt, OAc, CO2H/HO2C, NHMe, CN/NC, CCl3/Cl3C, nPr, NO2/O2N, Ac, tBu, NMe2, and a wedge to NH2.
  const drawn = [
    'CCOC(=O)c1ccc(cc1)C(C)C',
    'OC(=O)c1cc(C(F)(F)F)ccc1OC',
    'CC(=O)Nc1ccc(cc1)S(=O)(=O)O',
    'CSc1ccc(C=O)cc1OCC',
    'CC(=O)Oc1ccccc1C(=O)O',
    'CNc1ccc(cc1C#N)C(Cl)(Cl)Cl',
    'CCCc1ccc(cc1[N+](=O)[O-])C(C)=O',
    'OC(=O)C[C@H](N)c1ccc(OC(F)(F)F)cc1',
  ];

  it('reads RDKit drawings with groups condensed to labels (rdAbbreviations.CondenseMolAbbreviations)', async () => {
    const read = await readPdf(rdkitPdf('abbreviations', drawn, ['--abbreviations']));
    expect(read.map((m) => m.inchiKey).sort()).toEqual((await Promise.all(drawn.map(identity))).map((w) => w.inchiKey).sort());
  }, 120_000);

  it('reads them drawn in black (useBWAtomPalette)', async () => {
    const some = drawn.slice(0, 4);
    const read = await readPdf(rdkitPdf('abbreviations-bw', some, ['--abbreviations', '--bw']));
    expect(read.map((m) => m.inchiKey).sort()).toEqual((await Promise.all(some.map(identity))).map((w) => w.inchiKey).sort());
  }, 120_000);

  it('reads Open Babel drawings with groups as text labels (--genalias -xA)', async () => {
    const ob = [...drawn.slice(0, 7), 'CC(C)(C)c1ccc(N(C)C)cc1'];
    const read = await readPdf(obabelPdf('obabel-aliases', ob));
    expect(read.map((m) => m.inchiKey).sort()).toEqual((await Promise.all(ob.map(identity))).map((w) => w.inchiKey).sort());
  }, 120_000);

  it('reads Open Babel\'s minus ("_") on the atom under it, and crowded labels by the way their bonds point', async () => {
    // A nitro group's O− drawn under its N+ (the "_" run's box reaches the N), and an F drawn
    // against the ring O of a perfluorinated oxocane (the nearest label to a C–F bond's end is the O).
    const ob = ['NC(=O)NN=Cc1cccc([N+](=O)[O-])c1', 'FC1(F)OC(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C1(F)F', 'CC(=Cc1ccccc1)[N+](=O)[O-]'];
    const read = await readPdf(obabelPdf('obabel-plain', ob, false));
    expect(read.map((m) => m.inchiKey).sort()).toEqual((await Promise.all(ob.map(identity))).map((w) => w.inchiKey).sort());
  }, 120_000);

  it('names each label\'s group from the side its bond comes from', async () => {
    const rdkit = await loadRdkit();
    const same = async (a: string | null, b: string) => expect(a && (await identity(a)).smiles).toBe((await identity(b)).smiles);
    await same(groupSmiles('CO2Me', false), 'C(=O)OC');
    await same(groupSmiles('MeO2C', true), 'C(=O)OC');
    await same(groupSmiles('HO2C', true), 'C(=O)O');
    await same(groupSmiles('HOOC', true), 'C(=O)O');
    await same(groupSmiles('F3C', true), 'C(F)(F)F');
    await same(groupSmiles('H2NO2S', true), 'S(N)(=O)=O');
    await same(groupSmiles('MeSO2', true), 'S(C)(=O)=O');
    await same(groupSmiles('AcHN', true), 'NC(C)=O');
    await same(groupSmiles('BocHN', true), 'NC(=O)OC(C)(C)C');
    await same(groupSmiles('NMe2', false), 'N(C)C');
    await same(groupSmiles('Me2N', true), 'N(C)C');
    await same(groupSmiles('t-Bu', false), 'C(C)(C)C');
    await same(groupSmiles('i-Pr', true), 'C(C)C');
    await same(groupSmiles('OCF3', false), 'OC(F)(F)F');
    await same(groupSmiles('Ph', true), 'c1ccccc1');
    await same(groupSmiles('OTBS', false), 'O[Si](C)(C)C(C)(C)C');
    // Cyano is CN written to the right of its bond and NC to the left; the other way round, an isocyanide.
    await same(groupSmiles('CN', false), 'C#N');
    await same(groupSmiles('NC', true), 'C#N');
    await same(groupSmiles('NC', false), '[N+]#[C-]');
    // No group: a caption, a value, a compound number.
    expect(groupSmiles('Figure', false)).toBeNull();
    expect(groupSmiles('12a', false)).toBeNull();
    expect(groupSmiles('IC50', false)).toBeNull();
    expect(groupGraph(rdkit, 'c1ccccc1')?.bonds.map((b) => b.order).sort()).toEqual([1, 1, 1, 2, 2, 2]);
  });
});

describe('vector structures with text labels', () => {
  // 2-chloro-N-methylacetamide: Cl–CH2–C(=O)–NH–CH3, 20 pt bonds, labels as text, bonds stopping short of them.
  const cl: P = [100, 400];
  const c1: P = [117.32, 410];
  const c2: P = [134.64, 400];
  const o: P = [134.64, 380];
  const n: P = [151.96, 410];
  const c4: P = [169.28, 400];
  const amide = [
    '0.8 w',
    bond(cl, c1, 6),
    bond(c1, c2),
    bond(c2, o, 0, 5, -1.6),
    bond(c2, o, 0, 5, 1.6),
    bond(c2, n, 0, 5),
    bond(n, c4, 5),
    label(cl, 'Cl'),
    label(o, 'O'),
    label(n, 'NH'),
  ].join('\n');

  it('reads an amide with O, NH and Cl labels', async () => {
    const read = await readPdf(handPdf('amide', amide));
    expect(read.map((m) => m.inchiKey)).toEqual([(await identity('ClCC(=O)NC')).inchiKey]);
  });

  /** (R/S)-butan-2-ol: a solid wedge from C2 to the methyl; `flip` mirrors the drawing. */
  function butanol(flip: boolean): string {
    const x = (p: P): P => (flip ? [600 - p[0], p[1]] : p);
    const c2: P = x([300, 400]);
    const me: P = x([282.68, 410]);
    const c3: P = x([317.32, 410]);
    const c4: P = x([334.64, 400]);
    const oh: P = x([300, 380]);
    const wedge = `${c2[0]} ${c2[1]} m ${me[0] - 1.5} ${me[1] - 2.6} l ${me[0] + 1.5} ${me[1] + 2.6} l h f`;
    return ['0.8 w', wedge, bond(c2, c3), bond(c3, c4), bond(c2, oh, 0, 5), label(oh, flip ? 'HO' : 'OH')].join('\n');
  }

  it('reads a solid wedge as a stereocentre, and its mirror image as the other one', async () => {
    const [left] = await readPdf(handPdf('wedge', butanol(false)));
    const [right] = await readPdf(handPdf('wedge-mirror', butanol(true)));
    expect(left?.smiles).toMatch(/@/);
    expect(right?.smiles).toMatch(/@/);
    expect(left!.smiles).not.toBe(right!.smiles);
    const both = [(await identity('C[C@@H](O)CC')).smiles, (await identity('C[C@H](O)CC')).smiles].sort();
    expect([left!.smiles, right!.smiles].sort()).toEqual(both);
  });

  it('reads labels written the usual ways', () => {
    expect(parseLabel('NH2')).toEqual({ element: 'N', charge: 0 });
    expect(parseLabel('H3C')).toEqual({ element: 'C', charge: 0 });
    expect(parseLabel('HO')).toEqual({ element: 'O', charge: 0 });
    expect(parseLabel('N+')).toEqual({ element: 'N', charge: 1 });
    expect(parseLabel('O\u2212')).toEqual({ element: 'O', charge: -1 });
    expect(parseLabel('Cl')).toEqual({ element: 'Cl', charge: 0 });
    expect(parseLabel('10')).toBeNull();
    expect(parseLabel('Year')).toBeNull();
  });
});

describe('drawings that are no molecule give none', () => {
  it('a bar chart with axes, ticks, values and bars', async () => {
    const parts = ['0.8 w', line([60, 100], [300, 100]), line([60, 100], [60, 260])];
    for (let i = 0; i <= 4; i++) {
      parts.push(line([60, 100 + 40 * i], [55, 100 + 40 * i]), `BT /F1 8 Tf 40 ${97 + 40 * i} Td (${10 * i}) Tj ET`);
    }
    for (let i = 0; i < 5; i++) parts.push(`${80 + 45 * i} 100 25 ${30 + 25 * i} re f`, `BT /F1 8 Tf ${85 + 45 * i} 88 Td (C${i + 1}) Tj ET`);
    // A line plot of straight segments over it (a zigzag of even steps, as a molecule's chain would be).
    for (let i = 0; i < 5; i++) parts.push(line([92 + 45 * i, 150 + (i % 2) * 20], [137 + 45 * i, 150 + ((i + 1) % 2) * 20]));
    expect(await readPdf(handPdf('chart', parts.join('\n')))).toEqual([]);
  });

  it('a ruled table, a frame and a reaction arrow', async () => {
    const parts = ['0.6 w'];
    for (let r = 0; r <= 4; r++) parts.push(line([60, 500 + 18 * r], [360, 500 + 18 * r]));
    for (let c = 0; c <= 3; c++) parts.push(line([60 + 100 * c, 500], [60 + 100 * c, 572]));
    for (let r = 0; r < 4; r++) for (let c = 0; c < 3; c++) parts.push(`BT /F1 8 Tf ${70 + 100 * c} ${505 + 18 * r} Td (${r * 3 + c + 1}.5 nM) Tj ET`);
    // A frame of even sides, and an arrow: a line with a filled head.
    parts.push(line([400, 300], [420, 300]), line([420, 300], [420, 320]), line([420, 320], [400, 320]), line([400, 320], [400, 300]));
    parts.push(line([100, 300], [160, 300]), '160 303 m 168 300 l 160 297 l h f');
    expect(await readPdf(handPdf('table', parts.join('\n')))).toEqual([]);
  });
});
