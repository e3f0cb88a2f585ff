// Pure helpers of the document viewer (viewer-model.ts): the cited box, zoom steps, search over page texts.

/** A box in PDF user space (points, origin bottom-left): x0, y0, x1, y1. */
export type PdfBox = [number, number, number, number];

/**
 * Reads the `highlight` attribute: `"x0,y0,x1,y1"`, a JSON array of four numbers, or JSON
 * `{ "bbox": [...] }` / `{ "x0":…, "y0":…, "x1":…, "y1":… }`. Anything else is `null`.
 */
export function parseHighlight(text: string | undefined): PdfBox | null {
  if (!text) return null;
  let values: unknown = null;
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    try {
      values = JSON.parse(trimmed);
    } catch {
      return null;
    }
    if (values && typeof values === 'object' && !Array.isArray(values)) {
      const o = values as Record<string, unknown>;
      values = Array.isArray(o['bbox']) ? o['bbox'] : [o['x0'], o['y0'], o['x1'], o['y1']];
    }
  } else values = trimmed.split(/[\s,]+/).map(Number);
  if (!Array.isArray(values) || values.length !== 4) return null;
  const nums = values.map((v) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN));
  if (!nums.every(Number.isFinite)) return null;
  const [a, b, c, d] = nums as [number, number, number, number];
  return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
}

/** A rectangle in CSS pixels relative to the page's top-left corner. */
export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Maps a PDF box to page pixels with a viewport's `convertToViewportRectangle`. */
export function boxToRect(box: PdfBox, convert: (r: number[]) => number[]): Rect {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = convert(box);
  return { left: Math.min(x0, x1), top: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0) };
}

/** Zoom levels the buttons step through. */
export const ZOOM_STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5];
/** The smallest zoom. */
export const MIN_ZOOM = ZOOM_STEPS[0]!;
/** The largest zoom. */
export const MAX_ZOOM = ZOOM_STEPS[ZOOM_STEPS.length - 1]!;

/** The next zoom step above (`dir` 1) or below (-1) the current scale. */
export function stepZoom(scale: number, dir: 1 | -1): number {
  if (dir > 0) return ZOOM_STEPS.find((s) => s > scale + 1e-3) ?? MAX_ZOOM;
  return [...ZOOM_STEPS].reverse().find((s) => s < scale - 1e-3) ?? MIN_ZOOM;
}

/** Clamps a page number to 1…count; `null` for text that is not a number. */
export function clampPage(value: string | number, count: number): number | null {
  const n = typeof value === 'number' ? value : Number(value.trim());
  if (!Number.isFinite(n) || count < 1) return null;
  return Math.min(count, Math.max(1, Math.round(n)));
}

/** The text of one page as its text items (one text-layer span each). */
export interface PageText {
  items: string[];
  /** Items followed by a line end. */
  eol: boolean[];
}

/** One match: its page (1-based) and, per touched item, the character range inside it. */
export interface Match {
  page: number;
  parts: { item: number; start: number; end: number }[];
}

const fold = (s: string) => s.toLocaleLowerCase();

/**
 * Finds every occurrence of `query` (case-insensitive; runs of spaces in the query match any
 * run of spaces, and matches may cross item borders, which pdf.js puts inside words and
 * lines). Items are joined without a separator, except a space at line ends.
 */
export function findMatches(pages: PageText[], query: string, limit = 10000): Match[] {
  const q = fold(query.trim().replace(/\s+/g, ' '));
  if (!q) return [];
  const out: Match[] = [];
  pages.forEach((page, p) => {
    const starts: number[] = [];
    let text = '';
    page.items.forEach((s, i) => {
      starts.push(text.length);
      text += s;
      if (page.eol[i] && !/\s$/.test(s)) text += ' ';
    });
    const hay = fold(text.replace(/\s/g, ' '));
    // Collapse runs of spaces in the haystack too, keeping a map back to original offsets.
    let flat = '';
    const back: number[] = [];
    for (let i = 0; i < hay.length; i++) {
      if (hay[i] === ' ' && flat.endsWith(' ')) continue;
      flat += hay[i];
      back.push(i);
    }
    back.push(hay.length);
    for (let at = flat.indexOf(q); at >= 0 && out.length < limit; at = flat.indexOf(q, at + q.length)) {
      const s = back[at]!;
      const e = back[at + q.length - 1]! + 1;
      const parts: Match['parts'] = [];
      page.items.forEach((str, i) => {
        const a = Math.max(s, starts[i]!);
        const b = Math.min(e, starts[i]! + str.length);
        if (b > a) parts.push({ item: i, start: a - starts[i]!, end: b - starts[i]! });
      });
      if (parts.length) out.push({ page: p + 1, parts });
    }
  });
  return out;
}
