/**
 * Compound labels of a medicinal chemistry paper or patent: "化合物 12a", "compound 7′",
 * "Example 23", "cpd 4b", or a bare "12a" under a drawing or in a table's first column.
 *
 * A label's key is `normaliseLabel`'s (text/compound-label.ts); linking is by `(doc_id, key)`.
 *
 * Pure functions over `parsing/pdf-layout.ts` blocks (PDF points, origin bottom-left).
 */
import type { Block, Box } from '../pdf-layout.js';
import { LABEL_PREFIX, normaliseLabel } from '../../text/compound-label';

/** Pieces of a block's text that might be labels, with the horizontal span each occupies. */
interface Candidate {
  key: string;
  box: Box;
}

/** A Chinese prefix glued to an atom label before it ("O化合物 20f") starts a token of its own. */
const ungluePrefix = (text: string) => text.replace(/(?<=\S)(?=化合物|实施例)/gu, ' ');

/**
 * A block's labels: the whole block when its text is one label; otherwise, for a short line of
 * several labels ("12a   12b   12c" under a row of drawings, which layout may read as one line or
 * as a one-row table), each token with a share of the block's width proportional to its place in
 * the text. Longer text (a caption, a sentence) yields none.
 */
function candidatesOf(block: Block): Candidate[] {
  const text = block.text.trim();
  const whole = normaliseLabel(text);
  if (whole) return [{ key: whole, box: block.bbox }];
  if (text.length > 80 || text.includes('\n\n')) return [];
  const cells = block.rows && block.rows.length === 1 ? block.rows[0]! : null;
  const line = ungluePrefix(cells ? cells.join('   ') : text);
  if (/\n/.test(line)) return [];
  // Tokens: a prefix word joins the identifier after it.
  const tokens: { text: string; start: number; end: number }[] = [];
  const re = new RegExp(`(?:${LABEL_PREFIX}\\s*)?\\S+`, 'giu');
  for (let m = re.exec(line); m; m = re.exec(line)) tokens.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  if (tokens.length < 2) return [];
  const keys = tokens.map((t) => normaliseLabel(t.text));
  const [x0, y0, x1, y1] = block.bbox;
  if (keys.some((k) => k === null)) return mixedLine(line, tokens, keys, block.bbox);
  // Labels set out under (or beside) a row of drawings are far apart, while the text joins them with
  // one space: each token's width is estimated from the font size (a CJK character one em, others
  // about half), and the room left is shared evenly between them.
  const widths = tokens.map((t) => ems(t.text) * Math.max(1, block.size));
  const total = widths.reduce((a, b) => a + b, 0);
  if (total >= x1 - x0) {
    const perChar = (x1 - x0) / Math.max(1, line.length);
    return tokens.map((t, i) => ({ key: keys[i]!, box: [x0 + t.start * perChar, y0, x0 + t.end * perChar, y1] }));
  }
  const gap = (x1 - x0 - total) / (tokens.length - 1);
  let x = x0;
  return tokens.map((_, i) => {
    const box: Box = [x, y0, x + widths[i]!, y1];
    x += widths[i]! + gap;
    return { key: keys[i]!, box };
  });
}

/** An atom or group label as drawn: O, OH, NH2, H3C, CF3, CO2H, OMe, N+, a lone charge. */
const ATOM_LABEL = /^(?:(?:H\d*)?(?:[A-Z][a-z]?\d*){1,3}[+\-−]?|[+\-−])$/u;

/**
 * A prefixed label at the end of a table cell after atom labels OCR or layout joined to it ("S O化合物20b",
 * "OH化合物20c"): the label and where it starts, as a share of the cell's estimated width. Null when the
 * rest is more than atom labels or holds no prefixed label.
 */
function gluedLabel(cell: string): { text: string; from: number } | null {
  const line = ungluePrefix(cell);
  const m = new RegExp(`(${LABEL_PREFIX}\\s*\\S+)$`, 'iu').exec(line);
  if (!m || !normaliseLabel(m[1]!)) return null;
  const before = line.slice(0, m.index).trim();
  if (!before || !before.split(/\s+/).every((t) => ATOM_LABEL.test(t))) return null;
  return { text: m[1]!, from: ems(line.slice(0, m.index)) / Math.max(1e-9, ems(line)) };
}

/** A character's width in ems, roughly: CJK one em, a space about a quarter, others about half. */
const ems = (text: string) => [...text].reduce((w, ch) => w + (/[\u2E80-\u9FFF\uFF00-\uFFEF]/u.test(ch) ? 1 : ch === ' ' ? 0.28 : 0.55), 0);

/**
 * A line of labels mixed with the atom labels of the drawings around them (a vector figure's text:
 * "O 化合物 20f O 化合物 20g H3C O"): its labels with a prefix word, placed by their share of the
 * line's estimated width. None when other words of the line are longer than atom labels.
 */
function mixedLine(line: string, tokens: { text: string; start: number }[], keys: (string | null)[], [x0, y0, x1, y1]: Box): Candidate[] {
  const prefixed = new RegExp(`^${LABEL_PREFIX}`, 'iu');
  if (tokens.some((t, i) => keys[i] === null && t.text.length > 4)) return [];
  const total = ems(line);
  const out: Candidate[] = [];
  tokens.forEach((t, i) => {
    if (keys[i] === null || !prefixed.test(t.text)) return;
    const from = x0 + ((x1 - x0) * ems(line.slice(0, t.start))) / total;
    out.push({ key: keys[i]!, box: [from, y0, from + ((x1 - x0) * ems(t.text)) / total, y1] });
  });
  return out;
}

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.min(a1, b1) - Math.max(a0, b0);

/**
 * How far a label at `c` is from a drawing at `box` (smaller is nearer), or null when it is not
 * placed as a label of that drawing: below it (the usual place), above it, or beside it, within
 * a gap that grows with the drawing's size (more of it when `loose`). Boxes are in `unit`s per point (1 on a PDF page; an
 * image's pixels per point), distances in points.
 */
function distance(cBox: Box, boxIn: Box, unit = 1, loose = false): number | null {
  const [bx0, by0, bx1, by1] = boxIn.map((v) => v / unit) as Box;
  const [cx0, cy0, cx1, cy1] = cBox.map((v) => v / unit) as Box;
  // Text wholly inside the drawing is its own (an atom label, a subscript read as a number).
  if (cx0 >= bx0 && cx1 <= bx1 && cy0 >= by0 && cy1 <= by1) return null;
  const w = Math.max(1, bx1 - bx0);
  const h = Math.max(1, by1 - by0);
  // Loose: a recognised drawing's box is its ink, which may be much flatter (or narrower) than the
  // room the page gave the drawing, so its label may sit further off its longer side's scale.
  const maxGap = loose ? 24 + 0.5 * Math.max(w, h) : 24 + 0.35 * Math.min(w, h);
  const cx = (cx0 + cx1) / 2;
  const cy = (cy0 + cy1) / 2;
  const horizontal = overlap(cx0, cx1, bx0, bx1);
  const vertical = overlap(cy0, cy1, by0, by1);
  const centred = Math.abs(cx - (bx0 + bx1) / 2) / w; // 0 = centred under the drawing
  // Below: the label's top is under (or a little inside) the drawing's bottom.
  if (horizontal > 0 && cy1 <= by0 + 0.3 * h && cy < by0 + 0.15 * h) {
    const gap = by0 - cy1;
    if (gap <= maxGap) return Math.max(0, gap) + 20 * centred;
  }
  // Above.
  if (horizontal > 0 && cy0 >= by1 - 0.2 * h && cy > by1 - 0.1 * h) {
    const gap = cy0 - by1;
    if (gap <= maxGap * 0.6) return 10 + Math.max(0, gap) + 20 * centred;
  }
  // Beside (left or right), vertically within the drawing's band.
  if (vertical > 0 && cy >= by0 - 0.1 * h && cy <= by1 + 0.1 * h) {
    // A label's box may be estimated (a line of labels): a few points of overlap are still beside.
    // So may a table cell's box (a column's width) holding a label right of its drawing, as long as
    // two fifths of it reach out past the drawing on that side.
    const slack = 4;
    const out = 0.4 * (cx1 - cx0);
    const right = cx0 >= bx1 - slack || cx1 - bx1 >= out;
    const left = cx1 <= bx0 + slack || bx0 - cx0 >= out;
    // Right of a drawing is the usual side; left only when nothing is right.
    const gap = right ? Math.max(0, cx0 - bx1) : left ? Math.max(0, bx0 - cx1) : null;
    if (gap !== null && gap <= maxGap * 0.8) return 15 + gap + (right ? 0 : 10);
  }
  return null;
}

/**
 * The blocks of a page that may hold a drawing's label (short ones: a label, a line of labels),
 * kept by the parse beside its result for the structure stage, which reads labels next to drawings.
 */
export const labelCandidates = (blocks: Block[]): Block[] => blocks.flatMap(labelRows).filter((b) => b.text.trim().length <= 80);

/** Words and units of a table of measurements. */
const MEASUREMENT = /IC50|EC50|IC₅₀|\bK[id]\b|inhibition|抑制|活性|[nμµpm]M\b|%/u;

/**
 * A table of several rows whose row holds labels (drawings set out in a grid: their atom labels,
 * "N", "CH3", "H2N", are text too, and layout reads the grid with its row of labels as one table)
 * is cut into one block per label of such a row: its box the row's share of the table's height and
 * the cell's column (or, without the table's columns, an even share of its width). Other blocks stay as they are.
 */
export function labelRows(block: Block): Block[] {
  if (block.kind !== 'table' || !block.rows || block.rows.length < 2) return [block];
  // A table of measurements (its labels beside their values) is no grid of drawings.
  if (block.rows.some((row) => row.some((c) => MEASUREMENT.test(c)))) return [block];
  // Nor is one whose every row is labels and numbers: a column of labels beside a column of values.
  if (block.rows.filter((row) => row.some((c) => c.trim()) && row.every((c) => !c.trim() || normaliseLabel(c) !== null)).length > 2) return [block];
  const [x0, y0, x1, y1] = block.bbox;
  const rowH = (y1 - y0) / block.rows.length;
  const cut: Block[] = [];
  block.rows.forEach((row, i) => {
    // A cell may hold a drawing's atom labels before a prefixed label, read as one run ("S O化合物20b").
    const filledCells = row
      .map((c, j) => ({ c: c.trim(), j }))
      .filter((c) => c.c)
      .map((c) => {
        const label = normaliseLabel(c.c) !== null;
        return { ...c, label, glued: label ? null : gluedLabel(c.c) };
      });
    // Atom labels (Cl, NH2, CH3) may share the row; longer text (a sentence) may not.
    if (filledCells.some((c) => !c.label && !c.glued && c.c.length > 5)) return;
    const filled = filledCells.filter((c) => c.label || c.glued);
    if (!filled.length) return;
    // A lone bare number is as likely a subscript of an atom label (the 3 of CH3) as a label.
    if (filled.length < 2 && !filled[0]!.glued && !new RegExp(`^${LABEL_PREFIX}`, 'iu').test(filled[0]!.c)) return;
    const colW = (x1 - x0) / Math.max(1, row.length);
    // Rows run top to bottom; the box's origin is bottom-left.
    const top = y1 - i * rowH;
    for (const { c, j, glued } of filled) {
      const [left, right] = block.columns?.length === row.length ? block.columns[j]! : [x0 + j * colW, x0 + (j + 1) * colW];
      // A glued label takes its share of the cell after the atom labels before it.
      const from = glued ? left + (right - left) * glued.from : left;
      cut.push({ kind: 'paragraph', page: block.page, bbox: [from, top - rowH, right, top], text: glued ? glued.text : c, size: block.size });
    }
  });
  return cut.length ? cut : [block];
}

/**
 * The label of the drawing at `box` on its page, read from the page's text blocks: the nearest
 * block (or label within a line of labels) that is only a compound label and sits below, above
 * or beside the drawing. Captions and body text are not labels. Null when none is near.
 * Pass the blocks of the drawing's page: the page is not checked. `unit`: units of the boxes per
 * point (1 on a PDF page; on an image, its pixels per point: imageUnit).
 */
export function labelNear(blocks: Block[], box: Box, unit = 1): string | null {
  let best: { key: string; d: number } | null = null;
  for (const block of blocks) {
    for (const c of candidatesOf(block)) {
      const d = distance(c.box, box, unit);
      if (d !== null && (!best || d < best.d)) best = { key: c.key, d };
    }
  }
  return best?.key ?? null;
}

/**
 * The labels of the drawings at `boxes` on one page (labelNear's rules), read together: each
 * drawing first takes its nearest label within labelNear's reach; a drawing left without one then
 * takes, within a looser reach (its box is its ink, which may be much smaller than the room the page
 * gave it), the nearest label no drawing took, as long as no other drawing left without a label is
 * nearer to that label. `given`: labels a drawing already has (null where it has none); they are kept.
 */
export function labelsNear(blocks: Block[], boxes: readonly Box[], unit = 1, given: readonly (string | null)[] = []): (string | null)[] {
  const candidates = blocks.flatMap(candidatesOf);
  const out = boxes.map((box, i) => given[i] ?? labelNear(blocks, box, unit));
  const taken = new Set(out.filter((k): k is string => k !== null));
  const open = boxes.map((_, i) => i).filter((i) => out[i] === null);
  const pairs: { i: number; key: string; d: number }[] = [];
  for (const c of candidates) {
    if (taken.has(c.key)) continue;
    const near = open.map((i) => ({ i, d: distance(c.box, boxes[i]!, unit, true) })).filter((e): e is { i: number; d: number } => e.d !== null);
    if (!near.length) continue;
    const best = near.reduce((a, b) => (b.d < a.d ? b : a));
    pairs.push({ i: best.i, key: c.key, d: best.d });
  }
  pairs.sort((a, b) => a.d - b.d);
  for (const { i, key } of pairs) {
    if (out[i] !== null || taken.has(key)) continue;
    out[i] = key;
    taken.add(key);
  }
  return out;
}

/**
 * OCR drops a prime more often than it reads one that is not there: the label `key` of a drawing (or a
 * sentence) read as "28i" where the document's other text names "28i′" and never "28i" is "28i′".
 * `known`: how many times each label key occurs in the document's other text (a table's rows,
 * labels set apart); `claimed`: keys other drawings already carry. The key unchanged otherwise.
 */
export function primedLabel(key: string, known: ReadonlyMap<string, number>, claimed: ReadonlySet<string> = new Set()): string {
  if (key.endsWith("'") || (known.get(key) ?? 0) > 0) return key;
  const variants = [...known.keys()].filter((k) => k.length > key.length && k.startsWith(key) && /^'+$/.test(k.slice(key.length)));
  return variants.length === 1 && !claimed.has(variants[0]!) ? variants[0]! : key;
}

/** How many times each label key occurs among `blocks` (a whole block or a label of a line of labels). */
export function labelCounts(blocks: readonly Block[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const b of blocks) for (const c of candidatesOf(b)) out.set(c.key, (out.get(c.key) ?? 0) + 1);
  return out;
}

/** Body text is about this size in points: an image's text, measured in its pixels, gives its pixels per point. */
const BODY_PT = 10;

/**
 * An image's pixels per point (labelNear's `unit`), from the size of its OCR'd text: an image says
 * nothing reliable of its resolution (a photo claims 72 dpi), while its type is about BODY_PT points.
 * 1 without text.
 */
export function imageUnit(blocks: readonly Block[]): number {
  const sizes = blocks.map((b) => b.size).filter((v) => v > 0).sort((a, b) => a - b);
  if (!sizes.length) return 1;
  return Math.min(40, Math.max(0.25, sizes[Math.floor(sizes.length / 2)]! / BODY_PT));
}
