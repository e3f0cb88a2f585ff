import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRdkit, withValidMol } from '../../../../src/server/chem/rdkit-loader';
import { osraVersion, readStructures, type OsraHit } from '../../../../src/server/parsing/chemistry/osra';
import type { Gray } from '../../../../src/server/parsing/chemistry/regions';
import { withoutAtoms } from '../../../../src/server/parsing/chemistry/molfile';
import { relabelled, withLabels } from '../../../../src/server/parsing/chemistry/relabel';
import { ppocrAvailable, readBoxes } from '../../../../src/server/parsing/ppocr';
import { imageStructures } from '../../../../src/server/parsing/chemistry/document';
import { keyOf } from './read-keys';

// Issue 28 §1: OSRA's small OCR misreads the atom labels of pictures and scans (an N read as C, a
// Cl as I). The labels are read again with PP-OCR where OSRA put the atoms, and where a label reads
// as another element the atom takes it.

const SMILES = 'CN(C)c1ccc(Cl)cc1C(=O)OC';
let dir = '';
let hit: OsraHit;
let ink: Gray;

/** The molfile with atom `n` (1-based) given `symbol`. */
function withSymbol(molfile: string, n: number, symbol: string): string {
  const lines = molfile.split('\n');
  const c = lines.findIndex((l) => /V2000\s*$/.test(l));
  const line = lines[c + n]!;
  lines[c + n] = `${line.slice(0, 31)}${symbol.padEnd(3)}${line.slice(34)}`;
  return lines.join('\n');
}

/** 1-based numbers of the molfile's atoms of `symbol`. */
function atomsOf(molfile: string, symbol: string): number[] {
  const lines = molfile.split('\n');
  const c = lines.findIndex((l) => /V2000\s*$/.test(l));
  const n = Number(lines[c]!.slice(0, 3));
  return lines.slice(c + 1, c + 1 + n).flatMap((l, i) => (l.slice(31, 34).trim() === symbol ? [i + 1] : []));
}

async function canonical(smilesOrMolfile: string): Promise<string> {
  const rdkit = await loadRdkit();
  return withValidMol(rdkit, smilesOrMolfile, (m) => m.get_smiles()) ?? '';
}

beforeAll(async () => {
  if ((await osraVersion()) === null) throw new Error('osra is not installed: run the setup step (scripts/setup-system.sh)');
  const models = await ppocrAvailable();
  if (!models.ok) throw new Error(`PP-OCR's models do not load: ${models.reason}`);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-relabel-'));
  // RDKit's drawing.
  const rdkit = await loadRdkit();
  ({ hit, ink } = await readDrawing(Buffer.from(withValidMol(rdkit, SMILES, (m) => m.get_svg(500, 360))!), 'drawing.png'));
}, 120_000);

/**
 * A drawing made black and white as recognize.ts hands it to OSRA (its darkest channel, cut at 150),
 * OSRA's one reading of it, and its ink (1 for black).
 */
async function readDrawing(picture: Buffer, name: string): Promise<{ hit: OsraHit; ink: Gray }> {
  const { data, info } = await sharp(picture).flatten({ background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
  const bw = new Uint8Array(info.width * info.height);
  for (let i = 0; i < bw.length; i++) bw[i] = Math.min(data[i * info.channels]!, data[i * info.channels + 1]!, data[i * info.channels + 2]!) < 150 ? 0 : 255;
  const file = path.join(dir, name);
  await sharp(bw, { raw: { width: info.width, height: info.height, channels: 1 } }).png().toFile(file);
  const read = await readStructures(file, { resolution: 300, timeoutMs: 60_000 });
  expect(read.hits).toHaveLength(1);
  return { hit: read.hits[0]!, ink: { data: Uint8Array.from(bw, (v) => (v === 0 ? 1 : 0)), width: info.width, height: info.height } };
}

/** `ink` with every black pixel grown by `r` pixels each way (a square neighbourhood). */
function thickened(ink: Gray, r: number): Gray {
  const data = new Uint8Array(ink.data.length);
  for (let y = 0; y < ink.height; y++)
    for (let x = 0; x < ink.width; x++) {
      if (!ink.data[y * ink.width + x]) continue;
      for (let v = Math.max(0, y - r); v <= Math.min(ink.height - 1, y + r); v++) data.fill(1, v * ink.width + Math.max(0, x - r), v * ink.width + Math.min(ink.width - 1, x + r) + 1);
    }
  return { data, width: ink.width, height: ink.height };
}

/** Open Babel's PNG drawing of `smiles`, read as readDrawing reads a drawing. */
function readObabel(smiles: string, name: string): Promise<{ hit: OsraHit; ink: Gray }> {
  return readDrawing(execFileSync('obabel', [`-:${smiles}`, '-opng', '-xp', '513'], { stdio: ['ignore', 'pipe', 'ignore'] }), name);
}

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('relabelled', () => {
  it("reads OSRA's drawing as it is (the test's own premise): the right molecule, its bond length printed", async () => {
    expect(await canonical(hit.molfile)).toBe(await canonical(SMILES));
    expect(hit.bondPx).toBeGreaterThan(20);
    expect(hit.box).not.toBeNull();
  });

  it('changes nothing where every label was read right', async () => {
    expect(await relabelled(hit.molfile, hit.bondPx, hit.box, ink, readBoxes)).toBeNull();
  });

  it('gives back the N that was read as a carbon, and the Cl read as I, from the labels in the picture', async () => {
    const [n] = atomsOf(hit.molfile, 'N');
    const [cl] = atomsOf(hit.molfile, 'Cl');
    const misread = withSymbol(withSymbol(hit.molfile, n!, 'C'), cl!, 'I');
    expect(await canonical(misread)).not.toBe(await canonical(SMILES));
    const fixed = await relabelled(misread, hit.bondPx, hit.box, ink, readBoxes);
    expect(fixed).not.toBeNull();
    expect(await canonical(fixed!.molfile)).toBe(await canonical(SMILES));
    expect(fixed!.changes.join(' ')).toMatch(/C→N .*I→Cl|I→Cl .*C→N/);
  }, 60_000);

  it("takes OSRA's I for whatever the label reads, when the recogniser reads it as another element", async () => {
    const [n] = atomsOf(hit.molfile, 'N');
    const fixed = await relabelled(withSymbol(hit.molfile, n!, 'I'), hit.bondPx, hit.box, ink, readBoxes);
    expect(fixed?.changes).toEqual([expect.stringMatching(/^I→N /)]);
    expect(await canonical(fixed!.molfile)).toBe(await canonical(SMILES));
  });

  it("takes OSRA's I for a Cl by its label's two glyphs when the recogniser cannot read them, and only then", async () => {
    const [cl] = atomsOf(hit.molfile, 'Cl');
    const misread = withSymbol(hit.molfile, cl!, 'I');
    const unsure: typeof readBoxes = async (_img, boxes) => boxes.map(() => ({ text: '?', score: 0.1 }));
    const fixed = await relabelled(misread, hit.bondPx, hit.box, ink, unsure);
    expect(fixed?.changes).toEqual([expect.stringMatching(/^I→Cl \(a label of 2 glyphs/)]);
    expect(await canonical(fixed!.molfile)).toBe(await canonical(SMILES));
    // The N's label is one glyph: an I there stays an I when the recogniser cannot read it.
    const [n] = atomsOf(hit.molfile, 'N');
    expect(await relabelled(withSymbol(hit.molfile, n!, 'I'), hit.bondPx, hit.box, ink, unsure)).toBeNull();
    // A label the recogniser reads as another element is that element, whatever its width.
    expect((await relabelled(misread, hit.bondPx, hit.box, ink, async (_img, boxes) => boxes.map(() => ({ text: 'Br', score: 0.9 }))))?.changes).toContainEqual(expect.stringMatching(/^I→Br /));
  });

  it('leaves a carbon drawn as a bare corner a carbon (no label there to read)', async () => {
    // The methyl ester's carbon made an oxygen: no glyph at a corner says otherwise, so it stays as given.
    const carbons = atomsOf(hit.molfile, 'C');
    const wrong = withSymbol(hit.molfile, carbons[0]!, 'O');
    const r = await relabelled(wrong, hit.bondPx, hit.box, ink, readBoxes);
    expect(r?.changes ?? []).not.toContainEqual(expect.stringMatching(/^O→/));
  });

  it("reads the label of an atom OSRA could not read (*) whose letters run into its bonds", async () => {
    // The drawing's ink thickened by a pixel or two, as a scan thresholded near its paper comes out:
    // the N's letter joins the lines of its three bonds, so it is no glyph of its own.
    const star = withSymbol(hit.molfile, atomsOf(hit.molfile, 'N')[0]!, '*');
    for (const grow of [1, 2]) {
      const fixed = await relabelled(star, hit.bondPx, hit.box, thickened(ink, grow), readBoxes);
      expect(fixed?.changes, `thickened by ${grow}`).toContainEqual(expect.stringMatching(/^\*→N /));
      expect(await canonical(fixed!.molfile)).toBe(await canonical(SMILES));
    }
    // An atom OSRA read as a carbon is not read from such a square: a bare corner has none to read.
    const asCarbon = withSymbol(hit.molfile, atomsOf(hit.molfile, 'N')[0]!, 'C');
    const r = await relabelled(asCarbon, hit.bondPx, hit.box, thickened(ink, 2), readBoxes);
    expect(r?.changes ?? []).not.toContainEqual(expect.stringMatching(/^C→N /));
  }, 60_000);

  it('gives up, changing nothing, on what it cannot place or read', async () => {
    const blank: Gray = { data: new Uint8Array(ink.width * ink.height), width: ink.width, height: ink.height };
    const misread = withSymbol(hit.molfile, atomsOf(hit.molfile, 'N')[0]!, 'C');
    // No ink where the bonds should be: the atoms cannot be placed.
    expect(await relabelled(misread, hit.bondPx, hit.box, blank, readBoxes)).toBeNull();
    // No bond length, or not a molfile.
    expect(await relabelled(misread, 0, hit.box, ink, readBoxes)).toBeNull();
    expect(await relabelled('not a molfile', hit.bondPx, hit.box, ink, readBoxes)).toBeNull();
    // A recogniser that reads nothing, or reads with no confidence.
    expect(await relabelled(misread, hit.bondPx, hit.box, ink, async (_img, boxes) => boxes.map(() => null))).toBeNull();
    expect(await relabelled(misread, hit.bondPx, hit.box, ink, async (_img, boxes) => boxes.map(() => ({ text: 'N', score: 0.3 })))).toBeNull();
  });
});

/**
 * The molfile with an atom of `symbol` added `beyond` a bond past terminal atom `n` (1-based),
 * double-bonded to it, and atom `n` made `as` (a methyl read as C=C, a hydroxyl as N=O).
 */
function withExtraAtom(molfile: string, n: number, symbol: string, as?: string, beyond = 0.5): string {
  const lines = (as ? withSymbol(molfile, n, as) : molfile).split('\n');
  const c = lines.findIndex((l) => /V2000\s*$/.test(l));
  const nAtoms = Number(lines[c]!.slice(0, 3));
  const nBonds = Number(lines[c]!.slice(3, 6));
  const xy = (i: number) => [Number(lines[c + i]!.slice(0, 10)), Number(lines[c + i]!.slice(10, 20))];
  const bondLines = lines.slice(c + 1 + nAtoms, c + 1 + nAtoms + nBonds);
  const bond = bondLines.find((l) => Number(l.slice(0, 3)) === n || Number(l.slice(3, 6)) === n)!;
  const other = Number(bond.slice(0, 3)) === n ? Number(bond.slice(3, 6)) : Number(bond.slice(0, 3));
  const [x, y] = xy(n);
  const [ox, oy] = xy(other);
  const atom = `${(x! + (x! - ox!) * beyond).toFixed(4).padStart(10)}${(y! + (y! - oy!) * beyond).toFixed(4).padStart(10)}    0.0000 ${symbol.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`;
  return [
    ...lines.slice(0, c),
    `${String(nAtoms + 1).padStart(3)}${String(nBonds + 1).padStart(3)}${lines[c]!.slice(6)}`,
    ...lines.slice(c + 1, c + 1 + nAtoms),
    atom,
    ...bondLines,
    `${String(n).padStart(3)}${String(nAtoms + 1).padStart(3)}  2  0  0  0  0`,
    ...lines.slice(c + 1 + nAtoms + nBonds),
  ].join('\n');
}

describe("a hydroxyl's label read as a nitroso group", () => {
  // OSRA at times reads the HO of a hydroxyl as NO and writes a nitroso group, N=O. The label reads
  // as a hydroxyl again: one oxygen, where the bond from the rest of the molecule enters it.
  const ALCOHOL = 'OCCN(CC)CCCCNc1ccnc(N)n1';
  let read: OsraHit;
  let bw: Gray;

  beforeAll(async () => {
    ({ hit: read, ink: bw } = await readObabel(ALCOHOL, 'alcohol.png'));
    expect(await keyOf(await canonical(read.molfile))).toBe(await keyOf(ALCOHOL));
  }, 120_000);

  it('is one oxygen again', async () => {
    // OSRA writes the label's H as an atom of its own: the reading without its hydrogens.
    const hydrogens = new Set(atomsOf(read.molfile, 'H').map((n) => n - 1));
    const heavy = withoutAtoms(read.molfile, hydrogens)!;
    const [o] = atomsOf(heavy, 'O');
    // Within the label's letters, where OSRA puts the atoms of a label it expands.
    const misread = withExtraAtom(heavy, o!, 'O', 'N', 0.25);
    expect(await keyOf(await canonical(misread))).toBe(await keyOf('O=NCCN(CC)CCCCNc1ccnc(N)n1'));
    const fixed = await relabelled(misread, read.bondPx, read.box, bw, readBoxes);
    expect(fixed?.changes).toEqual([expect.stringMatching(/^N=O→O “(HO|OH)”$/)]);
    expect(await keyOf(await canonical(fixed!.molfile))).toBe(await keyOf(ALCOHOL));
  }, 60_000);

  it('leaves a nitroso group drawn as N=O a nitroso group', async () => {
    // A real one: Open Babel draws its N and O as two labels, each read as itself.
    const NITROSO = 'O=NCCN(CC)CCCCNc1ccnc(N)n1';
    const drawn = await readObabel(NITROSO, 'nitroso.png');
    expect(await keyOf(await canonical(drawn.hit.molfile))).toBe(await keyOf(NITROSO));
    const r = await relabelled(drawn.hit.molfile, drawn.hit.bondPx, drawn.hit.box, drawn.ink, readBoxes);
    expect(r?.changes ?? []).not.toContainEqual(expect.stringMatching(/^N=O→/));
  }, 120_000);
});

describe("a methyl's label read as two atoms", () => {
  // Open Babel writes a terminal methyl as a label, H₃C or CH₃; OSRA at times reads such a label as
  // two carbons (CH₃ as C=C: an ethyl read as a vinyl). The label reads as a methyl again: one carbon.
  const ETHYLS = 'CCN(CC)CCCCNc1ccnc(N)n1';
  let read: OsraHit;
  let bw: Gray;

  beforeAll(async () => {
    ({ hit: read, ink: bw } = await readObabel(ETHYLS, 'ethyls.png'));
    expect(await keyOf(await canonical(read.molfile))).toBe(await keyOf(ETHYLS));
  }, 120_000);

  it('is one carbon again, where the bond from the rest of the molecule enters the label', async () => {
    // The two methyls: the terminal carbons (one bond each).
    const lines = read.molfile.split('\n');
    const c = lines.findIndex((l) => /V2000\s*$/.test(l));
    const nAtoms = Number(lines[c]!.slice(0, 3));
    const ends = atomsOf(read.molfile, 'C').filter((n) => lines.slice(c + 1 + nAtoms).filter((l) => /^\s*\d+\s+\d+\s+\d/.test(l) && (Number(l.slice(0, 3)) === n || Number(l.slice(3, 6)) === n)).length === 1);
    expect(ends).toHaveLength(2);
    for (const end of ends) {
      const misread = withExtraAtom(read.molfile, end, 'C');
      expect(await keyOf(await canonical(misread))).toBe(await keyOf('C=CCN(CC)CCCCNc1ccnc(N)n1'));
      const fixed = await relabelled(misread, read.bondPx, read.box, bw, readBoxes);
      expect(fixed?.changes, `methyl atom ${end}`).toEqual([expect.stringMatching(/^C=C→CH3 “(CH3|H3C|CH₃|H₃C)”$/)]);
      expect(await keyOf(await canonical(fixed!.molfile))).toBe(await keyOf(ETHYLS));
    }
  }, 60_000);

  it('leaves a vinyl drawn as lines a vinyl (no label there)', async () => {
    // The extra carbon on a carbon of the butyl chain, drawn as a bare corner: no label there.
    const lines = read.molfile.split('\n');
    const c = lines.findIndex((l) => /V2000\s*$/.test(l));
    const nAtoms = Number(lines[c]!.slice(0, 3));
    const bonds = lines.slice(c + 1 + nAtoms, c + 1 + nAtoms + Number(lines[c]!.slice(3, 6))).map((l) => [Number(l.slice(0, 3)), Number(l.slice(3, 6))]);
    const carbons = new Set(atomsOf(read.molfile, 'C'));
    const neighbours = (n: number) => bonds.flatMap(([a, b]) => (a === n ? [b!] : b === n ? [a!] : []));
    const chain = [...carbons].find((n) => neighbours(n).length === 2 && neighbours(n).every((m) => carbons.has(m) && neighbours(m).length === 2))!;
    expect(chain).toBeDefined();
    const misread = withExtraAtom(read.molfile, chain, 'C');
    const fixed = await relabelled(misread, read.bondPx, read.box, bw, readBoxes);
    expect(fixed?.changes ?? []).not.toContainEqual(expect.stringMatching(/CH3/));
  }, 60_000);
});

describe('withLabels', () => {
  /** The box of every ink pixel of `g` (top-left origin, exclusive ends). */
  const inkBox = (g: Gray): [number, number, number, number] => {
    const b: [number, number, number, number] = [g.width, g.height, 0, 0];
    for (let y = 0; y < g.height; y++)
      for (let x = 0; x < g.width; x++)
        if (g.data[y * g.width + x] === 1) {
          b[0] = Math.min(b[0], x);
          b[1] = Math.min(b[1], y);
          b[2] = Math.max(b[2], x + 1);
          b[3] = Math.max(b[3], y + 1);
        }
    return b;
  };

  it("grows OSRA's box to the whole drawing, labels at its edges included, and no further", () => {
    const whole = inkBox(ink);
    // A box through the atoms' centres, as OSRA gives when it misreads the labels at the edges
    // (H₂N read as a carbon): a label's letters reach about a fifth of a bond past its atom.
    const d = Math.round(hit.bondPx / 5);
    const inner: [number, number, number, number] = [whole[0] + d, whole[1] + d, whole[2] - d, whole[3] - d];
    const grown = withLabels(inner, hit.bondPx, ink);
    expect(grown.map((v, i) => Math.abs(v - whole[i]!) <= 1), `${grown} against the ink's ${whole}`).toEqual([true, true, true, true]);
    // Already whole: unchanged.
    expect(withLabels(hit.box!, hit.bondPx, ink).map((v, i) => Math.abs(v - whole[i]!) <= 1)).toEqual([true, true, true, true]);
    // A mark two bonds away (the next drawing's label, a page number) stays outside.
    const marked: Gray = { ...ink, data: Uint8Array.from(ink.data) };
    const [mx, my] = [Math.min(ink.width - 12, whole[2] + Math.round(1.5 * hit.bondPx)), Math.round((whole[1] + whole[3]) / 2)];
    for (let y = my; y < my + 10; y++) marked.data.fill(1, y * ink.width + mx, y * ink.width + mx + 8);
    expect(withLabels(inner, hit.bondPx, marked)[2]).toBeLessThanOrEqual(whole[2] + 1);
    // No bond length: OSRA's box as it is.
    expect(withLabels(inner, 0, ink)).toEqual(inner);
  });
});

describe('a small picture whose labels OSRA cannot read', () => {
  it('is read right through the product, its N and Cl read again (OSRA alone left them unknown)', async () => {
    // RDKit's drawing of 2-amino-4-chlorobenzyl alcohol, 300 × 220 pixels saved at 100 dpi: OSRA reads
    // its NH2 and Cl as unknown atoms (*) at every resolution the product tries.
    const smiles = 'OCc1ccc(Cl)cc1N';
    const rdkit = await loadRdkit();
    const svg = withValidMol(rdkit, smiles, (m) => m.get_svg(300, 220))!;
    const file = path.join(dir, 'small.png');
    await sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).withMetadata({ density: 100 }).png().toFile(file);
    const { structures } = await imageStructures(file, () => {});
    const read = structures.map((s) => `${s.smiles} (${s.method})`).join(' ');
    expect(await Promise.all(structures.map((s) => keyOf(s.smiles))), read).toEqual([await keyOf(smiles)]);
    expect(read).toMatch(/labels read again \(.*→N .*→Cl /);
    // The box shown for review holds the whole drawing, its labels at the edges (HO, H₂N, Cl) too:
    // every pixel of ink, in the image's pixels with the origin bottom-left.
    const { data, info } = await sharp(file).greyscale().raw().toBuffer({ resolveWithObject: true });
    const ink = [Infinity, Infinity, -Infinity, -Infinity];
    for (let y = 0; y < info.height; y++)
      for (let x = 0; x < info.width; x++)
        if (data[(y * info.width + x) * info.channels]! < 200) {
          const up = info.height - y;
          ink[0] = Math.min(ink[0]!, x);
          ink[1] = Math.min(ink[1]!, up - 1);
          ink[2] = Math.max(ink[2]!, x + 1);
          ink[3] = Math.max(ink[3]!, up);
        }
    const [x0, y0, x1, y1] = structures[0]!.bbox;
    expect([x0 <= ink[0]! + 1, y0 <= ink[1]! + 1, x1 >= ink[2]! - 1, y1 >= ink[3]! - 1], `box ${structures[0]!.bbox} against ink ${ink}`).toEqual([true, true, true, true]);
  }, 120_000);
});
