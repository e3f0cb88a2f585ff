import type { MainModule } from '@rdkit/rdkit';
import type { Box } from '../pdf-layout';
import { withValidMol } from '../../chem/rdkit-loader';
import { groupGraph, groupSmiles, isGroupLabel, type GroupGraph } from './abbreviations';
import { readGlyphs } from './glyphs';
import { inchiKeyOf } from './judge';

/**
 * Structures read from a born-digital PDF page's drawing operators ("paths in the
 * PDF"), not from pixels: stroked line segments are bonds, parallel close segments double and
 * triple bonds, filled wedges and rows of short parallel strokes stereo bonds, atom labels come
 * from the text layer (Open Babel's SVG, ChemDraw-like output) or from filled glyph outlines
 * (RDKit's SVG, identified by their colour and shape). The molecule graph is rebuilt
 * geometrically and handed to RDKit as a molblock with 2D coordinates (RDKit sanitises it and
 * assigns stereo from the wedges). A drawing is read only when every stroke, fill and text near
 * it is explained by the molecule: charts, table rules and arrows give nothing.
 *
 * Coordinates here are PDF user space of the page (points, origin bottom-left).
 */

export type Point = [number, number];

export interface Segment {
  a: Point;
  b: Point;
  color: string;
  width: number;
}

export interface FillShape {
  /** Closed outlines (sub-paths), curves flattened to their control points. */
  rings: Point[][];
  curves: boolean;
  color: string;
  box: Box;
}

export interface Graphics {
  segments: Segment[];
  fills: FillShape[];
  /** Curves that were stroked (wavy bonds, circles, chart curves): never part of a molecule read here. */
  strokedCurves: Box[];
}

export interface TextRun {
  str: string;
  box: Box;
}

export interface VectorMolecule {
  box: Box;
  smiles: string;
  inchiKey: string;
  molblock: string;
  heavyAtoms: number;
}

interface OperatorList {
  fnArray: number[];
  argsArray: unknown[];
}

/** pdf.js operator numbers this reader follows (pdfjs-dist OPS). */
export interface Ops {
  save: number;
  restore: number;
  transform: number;
  constructPath: number;
  setLineWidth: number;
  setGState: number;
  setStrokeRGBColor: number;
  setFillRGBColor: number;
  paintFormXObjectBegin: number;
  paintFormXObjectEnd: number;
  stroke: number;
  closeStroke: number;
  fill: number;
  eoFill: number;
  fillStroke: number;
  eoFillStroke: number;
  closeFillStroke: number;
  closeEOFillStroke: number;
}

type Matrix = [number, number, number, number, number, number];
const mul = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];
const apply = (m: Matrix, x: number, y: number): Point => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

/** Too many drawing operators: the page is not read here (a map, a plot of thousands of points). */
const MAX_PATH_OPS = 60_000;

/**
 * The stroked segments and filled outlines a page draws, in PDF user space, from pdf.js's operator
 * list (pdf.js 5: constructPath carries the painting operator, the path as DrawOPS codes and its
 * bounds). Null when the page draws too much to be read this way.
 */
export function pageGraphics(ops: OperatorList, OPS: Ops): Graphics | null {
  const segments: Segment[] = [];
  const fills: FillShape[] = [];
  const strokedCurves: Box[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let stroke = '#000000';
  let fillColor = '#000000';
  let lineWidth = 1;
  const stack: { ctm: Matrix; stroke: string; fill: string; lineWidth: number }[] = [];
  const strokes = new Set([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
  const fillsOps = new Set([OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
  let pathOps = 0;
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push({ ctm, stroke, fill: fillColor, lineWidth });
    else if (fn === OPS.restore) {
      const s = stack.pop();
      if (s) ({ ctm, stroke, fill: fillColor, lineWidth } = s);
    } else if (fn === OPS.transform && args) ctm = mul(args as Matrix, ctm);
    else if (fn === OPS.paintFormXObjectBegin && args) {
      stack.push({ ctm, stroke, fill: fillColor, lineWidth });
      if (Array.isArray(args[0]) || ArrayBuffer.isView(args[0])) ctm = mul(Array.from(args[0] as ArrayLike<number>) as Matrix, ctm);
    } else if (fn === OPS.paintFormXObjectEnd) {
      const s = stack.pop();
      if (s) ({ ctm, stroke, fill: fillColor, lineWidth } = s);
    } else if (fn === OPS.setLineWidth && args) lineWidth = Number(args[0]);
    else if (fn === OPS.setGState && args) {
      for (const [k, v] of (args[0] as [string, unknown][]) ?? []) if (k === 'LW') lineWidth = Number(v);
    } else if (fn === OPS.setStrokeRGBColor && args) stroke = String(args[0]).toLowerCase();
    else if (fn === OPS.setFillRGBColor && args) fillColor = String(args[0]).toLowerCase();
    else if (fn === OPS.constructPath && args) {
      const paint = args[0] as number;
      const data = (args[1] as ArrayLike<number>[] | null)?.[0];
      if (!data) continue;
      pathOps += data.length;
      if (pathOps > MAX_PATH_OPS) return null;
      // A filled and stroked path is one shape (a wedge drawn with its outline): read as a fill.
      const isFill = fillsOps.has(paint);
      const isStroke = strokes.has(paint) && !isFill;
      if (!isStroke && !isFill) continue;
      const scale = Math.sqrt(Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]));
      const rings: Point[][] = [];
      let ring: Point[] = [];
      let curves = false;
      let start: Point | null = null;
      let last: Point | null = null;
      const width = lineWidth * scale;
      for (let k = 0; k < data.length; ) {
        const op = data[k]!;
        if (op === 0) {
          if (ring.length) rings.push(ring);
          last = start = apply(ctm, data[k + 1]!, data[k + 2]!);
          ring = [last];
          k += 3;
        } else if (op === 1) {
          const p = apply(ctm, data[k + 1]!, data[k + 2]!);
          if (isStroke && last) segments.push({ a: last, b: p, color: stroke, width });
          ring.push(p);
          last = p;
          k += 3;
        } else if (op === 2 || op === 3) {
          const n = op === 2 ? 6 : 4;
          curves = true;
          for (let q = 0; q < n; q += 2) ring.push(apply(ctm, data[k + 1 + q]!, data[k + 2 + q]!));
          const p = ring[ring.length - 1]!;
          if (isStroke && last) strokedCurves.push(boxOf([last, p, ...ring.slice(-n / 2)]));
          last = p;
          k += 1 + n;
        } else if (op === 4) {
          if (isStroke && last && start && (last[0] !== start[0] || last[1] !== start[1])) segments.push({ a: last, b: start, color: stroke, width });
          last = start;
          k += 1;
        } else break;
      }
      if (ring.length) rings.push(ring);
      if (isFill && rings.length) {
        const all = rings.flat();
        fills.push({ rings, curves, color: fillColor, box: boxOf(all) });
      }
    }
  }
  return { segments, fills, strokedCurves };
}

/** Text runs of the page's text layer (pdf.js getTextContent items), split at spaces, in PDF user space. */
export function textRuns(items: { str: string; transform: number[]; width: number; height: number }[]): TextRun[] {
  const runs: TextRun[] = [];
  for (const it of items) {
    if (!it.str.trim()) continue;
    const t = it.transform;
    const size = Math.hypot(t[2] ?? 0, t[3] ?? 0) || it.height;
    if (Math.abs(t[1] ?? 0) > 1e-3 || Math.abs(t[2] ?? 0) > 1e-3) {
      // Rotated text is no atom label; it still counts as text near a drawing.
      runs.push({ str: it.str, box: [t[4]! - size, t[5]! - size, t[4]! + it.width + size, t[5]! + it.width + size] });
      continue;
    }
    const per = it.width / Math.max(1, it.str.length);
    let re = /\S+/g;
    for (let m = re.exec(it.str); m; m = re.exec(it.str)) {
      const x0 = t[4]! + m.index * per;
      runs.push({ str: m[0], box: [x0, t[5]! - 0.2 * size, x0 + m[0].length * per, t[5]! + 0.75 * size] });
    }
    re = /./g;
  }
  return runs;
}

export function boxOf(points: Point[]): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [x, y] of points) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return [x0, y0, x1, y1];
}

const dist = (p: Point, q: Point) => Math.hypot(p[0] - q[0], p[1] - q[1]);
const len = (s: { a: Point; b: Point }) => dist(s.a, s.b);
const mid = (p: Point, q: Point): Point => [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
const boxDist = (p: Point, b: Box) => Math.hypot(Math.max(b[0] - p[0], 0, p[0] - b[2]), Math.max(b[1] - p[1], 0, p[1] - b[3]));
const boxGap = (a: Box, b: Box) => Math.hypot(Math.max(0, a[0] - b[2], b[0] - a[2]), Math.max(0, a[1] - b[3], b[1] - a[3]));
const union = (a: Box, b: Box): Box => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
function weightedMedian(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const half = s.reduce((t, x) => t + x, 0) / 2;
  let run = 0;
  for (const x of s) {
    run += x;
    if (run >= half) return x;
  }
  return 0;
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
};

/** RDKit's default atom colours (MolDraw2D's palette); black is carbon, hydrogen and every element without a colour. */
const PALETTE: Record<string, string> = {
  '#0000ff': 'N',
  '#ff0000': 'O',
  '#33cccc': 'F',
  '#ff7f00': 'P',
  '#cccc00': 'S',
  '#00cc00': 'Cl',
  '#7f4c19': 'Br',
  '#a01eef': 'I',
  '#ff7f7f': 'B',
};

const ELEMENTS = new Map<string, number>([
  ['H', 1], ['B', 5], ['C', 6], ['N', 7], ['O', 8], ['F', 9], ['Si', 14], ['P', 15], ['S', 16], ['Cl', 17], ['Se', 34], ['Br', 35], ['I', 53],
  ['Li', 3], ['Na', 11], ['K', 19], ['Mg', 12], ['Ca', 20], ['As', 33], ['Sn', 50], ['Al', 13], ['Zn', 30], ['Hg', 80], ['Pt', 78], ['Fe', 26], ['Cu', 29],
]);

interface AtomLabel {
  element: string;
  charge: number;
  box: Box;
  at: Point;
  /**
   * A group written as its label (CF3, OMe, MeO2C: abbreviations.ts), with the box of each of its
   * characters from left to right; its atoms are known once its bond says from which side it is read.
   */
  group?: { text: string; chars: Box[] };
}

const SYMBOLS = new Map([...ELEMENTS].map(([symbol, z]) => [z, symbol]));
const centre = (b: Box): Point => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];

/**
 * A label read as text (from a text layer or from glyph outlines), with its characters' boxes:
 * one atom (the box of its element's letters is the atom), or a group; null for anything else.
 */
function labelOfText(str: string, chars: Box[], box: Box): AtomLabel | null {
  const parsed = parseLabel(str);
  if (parsed) {
    if (chars.length !== str.length) return null;
    const at0 = str.indexOf(parsed.element);
    const own = at0 >= 0 ? chars.slice(at0, at0 + parsed.element.length) : chars;
    return { ...parsed, box, at: centre(own.reduce(union)) };
  }
  if (isGroupLabel(str) && chars.length === str.length) return { element: '*', charge: 0, box, at: centre(box), group: { text: str, chars } };
  return null;
}

/**
 * An atom label as written: one heavy element with its hydrogens and a charge (N, NH2, H2N, OH, HO,
 * CH3, H3C, N+, O−, Cl). Null for anything else (a caption, a tick value, an abbreviation).
 */
export function parseLabel(raw: string): { element: string; charge: number } | null {
  let s = raw.replace(/[\u2212\u2013\u2012\u2010_]/g, '-').replace(/[₀-₉]/g, (d) => String(d.charCodeAt(0) - 0x2080)).replace(/\s+/g, '');
  let charge = 0;
  const c = /(\d?)([+-])$/.exec(s) ?? /^([+-])(\d?)/.exec(s);
  if (c) {
    const sign = c[0].includes('+') ? 1 : -1;
    const n = Number(c[0].replace(/[+-]/g, '') || '1');
    charge = sign * n;
    s = c.index === 0 ? s.slice(c[0].length) : s.slice(0, c.index);
  }
  if (!s) return null;
  if (s === 'H') return { element: 'H', charge };
  const m = /^(?:H\d*)?([A-Z][a-z]?)(?:H\d*)?$/.exec(s);
  if (!m || !ELEMENTS.has(m[1]!)) return null;
  return { element: m[1]!, charge };
}

/**
 * Glyph outlines of one colour drawn together: one atom label of RDKit's SVG. Its letters are read
 * against RDKit's font (glyphs.ts); the colour of RDKit's palette names the element where they are
 * not read, and black labels (useBWAtomPalette, abbreviations) are read by their letters alone.
 */
function glyphLabel(rdkit: MainModule, glyphs: FillShape[]): AtomLabel | null {
  const box = glyphs.map((g) => g.box).reduce(union);
  const color = glyphs[0]!.color;
  let charge = 0;
  let letters: FillShape[] = [];
  const height = Math.max(...glyphs.map((g) => g.box[3] - g.box[1]));
  for (const g of glyphs) {
    const pts = g.rings.flat();
    const w = g.box[2] - g.box[0];
    const h = g.box[3] - g.box[1];
    const corners = pts.filter((p) => (Math.abs(p[0] - g.box[0]) < 1e-3 || Math.abs(p[0] - g.box[2]) < 1e-3) && (Math.abs(p[1] - g.box[1]) < 1e-3 || Math.abs(p[1] - g.box[3]) < 1e-3)).length;
    if (!g.curves && g.rings.length === 1 && pts.length <= 6 && w > 1.8 * h && h < 0.35 * height) charge -= 1;
    else if (!g.curves && g.rings.length === 1 && pts.length >= 12 && pts.length <= 14 && corners === 0 && Math.abs(w - h) < 0.25 * Math.max(w, h)) charge += 1;
    else letters.push(g);
  }
  const element = PALETTE[color];
  if (!letters.length) return null;
  const read = readLetters(rdkit, letters, box);
  if (read && (read.group || !element || read.element === element)) return { ...read, charge: read.charge + charge };
  if (!element) {
    // Black: hydrogen (an explicit H drawn for stereo) is the one black label read here.
    const only = letters.length === 1 ? letters[0]! : null;
    const pts = only?.rings.flat() ?? [];
    const corners = only ? pts.filter((p) => (Math.abs(p[0] - only.box[0]) < 1e-3 || Math.abs(p[0] - only.box[2]) < 1e-3) && (Math.abs(p[1] - only.box[1]) < 1e-3 || Math.abs(p[1] - only.box[3]) < 1e-3)).length : 0;
    if (only && !only.curves && pts.length >= 12 && pts.length <= 14 && corners >= 4) return { element: 'H', charge, box, at: mid([box[0], box[1]], [box[2], box[3]]) };
    return null;
  }
  // The element's own glyph is the largest (H and subscripts are no larger); its centre is the atom.
  letters = letters.sort((a, b) => (b.box[2] - b.box[0]) * (b.box[3] - b.box[1]) - (a.box[2] - a.box[0]) * (a.box[3] - a.box[1]));
  const main = letters.find((g) => g.curves) ?? letters[0]!;
  return { element, charge, box, at: mid([main.box[0], main.box[1]], [main.box[2], main.box[3]]) };
}

/**
 * The label spelt by glyph outlines: the closest characters of RDKit's font, or where that spells
 * nothing, a close second reading of one glyph (l for I in Cl).
 */
function readLetters(rdkit: MainModule, letters: FillShape[], box: Box): AtomLabel | null {
  const read = readGlyphs(rdkit, letters);
  if (!read) return null;
  const chars = read.map((r) => r.box);
  const best = read.map((r) => r.options[0]!.ch);
  const tries = [best.join('')];
  read.forEach((r, i) => {
    for (const o of r.options.slice(1)) if (o.score - r.options[0]!.score < 0.2) tries.push([...best.slice(0, i), o.ch, ...best.slice(i + 1)].join(''));
  });
  for (const t of tries) {
    const l = labelOfText(t, chars, box);
    if (l) return l;
  }
  if (process.env.CSAI_VECTOR_DEBUG) console.error(`vector: glyphs read as ${JSON.stringify(tries[0])}`);
  return null;
}

class UnionFind {
  parent: number[];
  constructor(n: number) {
    this.parent = Array.from({ length: n }, (_, i) => i);
  }
  find(i: number): number {
    while (this.parent[i] !== i) i = this.parent[i] = this.parent[this.parent[i]!]!;
    return i;
  }
  join(a: number, b: number) {
    this.parent[this.find(a)] = this.find(b);
  }
}

type Item =
  | { kind: 'seg'; seg: Segment; box: Box }
  | { kind: 'fill'; fill: FillShape; box: Box }
  | { kind: 'text'; text: TextRun; box: Box }
  | { kind: 'curve'; box: Box };

interface Bond {
  a: Point;
  b: Point;
  order: number;
  /** Molfile bond stereo: 1 wedge, 6 hash (begin at a), 3 a double bond either way. */
  stereo: number;
}

/** A run that is a label's subscript count or charge. */
const SUBSCRIPT = /^(?:\d{1,2}|[+\-\u2212])$/;

/** Segments shorter than this share of the drawing's median bond are joins, not bonds. */
const JOIN_SHARE = 0.15;

/**
 * The molecules drawn on a page, read from its graphics and text runs. Each connected drawing is
 * read on its own; what cannot be explained as a molecule gives nothing.
 */
export function readVectorPage(rdkit: MainModule, graphics: Graphics, texts: TextRun[]): VectorMolecule[] {
  const segs = graphics.segments.filter((s) => len(s) > 0.05);
  if (segs.length < 3) return [];
  // The scale of the drawings: the median of the longer strokes, line joins left out (one drawing
  // alone on a page, benzene, has more joins at its corners than bonds).
  const longish = segs.map(len).filter((l) => l > 2);
  const scale = weightedMedian(longish);
  if (!(scale > 0)) return [];
  const items: Item[] = [
    ...segs.map((seg) => ({ kind: 'seg' as const, seg, box: boxOf([seg.a, seg.b]) })),
    // White fills are paper (a drawing's background), not ink.
    ...graphics.fills.filter((f) => f.color !== '#ffffff' && f.box[2] - f.box[0] < 4 * scale && f.box[3] - f.box[1] < 4 * scale).map((fill) => ({ kind: 'fill' as const, fill, box: fill.box })),
    ...texts.filter((t) => t.box[3] - t.box[1] < 2 * scale).map((text) => ({ kind: 'text' as const, text, box: text.box })),
    ...graphics.strokedCurves.map((box) => ({ kind: 'curve' as const, box })),
  ];
  // Drawings: items within a fifth of a bond of each other (text only joins through bonds and fills).
  const uf = new UnionFind(items.length);
  const gap = 0.4 * scale;
  const order = items.map((_, i) => i).sort((i, j) => items[i]!.box[0] - items[j]!.box[0]);
  for (let p = 0; p < order.length; p++) {
    const i = order[p]!;
    const bi = items[i]!.box;
    for (let q = p + 1; q < order.length; q++) {
      const j = order[q]!;
      const bj = items[j]!.box;
      if (bj[0] - bi[2] > gap) break;
      const [ti, tj] = [items[i]!, items[j]!];
      if (ti.kind === 'text' && tj.kind === 'text') {
        // Text joins text only through a subscript or charge written beside it (the 2 of CO2Et).
        if ((SUBSCRIPT.test(ti.text.str) || SUBSCRIPT.test(tj.text.str)) && boxGap(bi, bj) <= 0.25 * scale) uf.join(i, j);
        continue;
      }
      if (boxGap(bi, bj) <= gap) uf.join(i, j);
    }
  }
  const groups = new Map<number, Item[]>();
  items.forEach((it, i) => {
    const r = uf.find(i);
    groups.set(r, [...(groups.get(r) ?? []), it]);
  });
  const out: VectorMolecule[] = [];
  for (const group of groups.values()) {
    if (group.filter((g) => g.kind === 'seg').length < 2) continue;
    try {
      const m = readDrawing(rdkit, group);
      if (m) out.push(m);
    } catch {
      // An unexpected shape: no reading of this drawing.
    }
  }
  return out;
}

/** Why a drawing was not read (a number per rule), for tuning with CSAI_VECTOR_DEBUG=1. */
function reject(rule: number): null {
  if (process.env.CSAI_VECTOR_DEBUG) console.error(`vector: rejected by rule ${rule}`);
  return null;
}

function readDrawing(rdkit: MainModule, group: Item[]): VectorMolecule | null {
  if (group.some((g) => g.kind === 'curve')) return reject(1);
  const box = group.map((g) => g.box).reduce(union);
  let segs = group.flatMap((g) => (g.kind === 'seg' ? [g.seg] : []));
  const fills = group.flatMap((g) => (g.kind === 'fill' ? [g.fill] : []));
  const texts = group.flatMap((g) => (g.kind === 'text' ? [g.text] : []));
  // A bond's length: the length-weighted median of the lines (hash strokes, joins, halves and
  // lines stopping short of labels weigh little).
  let bondLen = weightedMedian(segs.map(len));
  if (!(bondLen > 0)) return reject(2);
  let tol = 0.12 * bondLen;

  // A filled shape's outline stroked again (a wedge drawn as fill, then stroke) is that shape.
  const vertices = fills.filter((f) => !f.curves).flatMap((f) => f.rings.flat());
  if (vertices.length) segs = segs.filter((s) => !(vertices.some((v) => dist(v, s.a) < 0.3) && vertices.some((v) => dist(v, s.b) < 0.3)));

  // Hashed wedges: three or more short parallel strokes in a row, growing or even.
  const bonds: Bond[] = [];
  const used = new Set<Segment>();
  const shorts = segs.filter((s) => len(s) < 0.6 * bondLen);
  const angle = (s: Segment) => Math.atan2(s.b[1] - s.a[1], s.b[0] - s.a[0]);
  const parallel = (s: Segment, t: Segment, tolRad: number) => {
    let d = Math.abs(angle(s) - angle(t)) % Math.PI;
    if (d > Math.PI / 2) d = Math.PI - d;
    return d < tolRad;
  };
  for (const s of shorts) {
    if (used.has(s)) continue;
    const row = [s];
    let grew = true;
    while (grew) {
      grew = false;
      for (const t of shorts) {
        if (row.includes(t) || used.has(t) || !parallel(row[0]!, t, 0.2)) continue;
        if (row.some((r) => dist(mid(r.a, r.b), mid(t.a, t.b)) < 0.3 * bondLen)) {
          row.push(t);
          grew = true;
        }
      }
    }
    if (row.length < 3) continue;
    // The row's axis: from the shortest stroke's middle to the longest's.
    const mids = row.map((r) => mid(r.a, r.b));
    const axis = Math.atan2(mids[mids.length - 1]![1] - mids[0]![1], mids[mids.length - 1]![0] - mids[0]![0]);
    const perp = Math.abs(Math.cos(axis - angle(row[0]!)));
    if (perp > 0.5) continue;
    const sorted = [...row].sort((p, q) => len(p) - len(q));
    const narrow = mid(sorted[0]!.a, sorted[0]!.b);
    const wide = mid(sorted[sorted.length - 1]!.a, sorted[sorted.length - 1]!.b);
    // Extend to a bond's length along the axis: the atoms lie beyond the first and last strokes.
    const l = dist(narrow, wide);
    if (l < 0.4 * bondLen) continue;
    for (const r of row) used.add(r);
    bonds.push({ a: narrow, b: wide, order: 1, stereo: 6 });
  }
  // Line joins (tiny polylines at atoms) are no bonds.
  segs = segs.filter((s) => !used.has(s) && len(s) >= JOIN_SHARE * bondLen);

  // Colour-split halves (RDKit draws a bond between unlike atoms in two colours) become one line.
  const ends = (s: Segment) => [s.a, s.b];
  let merged = true;
  while (merged) {
    merged = false;
    outer: for (let i = 0; i < segs.length; i++) {
      for (let j = i + 1; j < segs.length; j++) {
        const s = segs[i]!;
        const t = segs[j]!;
        if (s.color === t.color || s.color.includes('+') || t.color.includes('+') || !parallel(s, t, 0.05)) continue;
        for (const p of ends(s))
          for (const q of ends(t)) {
            if (dist(p, q) > 0.02 * bondLen + 0.05) continue;
            const others = segs.filter((u) => u !== s && u !== t && ends(u).some((e) => dist(e, p) < 0.02 * bondLen + 0.05));
            if (others.length) continue;
            const a = p === s.a ? s.b : s.a;
            const b = q === t.a ? t.b : t.a;
            segs[i] = { a, b, color: `${s.color}+${t.color}`, width: s.width };
            segs.splice(j, 1);
            merged = true;
            break outer;
          }
      }
    }
  }

  bondLen = weightedMedian(segs.map(len)) || bondLen;
  tol = 0.12 * bondLen;

  // Crossed double bonds (E/Z unknown, Open Babel's way): two lines of a length crossing at their middles.
  for (let i = 0; i < segs.length; i++) {
    for (let j = i + 1; j < segs.length; j++) {
      const s = segs[i]!;
      const t = segs[j]!;
      if (parallel(s, t, 0.15) || !parallel(s, t, 1.2)) continue;
      if (Math.abs(len(s) - len(t)) > 0.25 * Math.max(len(s), len(t)) || dist(mid(s.a, s.b), mid(t.a, t.b)) > 0.15 * len(s)) continue;
      const [ta, tb] = dist(s.a, t.a) < dist(s.a, t.b) ? [t.a, t.b] : [t.b, t.a];
      bonds.push({ a: mid(s.a, ta), b: mid(s.b, tb), order: 2, stereo: 3 });
      segs.splice(j, 1);
      segs.splice(i, 1);
      i--;
      break;
    }
  }

  // Multiple bonds: parallel lines side by side over most of their length.
  const groupOf = new Map<Segment, Segment[]>();
  for (const s of segs) groupOf.set(s, [s]);
  for (let i = 0; i < segs.length; i++) {
    for (let j = i + 1; j < segs.length; j++) {
      const s = segs[i]!;
      const t = segs[j]!;
      if (!parallel(s, t, 0.12)) continue;
      const dir: Point = [(s.b[0] - s.a[0]) / len(s), (s.b[1] - s.a[1]) / len(s)];
      const off = Math.abs((t.a[0] - s.a[0]) * -dir[1] + (t.a[1] - s.a[1]) * dir[0]);
      if (off > 0.4 * bondLen || off < 0.03 * bondLen) continue;
      const proj = (p: Point) => (p[0] - s.a[0]) * dir[0] + (p[1] - s.a[1]) * dir[1];
      const [t0, t1] = [proj(t.a), proj(t.b)].sort((x, y) => x - y) as [number, number];
      const overlap = Math.min(len(s), t1) - Math.max(0, t0);
      if (overlap < 0.5 * Math.min(len(s), len(t))) continue;
      const gs = groupOf.get(s)!;
      const gt = groupOf.get(t)!;
      if (gs === gt) continue;
      const g = [...gs, ...gt];
      for (const u of g) groupOf.set(u, g);
    }
  }
  const seen = new Set<Segment[]>();
  for (const g of groupOf.values()) {
    if (seen.has(g)) continue;
    seen.add(g);
    if (g.length > 3) return reject(3);
    if (g.length === 1) {
      bonds.push({ a: g[0]!.a, b: g[0]!.b, order: 1, stereo: 0 });
      continue;
    }
    // Orient all lines alike.
    const ref = g[0]!;
    const lines = g.map((u) => ((u.b[0] - u.a[0]) * (ref.b[0] - ref.a[0]) + (u.b[1] - u.a[1]) * (ref.b[1] - ref.a[1]) < 0 ? { ...u, a: u.b, b: u.a } : u));
    const byLen = [...lines].sort((p, q) => len(q) - len(p));
    let a: Point;
    let b: Point;
    if (g.length === 2 && len(byLen[0]!) > 1.15 * len(byLen[1]!)) {
      // A ring's double bond: the full line joins the atoms, the shorter one lies inside.
      ({ a, b } = byLen[0]!);
    } else if (g.length === 3) {
      // The middle line of three.
      const c = mid(mid(lines[0]!.a, lines[0]!.b), mid(mid(lines[1]!.a, lines[1]!.b), mid(lines[2]!.a, lines[2]!.b)));
      ({ a, b } = [...lines].sort((p, q) => dist(mid(p.a, p.b), c) - dist(mid(q.a, q.b), c))[0]!);
    } else {
      a = mid(lines[0]!.a, lines[1]!.a);
      b = mid(lines[0]!.b, lines[1]!.b);
    }
    bonds.push({ a, b, order: g.length, stereo: 0 });
  }

  // Wedges drawn in pieces (RDKit draws a wedge to a heteroatom in two colours, a part as two
  // triangles): polygons that share a side and together fill a convex shape are one wedge.
  const eps = 0.02 * bondLen + 0.05;
  const corners = (f: FillShape) => {
    const r = f.rings[0]!;
    return r.length > 3 && dist(r[0]!, r[r.length - 1]!) < 1e-3 ? r.slice(0, -1) : r;
  };
  const polygon = (f: FillShape) => !f.curves && f.rings.length === 1 && f.rings[0]!.length >= 3 && f.rings[0]!.length <= 5;
  for (let i = 0; i < fills.length; i++)
    for (let j = i + 1; j < fills.length; j++) {
      const f = fills[i]!;
      const g = fills[j]!;
      if (!polygon(f) || !polygon(g)) continue;
      const [pf, pg] = [corners(f), corners(g)];
      if (pf.filter((p) => pg.some((q) => dist(p, q) < eps)).length !== 2) continue;
      const hull = convexHull([...pf, ...pg], eps);
      if (hull.length < 3 || hull.length > 4 || Math.abs(area(hull) - area(pf) - area(pg)) > 0.05 * area(hull)) continue;
      fills[i] = { rings: [hull], curves: false, color: f.color, box: boxOf(hull) };
      fills.splice(j, 1);
      j = i;
    }
  // Fills: glyphs of atom labels, or wedges.
  const glyphs: FillShape[] = [];
  for (const f of fills) {
    const pts = f.rings.flat();
    const w = f.box[2] - f.box[0];
    const h = f.box[3] - f.box[1];
    if (Math.max(w, h) < 0.02 * bondLen) continue;
    if (!f.curves && f.rings.length === 1 && pts.length >= 3 && pts.length <= 5 && Math.max(w, h) > 0.5 * bondLen) {
      const wedge = wedgeOf(pts);
      if (!wedge) return reject(4);
      bonds.push({ a: wedge[0], b: wedge[1], order: 1, stereo: 1 });
      continue;
    }
    // A short wedge (to a label, the bond stopping short of it): no glyph of RDKit's font is a wedge.
    const short = !f.curves && f.rings.length === 1 && pts.length >= 3 && pts.length <= 5 && Math.max(w, h) > 0.25 * bondLen ? wedgeOf(pts) : null;
    if (short) {
      bonds.push({ a: short[0], b: short[1], order: 1, stereo: 1 });
      continue;
    }
    if (Math.max(w, h) > 0.8 * bondLen) return reject(5);
    glyphs.push(f);
  }
  const labels: AtomLabel[] = [];
  // Glyph clusters: same colour, close together.
  const guf = new UnionFind(glyphs.length);
  for (let i = 0; i < glyphs.length; i++)
    for (let j = i + 1; j < glyphs.length; j++) if (glyphs[i]!.color === glyphs[j]!.color && boxGap(glyphs[i]!.box, glyphs[j]!.box) < 0.12 * bondLen) guf.join(i, j);
  const clusters = new Map<number, FillShape[]>();
  glyphs.forEach((g, i) => clusters.set(guf.find(i), [...(clusters.get(guf.find(i)) ?? []), g]));
  for (const c of clusters.values()) {
    const l = glyphLabel(rdkit, c);
    if (!l) {
      if (process.env.CSAI_VECTOR_DEBUG) console.error(`vector: glyph cluster ${c[0]!.color} ${JSON.stringify(c.map((g) => [g.rings.length, g.rings.flat().length, g.curves, g.box.map(Math.round)]))}`);
      return reject(6);
    }
    labels.push(l);
  }
  // Text labels: runs close together (subscripts, charges) make one label.
  const tuf = new UnionFind(texts.length);
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++) {
      const near = SUBSCRIPT.test(texts[i]!.str) || SUBSCRIPT.test(texts[j]!.str) ? 0.25 : 0.08;
      if (boxGap(texts[i]!.box, texts[j]!.box) < near * bondLen) tuf.join(i, j);
    }
  const tclusters = new Map<number, TextRun[]>();
  texts.forEach((t, i) => tclusters.set(tuf.find(i), [...(tclusters.get(tuf.find(i)) ?? []), t]));
  const charges: { charge: number; box: Box }[] = [];
  for (const c of tclusters.values()) {
    c.sort((p, q) => p.box[0] - q.box[0]);
    // Runs close together are one label (N, H, 2), or labels side by side (F next to O): each
    // piece starts at a run that is no subscript, charge or leading H.
    let pieces: TextRun[][] = [c];
    const joined = c.map((t) => t.str).join('');
    if (!parseLabel(joined) && !isGroupLabel(joined)) {
      pieces = [];
      let lead: TextRun[] = [];
      for (const t of c) {
        if (/^H\d*$/.test(t.str) && !pieces.length) lead.push(t);
        else if (/^[\d+\-_\u2212]+$/.test(t.str) && (pieces.length || lead.length)) (pieces.length && !lead.length ? pieces[pieces.length - 1]! : lead).push(t);
        else {
          pieces.push([...lead, t]);
          lead = [];
        }
      }
      if (lead.length) pieces.push(lead);
    }
    for (const piece of pieces) {
      const str = piece.map((t) => t.str).join('');
      const lbox = piece.map((t) => t.box).reduce(union);
      const sign = /^[+\-_\u2212]$/.test(str) ? (str === '+' ? 1 : -1) : 0;
      if (sign) {
        // Open Babel writes a minus as "_", whose ink is the bottom of its box: the box's top half
        // reaches the label above (the N+ of a nitro group over its O−).
        charges.push({ charge: sign, box: str === '_' ? [lbox[0], lbox[1], lbox[2], lbox[1] + 0.25 * (lbox[3] - lbox[1])] : lbox });
        continue;
      }
      const parsed = parseLabel(str);
      if (!parsed && isGroupLabel(str)) {
        // A group (OMe, CF3 with its 3 a run of its own): each character's share of its run.
        const chars = piece.flatMap((t) => [...t.str].map((_, k): Box => {
          const per = (t.box[2] - t.box[0]) / t.str.length;
          return [t.box[0] + k * per, t.box[1], t.box[0] + (k + 1) * per, t.box[3]];
        }));
        labels.push({ element: '*', charge: 0, box: lbox, at: centre(lbox), group: { text: str, chars } });
        continue;
      }
      if (!parsed) {
        if (process.env.CSAI_VECTOR_DEBUG) console.error(`vector: label ${JSON.stringify(piece.map((t) => t.str))}`);
        return reject(7);
      }
      // The atom sits at its element's letters.
      const host = piece.find((t) => t.str.includes(parsed.element)) ?? piece[0]!;
      const per = (host.box[2] - host.box[0]) / Math.max(1, host.str.length);
      const at0 = host.str.indexOf(parsed.element);
      const x = at0 >= 0 ? host.box[0] + (at0 + parsed.element.length / 2) * per : (lbox[0] + lbox[2]) / 2;
      labels.push({ ...parsed, box: lbox, at: [x, (host.box[1] + host.box[3]) / 2] });
    }
  }
  // A charge written on its own belongs to the nearest label.
  for (const ch of charges) {
    const near = labels.map((l, i) => [boxGap(l.box, ch.box), i] as const).sort((a, b) => a[0] - b[0])[0];
    if (!near || near[0] > 0.4 * bondLen) return reject(20);
    labels[near[1]]!.charge += ch.charge;
  }

  // Atoms: bond ends at a label join it; other ends within a tolerance are one carbon.
  const atoms: { at: Point; element: string; charge: number; label: boolean; n: number }[] = labels.map((l) => ({ at: l.at, element: l.element, charge: l.charge, label: true, n: 1 }));
  /**
   * The label a bond end reaches, or -1. When several are within reach (crowded labels overlap: an F
   * drawn against the O beside it), the one the bond points at: whose centre lies nearest the line
   * through the bond, ahead of its end (not back towards the bond's other atom).
   */
  const labelAt = (p: Point, from: Point): number => {
    const within = labels.flatMap((l, i) => (boxDist(p, l.box) <= Math.max(0.4 * bondLen, 0.6 * (l.box[3] - l.box[1])) ? [i] : []));
    if (within.length < 2) return within[0] ?? -1;
    const d = dist(from, p) || 1;
    const u: Point = [(p[0] - from[0]) / d, (p[1] - from[1]) / d];
    const off = (i: number) => {
      const c = centre(labels[i]!.box);
      const along = (c[0] - p[0]) * u[0] + (c[1] - p[1]) * u[1];
      return Math.abs((c[0] - p[0]) * u[1] - (c[1] - p[1]) * u[0]) + Math.max(0, -along);
    };
    return within.reduce((b, i) => (off(i) < off(b) ? i : b));
  };
  const atomOf = (p: Point, from: Point, loose: boolean): number => {
    const label = labelAt(p, from);
    if (label >= 0) return label;
    const reach = loose ? 0.3 * bondLen : tol;
    let near = -1;
    let nearD = Infinity;
    for (let i = labels.length; i < atoms.length; i++) {
      const d = dist(atoms[i]!.at, p);
      if (d < nearD) {
        nearD = d;
        near = i;
      }
    }
    if (near >= 0 && nearD <= reach) return near;
    atoms.push({ at: p, element: 'C', charge: 0, label: false, n: 1 });
    return atoms.length - 1;
  };
  // Plain single lines first (their ends are the atoms), then multiple and hashed bonds, whose
  // lines may stop short of their atoms.
  const loose = (bd: Bond) => bd.stereo === 6 || bd.order > 1;
  bonds.sort((p, q) => Number(loose(p)) - Number(loose(q)));
  const edges: { i: number; j: number; order: number; stereo: number }[] = [];
  for (const bd of bonds) {
    const i = atomOf(bd.a, bd.b, loose(bd));
    const j = atomOf(bd.b, bd.a, loose(bd));
    if (i === j) return reject(8);
    if (edges.some((e) => (e.i === i && e.j === j) || (e.i === j && e.j === i))) return reject(9);
    edges.push({ i, j, order: bd.order, stereo: bd.stereo });
  }
  // Every label must carry a bond (a stray letter is a caption), and the drawing must be a molecule's.
  const degree = atoms.map((_, i) => edges.filter((e) => e.i === i || e.j === i).length);
  if (atoms.length > 1 && degree.some((d) => d === 0)) return reject(10);
  // Group labels: read the way their bond says (to the left of it, MeO2C; otherwise CO2Me), the
  // atom where the letter of the atom carrying the bond stands.
  const groups: { atom: number; graph: GroupGraph; out: Point }[] = [];
  for (let i = 0; i < labels.length; i++) {
    const g = labels[i]!.group;
    if (!g) continue;
    const others = edges.flatMap((e) => (e.i === i ? [e.j] : e.j === i ? [e.i] : [])).map((k) => atoms[k]!.at);
    const c = centre(labels[i]!.box);
    const toward: Point = [others.reduce((t, p) => t + p[0], 0) / others.length - c[0], others.reduce((t, p) => t + p[1], 0) / others.length - c[1]];
    const mirrored = toward[0] > 0 && Math.abs(toward[0]) >= Math.abs(toward[1]);
    const smiles = groupSmiles(g.text, mirrored) ?? groupSmiles(g.text, !mirrored);
    const graph = smiles ? groupGraph(rdkit, smiles) : null;
    if (!graph) return reject(21);
    const element = SYMBOLS.get(graph.atoms[0]!.z);
    if (!element) return reject(21);
    const order = mirrored ? [...g.chars.keys()].reverse() : [...g.chars.keys()];
    const k = order.find((j) => g.text[j] === element[0] && (element.length === 1 || g.text[j + 1] === element[1])) ?? order[0]!;
    const at = centre(element.length === 2 ? union(g.chars[k]!, g.chars[k + 1]!) : g.chars[k]!);
    atoms[i] = { ...atoms[i]!, at, element, charge: graph.atoms[0]!.charge };
    groups.push({ atom: i, graph, out: [-toward[0], -toward[1]] });
  }
  const heavy = atoms.filter((a) => a.element !== 'H').length + groups.reduce((t, g) => t + g.graph.atoms.filter((a) => a.z !== 1).length - 1, 0);
  if (heavy < 3 || !atoms.some((a) => a.element === 'C') && !groups.some((g) => g.graph.atoms.some((a) => a.z === 6))) return reject(11);
  // Bond lengths of a toolkit's drawing are even: table rules and chart axes are not.
  const lengths = edges.map((e) => dist(atoms[e.i]!.at, atoms[e.j]!.at));
  const m = median(lengths);
  if (process.env.CSAI_VECTOR_DEBUG && lengths.some((l) => l > 1.6 * m || l < 0.45 * m)) console.error(edges.map((e, k) => `${atoms[e.i]!.element}${e.i}-${atoms[e.j]!.element}${e.j}:${(lengths[k]! / m).toFixed(2)}`).join(" "));
  if (lengths.some((l) => l > 1.6 * m || l < 0.45 * m)) return reject(12);
  // One molecule: a connected drawing.
  const seenAtoms = new Set([0]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const e of edges)
      if (seenAtoms.has(e.i) !== seenAtoms.has(e.j)) {
        seenAtoms.add(e.i);
        seenAtoms.add(e.j);
        grew = true;
      }
  }
  if (seenAtoms.size !== atoms.length) return reject(17);
  // Rules and frames are all horizontal and vertical; a molecule's bonds are not.
  const straight = edges.filter((e) => {
    const [p, q] = [atoms[e.i]!.at, atoms[e.j]!.at];
    return Math.abs(p[0] - q[0]) < 0.05 * m || Math.abs(p[1] - q[1]) < 0.05 * m;
  }).length;
  if (straight > 0.8 * edges.length) return reject(18);
  // Bonds do not cross one another.
  for (let a = 0; a < edges.length; a++)
    for (let b = a + 1; b < edges.length; b++) {
      const e = edges[a]!;
      const f = edges[b]!;
      if (e.i === f.i || e.i === f.j || e.j === f.i || e.j === f.j) continue;
      if (crosses(atoms[e.i]!.at, atoms[e.j]!.at, atoms[f.i]!.at, atoms[f.j]!.at)) return reject(19);
    }
  // No carbon with more than four bonds, no crossing of bonds at right angles through an atom.
  for (let i = 0; i < atoms.length; i++) {
    const valence = edges.filter((e) => e.i === i || e.j === i).reduce((s, e) => s + e.order, 0);
    if (atoms[i]!.element === 'C' && valence > 4) return reject(13);
  }
  // The groups' own atoms, laid out away from the drawing (their places set no stereo).
  for (const { atom, graph, out } of groups) {
    const u = Math.hypot(out[0], out[1]) > 0 ? ([out[0] / Math.hypot(out[0], out[1]), out[1] / Math.hypot(out[0], out[1])] as Point) : ([1, 0] as Point);
    const index = graph.atoms.map((a, j) => (j === 0 ? atom : atoms.push({ at: [0, 0], element: SYMBOLS.get(a.z) ?? '', charge: a.charge, label: false, n: 1 }) - 1));
    if (index.some((j) => !atoms[j]!.element)) return reject(21);
    const placed = new Set([0]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const b of graph.bonds) {
        const [from, to] = placed.has(b.i) && !placed.has(b.j) ? [b.i, b.j] : placed.has(b.j) && !placed.has(b.i) ? [b.j, b.i] : [-1, -1];
        if (from < 0) continue;
        const turn = ((placed.size % 3) - 1) * (Math.PI / 3);
        const d: Point = [u[0] * Math.cos(turn) - u[1] * Math.sin(turn), u[0] * Math.sin(turn) + u[1] * Math.cos(turn)];
        const p = atoms[index[from]!]!.at;
        atoms[index[to]!]!.at = [p[0] + d[0] * m, p[1] + d[1] * m];
        placed.add(to);
        grew = true;
      }
    }
    for (const b of graph.bonds) edges.push({ i: index[b.i]!, j: index[b.j]!, order: b.order, stereo: 0 });
  }
  const molblock = molBlock(atoms, edges);
  // RDKit refuses it (a valence no element has): no molecule.
  return withValidMol(rdkit, molblock, (mol) => ({ box, smiles: mol.get_smiles(), inchiKey: inchiKeyOf(rdkit, mol), molblock, heavyAtoms: heavy })) ?? reject(14);
}

/** A polygon's area (shoelace). */
function area(p: Point[]): number {
  let a = 0;
  for (let i = 0, j = p.length - 1; i < p.length; j = i++) a += (p[j]![0] + p[i]![0]) * (p[j]![1] - p[i]![1]);
  return Math.abs(a) / 2;
}

/** The convex hull of points (monotone chain), without corners that lie within `eps` of a straight side. */
function convexHull(points: Point[], eps: number): Point[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: Point, a: Point, b: Point) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (pts: Point[]) => {
    const h: Point[] = [];
    for (const q of pts) {
      while (h.length >= 2 && cross(h[h.length - 2]!, h[h.length - 1]!, q) <= 0) h.pop();
      h.push(q);
    }
    return h.slice(0, -1);
  };
  let hull = [...half(p), ...half([...p].reverse())];
  for (let changed = true; changed && hull.length > 3; ) {
    changed = false;
    for (let i = 0; i < hull.length; i++) {
      const a = hull[(i + hull.length - 1) % hull.length]!;
      const b = hull[(i + 1) % hull.length]!;
      if (Math.abs(cross(a, b, hull[i]!)) / Math.max(dist(a, b), 1e-9) < eps) {
        hull = hull.filter((_, k) => k !== i);
        changed = true;
        break;
      }
    }
  }
  return hull;
}

/** Whether segments pq and rs cross at a point inside both. */
function crosses(p: Point, q: Point, r: Point, s: Point): boolean {
  const side = (a: Point, b: Point, c: Point) => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  const d1 = side(p, q, r);
  const d2 = side(p, q, s);
  const d3 = side(r, s, p);
  const d4 = side(r, s, q);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/** A filled wedge's narrow tip and the middle of its wide end; null when it is no wedge (a bar, a box). */
function wedgeOf(pts: Point[]): [Point, Point] | null {
  let p = pts;
  if (p.length > 3 && dist(p[0]!, p[p.length - 1]!) < 1e-3) p = p.slice(0, -1);
  if (p.length === 3) {
    // The tip is the vertex opposite the shortest side.
    let best = 0;
    let shortest = Infinity;
    for (let i = 0; i < 3; i++) {
      const side = dist(p[(i + 1) % 3]!, p[(i + 2) % 3]!);
      if (side < shortest) {
        shortest = side;
        best = i;
      }
    }
    const tip = p[best]!;
    const base = mid(p[(best + 1) % 3]!, p[(best + 2) % 3]!);
    if (shortest > 0.6 * dist(tip, base)) return null;
    return [tip, base];
  }
  if (p.length === 4) {
    // A truncated wedge: a short side at each end, one shorter than the other.
    const sides = [0, 1, 2, 3].map((i) => dist(p[i]!, p[(i + 1) % 4]!));
    const i = sides[0]! + sides[2]! < sides[1]! + sides[3]! ? 0 : 1;
    const s1 = sides[i]!;
    const s2 = sides[i + 2]!;
    const e1 = mid(p[i]!, p[(i + 1) % 4]!);
    const e2 = mid(p[i + 2]!, p[(i + 3) % 4]!);
    if (Math.min(s1, s2) > 0.5 * Math.max(s1, s2) || Math.max(s1, s2) > 0.6 * dist(e1, e2)) return null;
    return s1 < s2 ? [e1, e2] : [e2, e1];
  }
  return null;
}

function molBlock(atoms: { at: Point; element: string; charge: number }[], edges: { i: number; j: number; order: number; stereo: number }[]): string {
  const f = (x: number, w: number, d = 4) => x.toFixed(d).padStart(w);
  const n = (x: number, w: number) => String(x).padStart(w);
  // Coordinates in bond lengths (RDKit's drawings are about 1.5 Å per bond).
  const lengths = edges.map((e) => dist(atoms[e.i]!.at, atoms[e.j]!.at));
  const k = 1.5 / (median(lengths) || 1);
  const lines = ['', '  CSAI vector reading', '', `${n(atoms.length, 3)}${n(edges.length, 3)}  0  0  0  0  0  0  0  0999 V2000`];
  for (const a of atoms) lines.push(`${f(a.at[0] * k, 10)}${f(a.at[1] * k, 10)}${f(0, 10)} ${a.element.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`);
  for (const e of edges) lines.push(`${n(e.i + 1, 3)}${n(e.j + 1, 3)}${n(e.order, 3)}${n(e.stereo, 3)}`);
  const charged = atoms.map((a, i) => [i + 1, a.charge] as const).filter(([, c]) => c !== 0);
  for (let i = 0; i < charged.length; i += 8) {
    const chunk = charged.slice(i, i + 8);
    lines.push(`M  CHG${n(chunk.length, 3)}${chunk.map(([a, c]) => `${n(a, 4)}${n(c, 4)}`).join('')}`);
  }
  lines.push('M  END');
  return lines.join('\n');
}
