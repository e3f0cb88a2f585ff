import type { MainModule } from '@rdkit/rdkit';
import type { Box } from '../pdf-layout';

/**
 * Letters of atom labels drawn as filled glyph outlines, as RDKit's SVG draws its text (FreeType
 * outlines of its own font, printed to PDF as paths): each glyph is compared with the same font's
 * glyphs, which @rdkit/rdkit (MinimalLib) draws the same way — so the templates are made here, once,
 * from the library itself, not from stored data. A glyph is matched by its filled shape on a small
 * grid, its proportions, its number of outlines, whether it has curves, and (for letters) its
 * height against the label's capitals (c against C, o against O).
 */

type Point = [number, number];

export interface Outline {
  /** Closed outlines, curves given by their control points (as vector.ts reads a PDF's fills). */
  rings: Point[][];
  curves: boolean;
  box: Box;
}

/** The characters matched: letters, digits, signs and brackets of labels. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-()';
const GX = 10;
const GY = 14;

interface Template {
  ch: string;
  cells: Uint8Array;
  aspect: number;
  rings: number;
  curves: boolean;
  /** Height against the capitals' height (H). */
  height: number;
}

/** The outline filled on a GX × GY grid over its own box (even-odd, sampled at cell centres; y up). */
function cells(o: { rings: Point[][]; box: Box }): Uint8Array {
  const [x0, y0, x1, y1] = o.box;
  const w = Math.max(x1 - x0, 1e-6);
  const h = Math.max(y1 - y0, 1e-6);
  const out = new Uint8Array(GX * GY);
  for (let gy = 0; gy < GY; gy++) {
    const y = y1 - ((gy + 0.5) / GY) * h;
    for (let gx = 0; gx < GX; gx++) {
      const x = x0 + ((gx + 0.5) / GX) * w;
      let inside = false;
      for (const ring of o.rings)
        for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
          const [xi, yi] = ring[i]!;
          const [xj, yj] = ring[j]!;
          if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
        }
      out[gy * GX + gx] = inside ? 1 : 0;
    }
  }
  return out;
}

function boxOf(points: Point[]): Box {
  let b: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) b = [Math.min(b[0], x), Math.min(b[1], y), Math.max(b[2], x), Math.max(b[3], y)];
  return b;
}

/**
 * The outlines of an SVG path (M, L, Q, C, Z; absolute, as RDKit writes glyphs), y turned up.
 * Quadratic curves become cubic control points, as a PDF (which has no quadratics) carries them.
 */
export function svgOutline(d: string): Outline {
  const nums = (s: string) => (s.match(/-?\d*\.?\d+(?:e-?\d+)?/gi) ?? []).map(Number);
  const rings: Point[][] = [];
  let ring: Point[] = [];
  let curves = false;
  let last: Point = [0, 0];
  for (const [, op, args] of d.matchAll(/([MLQCZ])([^MLQCZ]*)/gi)) {
    const v = nums(args ?? '');
    const P = (i: number): Point => [v[i]!, -v[i + 1]!];
    switch (op!.toUpperCase()) {
      case 'M':
        if (ring.length) rings.push(ring);
        ring = [(last = P(0))];
        break;
      case 'L':
        for (let i = 0; i + 1 < v.length; i += 2) ring.push((last = P(i)));
        break;
      case 'Q':
        curves = true;
        for (let i = 0; i + 3 < v.length; i += 4) {
          const q = P(i);
          const e = P(i + 2);
          ring.push([last[0] + (2 / 3) * (q[0] - last[0]), last[1] + (2 / 3) * (q[1] - last[1])], [e[0] + (2 / 3) * (q[0] - e[0]), e[1] + (2 / 3) * (q[1] - e[1])], e);
          last = e;
        }
        break;
      case 'C':
        curves = true;
        for (let i = 0; i + 5 < v.length; i += 6) ring.push(P(i), P(i + 2), (last = P(i + 4)));
        break;
      default:
        break;
    }
  }
  if (ring.length) rings.push(ring);
  return { rings, curves, box: boxOf(rings.flat()) };
}

const made = new WeakMap<MainModule, Template[]>();
/** The font's glyphs, drawn by @rdkit/rdkit as one atom's label. Empty when it draws no outlines. */
export function templates(rdkit: MainModule): Template[] {
  const had = made.get(rdkit);
  if (had) return had;
  let out: Template[] = [];
  const mol = rdkit.get_mol('C');
  try {
    const svg = mol?.get_svg_with_highlights(JSON.stringify({ width: 1200, height: 200, atomLabels: { 0: ALPHABET } })) ?? '';
    const outlines = [...svg.matchAll(/<path class='atom-0' d='([^']*)'/g)].map((m) => svgOutline(m[1]!));
    if (outlines.length === ALPHABET.length) {
      outlines.sort((a, b) => a.box[0] + a.box[2] - (b.box[0] + b.box[2]));
      const cap = outlines[ALPHABET.indexOf('H')]!;
      const capH = cap.box[3] - cap.box[1];
      out = outlines.map((o, i) => ({
        ch: ALPHABET[i]!,
        cells: cells(o),
        aspect: (o.box[2] - o.box[0]) / Math.max(1e-6, o.box[3] - o.box[1]),
        rings: o.rings.length,
        curves: o.curves,
        height: (o.box[3] - o.box[1]) / capH,
      }));
    }
  } finally {
    mol?.delete();
  }
  made.set(rdkit, out);
  return out;
}

/** Characters whose case (or digit) only the height tells apart. */
const SIZED = /[A-Za-z]/;

function score(o: Outline, c: Uint8Array, t: Template, capH: number | null): number {
  let diff = 0;
  for (let i = 0; i < c.length; i++) diff += c[i] === t.cells[i] ? 0 : 1;
  const w = o.box[2] - o.box[0];
  const h = Math.max(1e-6, o.box[3] - o.box[1]);
  let s = diff / c.length + 0.5 * Math.abs(Math.log(Math.max(w, 1e-6) / h / Math.max(t.aspect, 1e-6)));
  if (o.rings.length !== t.rings) s += 0.5;
  if (o.curves !== t.curves) s += 0.3;
  if (capH && SIZED.test(t.ch)) s += 1.5 * Math.abs(h / capH - t.height);
  return s;
}

/** One glyph's readings, best first, with their scores (lower is closer). */
export interface GlyphReading {
  box: Box;
  options: { ch: string; score: number }[];
}

/**
 * The characters of one label's glyphs (left to right), each with its closest characters of the
 * font. The capitals' height comes from a first reading by shape alone.
 */
export function readGlyphs(rdkit: MainModule, glyphs: Outline[]): GlyphReading[] | null {
  const ts = templates(rdkit);
  if (!ts.length || !glyphs.length) return null;
  const sorted = [...glyphs].sort((a, b) => a.box[0] + a.box[2] - (b.box[0] + b.box[2]));
  const grids = sorted.map(cells);
  const best = (o: Outline, c: Uint8Array, capH: number | null) =>
    ts
      .map((t) => ({ ch: t.ch, score: score(o, c, t, capH), height: t.height }))
      .sort((a, b) => a.score - b.score)
      .slice(0, 4);
  // Capital height: from the letters read by shape whose case their shape already says.
  const first = sorted.map((o, i) => best(o, grids[i]!, null)[0]!);
  const caps = first
    .map((f, i) => ({ f, h: sorted[i]!.box[3] - sorted[i]!.box[1] }))
    .filter(({ f }) => /[A-Za-z]/.test(f.ch) && !/[CcOoSsUuVvWwXxZzIl]/.test(f.ch))
    .map(({ f, h }) => h / f.height);
  const capH = caps.length ? caps.sort((a, b) => a - b)[Math.floor(caps.length / 2)]! : Math.max(...sorted.map((o) => o.box[3] - o.box[1]));
  return sorted.map((o, i) => ({ box: o.box, options: best(o, grids[i]!, capH).map(({ ch, score: s }) => ({ ch, score: s })) }));
}
