import { readV2000, withoutAtoms, type MolAtom } from './molfile';
import { pieces8 } from './pieces';
import type { Gray } from './regions';

/**
 * Atom labels read again. OSRA reads a drawing's atom labels with its own small OCR, which misreads
 * the small, thin letters of a picture or a scan: an N or an O becomes a carbon, "Cl" becomes I. The
 * labels' letters are still in the image where OSRA put the atoms. So each atom OSRA found is placed
 * back on the image it read (OSRA's coordinates are the image's pixels scaled to a bond length of
 * 1.5, and `-b` prints the bond length in pixels; the offset is found by putting the bonds on ink),
 * the glyphs next to it (small pieces of ink, apart from the bonds) are gathered into the label, and
 * PP-OCR's recogniser (ppocr.ts) reads that label again, on a clean copy holding only those glyphs.
 * Where it reads a one-atom label (N, NH, OH, S, Cl, …) with confidence and the element differs from
 * OSRA's, the atom takes the element read. recognize.ts offers the result beside OSRA's reading;
 * judge.ts scores both. The limits below were set by hand from a few drawings and checked on the
 * tuning half of the chemdocs set (bench/chemdocs.bench.ts: 80 → 81 of 110 read exactly; the
 * held-out half 82 → 83 of 124). The recogniser is unsure of one or two small letters alone, so
 * most labels OSRA misread stay below MIN_SCORE.
 *
 * A methyl's label (Open Babel's H₃C, CH₃) that OSRA read as two carbons (an ethyl read as a vinyl)
 * becomes one carbon again. Placing the atoms also tries the scale OSRA's box gives: 16 of 113
 * readings of the tuning half's pictures and scans could not be placed with the bond length alone.
 * Both together: tuning half 81 → 83 of 110, held-out half 83 → 83 of 124. The same holds for any
 * label of one heavy atom OSRA read as two (a hydroxyl's HO read as a nitroso group, N=O).
 *
 * A label OSRA saw but could not read (*) whose letters run into its bond lines (a thresholded scan's
 * ring N) has no glyph of its own: the square of ink around the atom is read instead. Pictures and
 * scans of the tuning half 45 → 46 of 70 (vector drawings 40 of 40 either way), held-out half 83 → 84
 * of 124.
 */

export interface LabelReader {
  (img: { data: Uint8Array; width: number; height: number }, boxes: Array<[number, number, number, number]>): Promise<Array<{ text: string; score: number } | null>>;
}

/** A label is read when the recogniser's mean confidence is at least this. */
const MIN_SCORE = 0.8;
/**
 * OSRA's I is one narrow stroke, a label papers rarely draw: where the recogniser reads that atom's
 * label as something else at least this sure, the I was a misreading. A label of a C and at most one
 * more letter is then a Cl (its l lost or misread).
 */
const I_SCORE = 0.4;
/** What OSRA may have misread: carbons, one-atom labels, and labels it could not read at all (*). Its superatoms and R groups stay. */
const CHANGEABLE = new Set(['C', 'N', 'O', 'S', 'F', 'Cl', 'Br', 'I', 'B', 'P', '*']);
/** Glyphs belong to an atom when their centre lies within this share of a bond length of it. */
const NEAR = 0.4;
/** A glyph is at most this share of a bond length wide and tall (a bond's ink is longer). */
const GLYPH_MAX = 0.55;
/** … and at least this tall (speckle is smaller). */
const GLYPH_MIN = 0.12;
/**
 * Half the side of the square read around an atom OSRA could not read (*) whose label has no glyph
 * of its own, in bond lengths: about a letter's half height, so that little of its bonds is in it.
 * 0.14–0.17 read the same on the tuning half of the chemdocs set.
 */
const SQUARE = 0.15;
/** The bonds placed on ink: at least this share of the points along them. */
const MIN_ON_INK = 0.6;

/**
 * One-atom labels as the recogniser may spell them (it confuses O with 0, l with I or 1), and the
 * element each stands for. Labels of several heavy atoms (OMe, CF3, NO2) are OSRA's to read.
 */
const LABELS: ReadonlyArray<[RegExp, string]> = [
  [/^(N|n|NH|HN|NH2|H2N|NH₂|H₂N)$/, 'N'],
  [/^(O|o|0|OH|HO|0H|H0|oH|Ho)$/, 'O'],
  [/^(S|s|SH|HS)$/, 'S'],
  // The l of a small Cl is one thin stroke: read as l, I, 1, ! or |.
  [/^[Cc][lI1!|]$/, 'Cl'],
  [/^(Br|BR)$/, 'Br'],
  [/^F$/, 'F'],
];

/** A methyl's label as the recogniser may spell it (its small 3 may be lost). */
const METHYL = /^(CH[3₃]?|H[3₃]?C|Me)$/;
/** Atoms OSRA put on a label lie within its letters' box widened by this share of a bond length. */
const MERGE_MARGIN = 0.3;

function elementOf(text: string): string | null {
  const t = text.replace(/\s+/g, '').replace(/[+\-−⁺⁻·•.,:;'"`]+$/u, '').replace(/^[+\-−⁺⁻·•.,:;'"`]+/u, '');
  for (const [re, el] of LABELS) if (re.test(t)) return el;
  return null;
}

/**
 * `molfile` (OSRA's V2000 reading of `ink`, black pixels 1, with the average bond length `bondPx`
 * in its pixels) with the atoms whose labels read as another element changed, and what changed;
 * null when nothing changed or the atoms cannot be placed on the image.
 */
export async function relabelled(molfile: string, bondPx: number, box: [number, number, number, number] | null, ink: Gray, read: LabelReader): Promise<{ molfile: string; changes: string[] } | null> {
  const parsed = readV2000(molfile);
  if (!parsed || !(bondPx > 4) || parsed.atoms.length < 2 || parsed.bonds.length < 1) return null;
  const { lines, c, atoms, bonds: bondLines } = parsed;
  const bonds = bondLines.map(({ a, b }) => [a, b] as [number, number]);
  const heavy = bonds.filter(([a, b]) => atoms[a]!.symbol !== 'H' && atoms[b]!.symbol !== 'H');
  if (!heavy.length) return null;
  const molBond = heavy.reduce((t, [a, b]) => t + Math.hypot(atoms[a]!.x - atoms[b]!.x, atoms[a]!.y - atoms[b]!.y), 0) / heavy.length;
  if (!(molBond > 0)) return null;

  // Where the atoms lie: centred on OSRA's box (or the image), scaled and shifted so that the bonds
  // lie on ink. OSRA's coordinates are the image's pixels scaled to a fixed bond length, the bond
  // length `-b` prints being the pixels' bond: mostly. Some readings are scaled otherwise (OSRA
  // works on a resized copy), so the scale its box gives (the atoms' span against the box, which
  // may hold labels at its edges) is tried as well.
  const placed = atoms.filter((a) => a.symbol !== 'H');
  const xs = placed.map((a) => a.x);
  const ys = placed.map((a) => a.y);
  const [bx0, by0, bx1, by1] = box ?? [0, 0, ink.width, ink.height];
  const cx = (Math.max(...xs) + Math.min(...xs)) / 2;
  const cy = (Math.max(...ys) + Math.min(...ys)) / 2;
  const at = (a: MolAtom, ox: number, oy: number, scale: number): [number, number] => [ox + (a.x - cx) * scale, oy - (a.y - cy) * scale];
  const spans = [Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)];
  const fits = [(bx1 - bx0) / spans[0]!, (by1 - by0) / spans[1]!].filter((v) => Number.isFinite(v) && v > 0);
  const byBond = bondPx / molBond;
  const byBox = box && fits.length ? Math.min(...fits) : 0;
  const scales = [...[0.94, 0.97, 1, 1.03, 1.06].map((k) => k * byBond), ...(byBox > 0 && Math.abs(byBox / byBond - 1) > 0.08 ? [0.82, 0.86, 0.9, 0.94, 0.97, 1].map((k) => k * byBox) : [])];
  // Ink at a pixel or beside it (a thin line drawn one pixel off).
  const isInk = (x: number, y: number) => {
    const ix = Math.round(x);
    const iy = Math.round(y);
    for (let v = Math.max(0, iy - 1); v <= Math.min(ink.height - 1, iy + 1); v++)
      for (let u = Math.max(0, ix - 1); u <= Math.min(ink.width - 1, ix + 1); u++) if (ink.data[v * ink.width + u] === 1) return true;
    return false;
  };
  const onInk = (ox: number, oy: number, scale: number) => {
    let n = 0;
    for (const [a, b] of heavy) {
      const [x1, y1] = at(atoms[a]!, ox, oy, scale);
      const [x2, y2] = at(atoms[b]!, ox, oy, scale);
      for (const t of [0.3, 0.5, 0.7]) if (isInk(x1 + (x2 - x1) * t, y1 + (y2 - y1) * t)) n++;
    }
    return n;
  };
  const [ox0, oy0] = [(bx0 + bx1) / 2, (by0 + by1) / 2];
  let best = { ox: ox0, oy: oy0, scale: byBond, n: -1 };
  // Every second pixel first, then the pixels around the best place.
  for (const scale of scales) {
    const reach = Math.max(4, Math.round(0.3 * molBond * scale));
    for (let dx = -reach; dx <= reach; dx += 2)
      for (let dy = -reach; dy <= reach; dy += 2) {
        const n = onInk(ox0 + dx, oy0 + dy, scale);
        if (n > best.n) best = { ox: ox0 + dx, oy: oy0 + dy, scale, n };
      }
  }
  const coarse = best;
  for (let dx = -1; dx <= 1; dx++)
    for (let dy = -1; dy <= 1; dy++) {
      const n = onInk(coarse.ox + dx, coarse.oy + dy, coarse.scale);
      if (n > best.n) best = { ...coarse, ox: coarse.ox + dx, oy: coarse.oy + dy, n };
    }
  if (best.n < MIN_ON_INK * heavy.length * 3) return null;
  // The drawing's bond length in the image's pixels, as placed.
  const bond = molBond * best.scale;

  // The ink's pieces (8-connected) around the drawing.
  const margin = Math.round(bond);
  const region: [number, number, number, number] = [Math.max(0, Math.floor(bx0 - margin)), Math.max(0, Math.floor(by0 - margin)), Math.min(ink.width, Math.ceil(bx1 + margin)), Math.min(ink.height, Math.ceil(by1 + margin))];
  const { pieceAt, pieces } = piecesOf(ink, region);
  const glyphs = pieces.filter((p) => glyphLike(p, bond));

  const spots = placed.map((a) => ({ a, at: at(a, best.ox, best.oy, best.scale) }));
  const nearestAtom = (p: Piece) => {
    const [gx, gy] = [(p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2];
    let best: MolAtom | undefined;
    let d = Infinity;
    for (const { a, at: [x, y] } of spots) if (Math.hypot(x - gx, y - gy) < d) [best, d] = [a, Math.hypot(x - gx, y - gy)];
    return best;
  };
  // Each atom's label: glyphs nearer it than any other atom, grown along the line to the glyphs
  // beside them; for an unread atom (*) with none, the square around it (SQUARE).
  const wanted: Array<{ atom: number; glyphs: Piece[]; square?: [number, number, number, number] }> = [];
  const taken = new Set<Piece>();
  spots.forEach(({ a, at: [px, py] }) => {
    const i = atoms.indexOf(a);
    const r = NEAR * bond;
    const near = new Set<Piece>();
    for (let y = Math.max(region[1], Math.round(py - r)); y < Math.min(region[3], py + r); y++)
      for (let x = Math.max(region[0], Math.round(px - r)); x < Math.min(region[2], px + r); x++) {
        const p = pieceAt(x, y);
        if (p && glyphLike(p, bond) && tallEnough(p, bond) && Math.hypot((p.x0 + p.x1) / 2 - px, (p.y0 + p.y1) / 2 - py) <= r && nearestAtom(p) === a) near.add(p);
      }
    if (!near.size) {
      // A label OSRA saw but could not read (*) whose letters run into its bonds (a thick scan's N in
      // a ring): the ink of the square around the atom, the ends of its bonds and all.
      const h = SQUARE * bond;
      if (a.symbol === '*') wanted.push({ atom: i, glyphs: [], square: [Math.max(region[0], Math.round(px - h)), Math.max(region[1], Math.round(py - h)), Math.min(region[2] - 1, Math.round(px + h)), Math.min(region[3] - 1, Math.round(py + h))] });
      return;
    }
    const label = new Set(near);
    for (let grown = true; grown; ) {
      grown = false;
      const height = Math.max(...[...label].map((g) => g.y1 - g.y0 + 1));
      for (const p of glyphs) {
        if (label.has(p)) continue;
        for (const g of label) {
          const gapX = Math.max(p.x0 - g.x1, g.x0 - p.x1);
          const gapY = Math.max(p.y0 - g.y1, g.y0 - p.y1);
          if (gapX <= 0.35 * height && gapY <= 0.35 * height) {
            label.add(p);
            grown = true;
            break;
          }
        }
      }
    }
    // A label shared by two atoms (OSRA split it, or placed an atom on the other's letters) is nobody's.
    if ([...label].some((p) => taken.has(p))) return;
    for (const p of label) taken.add(p);
    wanted.push({ atom: i, glyphs: [...label] });
  });
  if (!wanted.length) return null;

  // A clean copy of the drawing's region: white, with only the labels' glyphs (or squares) in black.
  const [rx0, ry0, rx1, ry1] = region;
  const [cw, ch] = [rx1 - rx0, ry1 - ry0];
  const clean = new Uint8Array(cw * ch * 3).fill(255);
  const boxes = wanted.map(({ glyphs, square }) => {
    const pad = 3;
    // The letters' extent (inclusive), and which of its pixels are theirs.
    const [x0, y0, x1, y1] = square ?? extentOf(glyphs);
    const own = new Set(glyphs);
    const theirs = (x: number, y: number) => {
      if (square) return x >= x0 && x <= x1 && y >= y0 && y <= y1 && ink.data[y * ink.width + x] === 1;
      const p = pieceAt(x, y);
      return p !== undefined && own.has(p);
    };
    const b: [number, number, number, number] = [Math.max(rx0, x0 - pad), Math.max(ry0, y0 - pad), Math.min(rx1, x1 + pad + 1), Math.min(ry1, y1 + pad + 1)];
    for (let y = b[1]; y < b[3]; y++)
      for (let x = b[0]; x < b[2]; x++) {
        const at = ((y - ry0) * cw + (x - rx0)) * 3;
        if (theirs(x, y)) clean.fill(0, at, at + 3);
      }
    return [b[0] - rx0, b[1] - ry0, b[2] - rx0, b[3] - ry0] as [number, number, number, number];
  });
  const texts = await read({ data: clean, width: cw, height: ch }, boxes);

  // A label of one heavy atom that OSRA read as two atoms or more: one atom, where the bond from the
  // rest of the molecule enters the label. A methyl's label (CH3, H3C) read as C=C, over carbons; a
  // hydroxyl's (HO, OH) read as a nitroso group N=O, over atoms OSRA labelled (no carbon).
  const removed = new Set<number>();
  const merged = new Map<number, string>();
  const changes: string[] = [];
  wanted.forEach((_, k) => {
    const t = texts[k];
    if (!t || t.score < MIN_SCORE) return;
    const text = t.text.replace(/\s+/g, '');
    const el = METHYL.test(text) ? 'C' : elementOf(text);
    if (!el) return;
    const m = MERGE_MARGIN * bond;
    const [x0, y0, x1, y1] = [boxes[k]![0] + rx0 - m, boxes[k]![1] + ry0 - m, boxes[k]![2] + rx0 + m, boxes[k]![3] + ry0 + m];
    const inside = spots.filter(({ at: [x, y] }) => x >= x0 && x <= x1 && y >= y0 && y <= y1).map(({ a }) => atoms.indexOf(a));
    const fits = (i: number) => !removed.has(i) && !merged.has(i) && (el === 'C' ? atoms[i]!.symbol === 'C' : atoms[i]!.symbol !== 'C' && CHANGEABLE.has(atoms[i]!.symbol));
    if (inside.length < 2 || !inside.every(fits)) return;
    const entering = heavy.filter(([a, b]) => inside.includes(a) !== inside.includes(b));
    if (entering.length !== 1) return;
    const [a, b] = entering[0]!;
    const keep = inside.includes(a) ? a : b;
    const within = bondLines.filter(({ a, b }) => inside.includes(a) && inside.includes(b));
    for (const i of inside) if (i !== keep) removed.add(i);
    merged.set(keep, el);
    // What OSRA read there, from the atom the bond enters (N=O, C=C).
    const was = [keep, ...inside.filter((i) => i !== keep)].map((i) => atoms[i]!.symbol).join(within.some((w) => w.order === 2) ? '=' : '');
    changes.push(`${was}→${el === 'C' ? 'CH3' : el} “${t.text}”`);
  });

  const out = [...lines];
  const setSymbol = (atom: number, el: string) => {
    const line = out[c + 1 + atom]!;
    out[c + 1 + atom] = `${line.slice(0, 31)}${el.padEnd(3)}${line.slice(34)}`;
  };
  for (const [atom, el] of merged) if (atoms[atom]!.symbol !== el) setSymbol(atom, el);
  wanted.forEach(({ atom, glyphs: label }, k) => {
    if (removed.has(atom) || merged.has(atom)) return;
    const t = texts[k];
    const was = atoms[atom]!.symbol;
    if (!CHANGEABLE.has(was)) return;
    const el = !t || t.score < (was === 'I' ? I_SCORE : MIN_SCORE) ? null : was === 'I' && /^[Cc][^Hh]?$/.test(t.text) ? 'Cl' : elementOf(t.text);
    // An I whose label the recogniser could not read: its letters' shape tell an I from a Cl.
    if (!el && was === 'I' && wideLabel(label)) {
      setSymbol(atom, 'Cl');
      changes.push(`I→Cl (a label of ${label.length} glyphs${t ? ` “${t.text}”` : ''})`);
      return;
    }
    if (!t || !el || el === was) return;
    setSymbol(atom, el);
    changes.push(`${was}→${el} “${t.text}”`);
  });
  if (!changes.length) return null;
  const edited = removed.size ? withoutAtoms(out.join('\n'), removed) : out.join('\n');
  return edited ? { molfile: edited, changes } : null;
}

/**
 * Whether a label is two glyphs or more, at least WIDE_LABEL times as wide as tall: no I, which is one
 * narrow stroke (a fifth of its height), but a Cl (C and l, about as wide as tall) whose letters the
 * recogniser could not read. Tuning half of the chemdocs set: pictures and scans 49 → 50 of 70 (an
 * Open Babel scan's second Cl, left an I); 0.5 and 0.7 read the same. Held-out half unchanged (84 of 124).
 */
const WIDE_LABEL = 0.5;
function wideLabel(glyphs: Piece[]): boolean {
  if (glyphs.length < 2) return false;
  const [x0, y0, x1, y1] = extentOf(glyphs);
  return x1 - x0 + 1 >= WIDE_LABEL * (y1 - y0 + 1);
}

/** The box of a label's glyphs (inclusive pixels). */
function extentOf(glyphs: Piece[]): [number, number, number, number] {
  return [Math.min(...glyphs.map((g) => g.x0)), Math.min(...glyphs.map((g) => g.y0)), Math.max(...glyphs.map((g) => g.x1)), Math.max(...glyphs.map((g) => g.y1))];
}

interface Piece {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  n: number;
}

/**
 * The box of the drawing OSRA read at `box` in `ink` (black pixels 1), with its atom labels. OSRA's
 * box runs through the atoms it found, so a label it misread or missed at the drawing's edge (an
 * H₂N read as a carbon) sticks out of it, and the box shown for review would cut off the very letters
 * a reader needs to check. The box takes in the ink pieces it cuts through and the glyphs beside
 * them (each within half its height of what is taken, as the letters of a label lie), reaching at
 * most one bond length past OSRA's box.
 */
export function withLabels(box: [number, number, number, number], bondPx: number, ink: Gray): [number, number, number, number] {
  if (!(bondPx > 4)) return box;
  const reach = Math.round(bondPx);
  const region: [number, number, number, number] = [Math.max(0, box[0] - reach), Math.max(0, box[1] - reach), Math.min(ink.width, box[2] + reach + 1), Math.min(ink.height, box[3] + reach + 1)];
  const { pieces } = piecesOf(ink, region);
  const out: [number, number, number, number] = [...box];
  const gap = (p: Piece) => Math.max(out[0] - p.x1, p.x0 - out[2], out[1] - p.y1, p.y0 - out[3], 0);
  const cutThrough = pieces.filter((p) => p.x1 >= box[0] && p.x0 <= box[2] && p.y1 >= box[1] && p.y0 <= box[3]);
  const glyphs = new Set(pieces.filter((p) => glyphLike(p, bondPx) && tallEnough(p, bondPx)));
  const take = (p: Piece) => {
    out[0] = Math.min(out[0], p.x0);
    out[1] = Math.min(out[1], p.y0);
    out[2] = Math.max(out[2], p.x1 + 1);
    out[3] = Math.max(out[3], p.y1 + 1);
    glyphs.delete(p);
  };
  cutThrough.forEach(take);
  for (let grown = true; grown; ) {
    grown = false;
    for (const p of glyphs)
      if (gap(p) <= 0.5 * (p.y1 - p.y0 + 1)) {
        take(p);
        grown = true;
      }
  }
  return [Math.max(region[0], out[0]), Math.max(region[1], out[1]), Math.min(region[2], out[2]), Math.min(region[3], out[3])];
}

/** A piece of ink the size of a letter, not of a bond, for a drawing of bond length `bond` (GLYPH_MAX). */
const glyphLike = (p: Piece, bond: number) => p.x1 - p.x0 + 1 <= GLYPH_MAX * bond && p.y1 - p.y0 + 1 <= GLYPH_MAX * bond && p.n >= 3;
/** … and not speckle (GLYPH_MIN). */
const tallEnough = (p: Piece, bond: number) => p.y1 - p.y0 + 1 >= GLYPH_MIN * bond;

/** The 8-connected pieces of ink within `region` (boxes in the image's pixels), and the piece at a pixel. */
function piecesOf(ink: Gray, region: [number, number, number, number]): { pieces: Piece[]; pieceAt: (x: number, y: number) => Piece | undefined } {
  const [rx0, ry0, rx1, ry1] = region;
  const w = Math.max(0, rx1 - rx0);
  const found = pieces8(w, Math.max(0, ry1 - ry0), (i) => ink.data[(ry0 + Math.floor(i / w)) * ink.width + rx0 + (i % w)] === 1);
  const pieces: Piece[] = found.pieces.map((p) => ({ x0: p.x0 + rx0, y0: p.y0 + ry0, x1: p.x1 + rx0, y1: p.y1 + ry0, n: p.pixels.length }));
  return {
    pieces,
    pieceAt: (x, y) => {
      if (x < rx0 || y < ry0 || x >= rx1 || y >= ry1) return undefined;
      const id = found.label[(y - ry0) * w + (x - rx0)]!;
      return id >= 0 ? pieces[id] : undefined;
    },
  };
}
