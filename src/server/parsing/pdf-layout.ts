/**
 * Turns positioned text runs of PDF pages into structured blocks: lines, reading order for two
 * columns, paragraphs, headings (by font size), lists and tables (by aligned gaps). Pure
 * functions over plain data, so they can be tested without pdf.js.
 */

/** One text run as pdf.js reports it, reduced to what layout needs (PDF points, origin bottom-left). */
export interface Run {
  text: string;
  x: number;
  /** Baseline. */
  y: number;
  width: number;
  size: number;
}

export interface PageText {
  page: number;
  /** Lower-left corner of the page's visible area (usually 0, 0). */
  x0?: number;
  y0?: number;
  width: number;
  height: number;
  runs: Run[];
}

export type BlockKind = 'heading' | 'paragraph' | 'list' | 'table';
export type Box = [number, number, number, number];

export interface Block {
  kind: BlockKind;
  page: number;
  bbox: Box;
  /** Heading level 1–4. */
  level?: number;
  text: string;
  /** Table rows of cells. */
  rows?: string[][];
  /** A table's columns: each one's [left, right] in the page's units, in the order of the cells of its rows. */
  columns?: [number, number][];
  size: number;
}

interface Segment {
  runs: Run[];
  x0: number;
  x1: number;
  y: number;
  size: number;
  text: string;
}

interface Line {
  y: number;
  size: number;
  segments: Segment[];
}

const HAN = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u;
const LIST_MARK = /^(?:[•·●○◦▪■□◆◇▶►‣⁃–—*-]\s*|\(?\d{1,2}[.)．、]\s*|[（(]\d{1,2}[)）]\s*|[①-⑳]\s*|[a-zA-Z][.)]\s+|[一二三四五六七八九十]+、)/u;

// The callbacks of the functions below (comparators, predicates) live at module level, not as
// closures made per call: V8 holds a closure's optimized code only weakly, so the layout code,
// which runs once per document after pdf.js has run for a while, was compiled again after nearly
// every major GC (about ten compilations per document on the parse workers' helper threads).
const ascending = (a: number, b: number) => a - b;
const descending = (a: number, b: number) => b - a;
const sizeOf = (x: { size: number }) => x.size;

const median = (xs: number[]) => {
  const s = [...xs].sort(ascending);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
};

/** Joins two pieces of text the way a reader expects: no space between Chinese characters. */
function joinText(a: string, b: string, sep = ' '): string {
  if (!a) return b;
  if (!b) return a;
  const last = a[a.length - 1]!;
  const first = b[0]!;
  if (HAN.test(last) || HAN.test(first)) return a + b;
  if (sep === '\n' && last === '-' && /[a-z]/.test(first)) return a.slice(0, -1) + b;
  return a + ' ' + b;
}

/** Collapses spaces, and drops spaces pdf.js put between two Chinese characters. */
function tidy(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/(\p{Script=Han}) (?=\p{Script=Han})/gu, '$1')
    .trim();
}

function segmentText(runs: Run[]): string {
  let out = '';
  let prevEnd = -Infinity;
  for (const r of runs) {
    const gap = r.x - prevEnd;
    if (out && gap > r.size * 0.18 && !out.endsWith(' ') && !r.text.startsWith(' ')) out = joinText(out, r.text);
    else out += r.text;
    prevEnd = Math.max(prevEnd, r.x + r.width);
  }
  return tidy(out);
}

const isVisible = (r: Run) => r.size > 0.5 && r.text.trim() !== '';
const topDownThenLeft = (a: Run, b: Run) => b.y - a.y || a.x - b.x;
const leftToRight = (a: Run, b: Run) => a.x - b.x;
const hasText = (s: Segment) => s.text !== '';

/** Groups runs on the same baseline into lines, and splits lines at wide gaps into segments. */
export function buildLines(runs: Run[]): Line[] {
  const visible = runs.filter(isVisible);
  visible.sort(topDownThenLeft);
  const groups: Run[][] = [];
  for (const r of visible) {
    const g = groups[groups.length - 1];
    const ref = g?.[0];
    // Superscripts and subscripts sit a little off the baseline: tolerate about half a line.
    if (g && ref && Math.abs(ref.y - r.y) <= Math.max(ref.size, r.size) * 0.45) g.push(r);
    else groups.push([r]);
  }
  const lines: Line[] = [];
  for (const g of groups) {
    const line = lineOf(g);
    if (line.segments.length) lines.push(line);
  }
  return lines;
}

/** One line from the runs of one baseline: on the baseline of its largest run, cut at wide gaps. */
function lineOf(g: Run[]): Line {
  g.sort(leftToRight);
  const size = median(g.map(sizeOf));
  let base = g[0]!;
  for (const r of g) if (r.size >= base.size) base = r;
  const segments: Segment[] = [];
  let cur: Run[] = [];
  let end = -Infinity;
  for (const r of g) {
    if (cur.length && r.x - end > Math.max(size, r.size) * 1.4) {
      segments.push(makeSegment(cur, base.y));
      cur = [];
    }
    cur.push(r);
    end = Math.max(end, r.x + r.width);
  }
  if (cur.length) segments.push(makeSegment(cur, base.y));
  return { y: base.y, size, segments: segments.filter(hasText) };
}

function makeSegment(runs: Run[], y: number): Segment {
  let x0 = Infinity;
  let x1 = -Infinity;
  for (const r of runs) {
    x0 = Math.min(x0, r.x);
    x1 = Math.max(x1, r.x + r.width);
  }
  return { runs, x0, x1, y, size: median(runs.map(sizeOf)), text: segmentText(runs) };
}

/** A stretch of the page read top to bottom: a column, or the full width. */
type Stream = Line[];

/**
 * Reading order. On a two-column page (many lines with a wide segment on each side of the
 * middle) the page is cut at full-width lines; between cuts the left column is read before the
 * right one.
 */
export function readingOrder(lines: Line[], pageWidth: number, x0 = 0): Stream[] {
  const mid = x0 + pageWidth / 2;
  const colWidth = pageWidth * 0.22;
  // Columns are judged segment by segment: the baselines of two columns rarely line up.
  let leftWide = 0;
  let rightWide = 0;
  let spanning = 0;
  for (const l of lines) {
    for (const s of l.segments) {
      const side = sideOf(s, mid);
      if (side === 'span') spanning++;
      else if (s.x1 - s.x0 > colWidth) {
        if (side === 'left') leftWide++;
        else rightWide++;
      }
    }
  }
  const twoColumns = lines.length >= 6 && leftWide >= 3 && rightWide >= 3 && leftWide + rightWide >= Math.max(6, spanning * 1.5);
  if (!twoColumns) return [lines];

  const streams: Stream[] = [];
  let left: Line[] = [];
  let right: Line[] = [];
  const spanStreams = new Set<Stream>();
  for (const raw of lines) {
    const segments: Segment[] = [];
    for (const s of raw.segments) segments.push(...splitAtGutter(s, mid));
    const line = { ...raw, segments };
    if (spansMiddle(segments, mid)) {
      // Full-width lines in a row form one stream, so their paragraph stays whole.
      const last = streams[streams.length - 1];
      if (!left.length && !right.length && last && spanStreams.has(last)) last.push(line);
      else {
        pushColumns(streams, left, right);
        left = [];
        right = [];
        const stream = [line];
        spanStreams.add(stream);
        streams.push(stream);
      }
      continue;
    }
    const l: Segment[] = [];
    const r: Segment[] = [];
    for (const s of segments) (sideOf(s, mid) === 'left' ? l : r).push(s);
    if (l.length) left.push({ ...line, segments: l });
    if (r.length) right.push({ ...line, segments: r });
  }
  pushColumns(streams, left, right);
  return streams;
}

type Side = 'left' | 'right' | 'span';
const sideOf = (s: Segment, mid: number): Side => (s.x1 <= mid + 2 ? 'left' : s.x0 >= mid - 2 ? 'right' : 'span');

function spansMiddle(segments: Segment[], mid: number): boolean {
  for (const s of segments) if (sideOf(s, mid) === 'span') return true;
  return false;
}

/** Ends a stretch of two columns: the left column is read before the right one. */
function pushColumns(streams: Stream[], left: Line[], right: Line[]) {
  if (left.length) streams.push(left);
  if (right.length) streams.push(right);
}

/**
 * A segment that crosses the middle only because the gutter gap is narrow (dot leaders, tight
 * columns) is cut at the gap that contains the middle.
 */
function splitAtGutter(s: Segment, mid: number): Segment[] {
  if (sideOf(s, mid) !== 'span') return [s];
  for (let k = 0; k + 1 < s.runs.length; k++) {
    const a = s.runs[k]!;
    const b = s.runs[k + 1]!;
    // Wider than a word space, so a full-width line of prose is never cut.
    if (a.x + a.width <= mid + 2 && b.x >= mid - 2 && b.x - (a.x + a.width) > Math.max(a.size, b.size) * 0.8) {
      return [makeSegment(s.runs.slice(0, k + 1), s.y), makeSegment(s.runs.slice(k + 1), s.y)].filter(hasText);
    }
  }
  return [s];
}

function unionBox(boxes: Box[]): Box {
  const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    box[0] = Math.min(box[0], b[0]);
    box[1] = Math.min(box[1], b[1]);
    box[2] = Math.max(box[2], b[2]);
    box[3] = Math.max(box[3], b[3]);
  }
  return box;
}
const segBox = (s: Segment): Box => [s.x0, s.y - s.size * 0.25, s.x1, s.y + s.size * 0.85];
const lineBox = (l: Line): Box => unionBox(l.segments.map(segBox));
const textOf = (s: { text: string }) => s.text;
const lineText = (l: Line) => l.segments.map(textOf).join(' ');

type Column = [number, number];
const byStart = (a: Column, b: Column) => a[0] - b[0];

/** The index of the column a segment falls in, or -1. */
function columnOf(cols: Column[], s: Segment): number {
  for (let k = 0; k < cols.length; k++) {
    const [a, b] = cols[k]!;
    if (s.x0 >= a - 1 && s.x1 <= b + 1) return k;
  }
  return -1;
}

/** Column intervals shared by the rows of a would-be table, or null when rows do not align. */
function tableColumns(rows: Line[]): Column[] | null {
  const intervals: Column[] = [];
  for (const r of rows) for (const s of r.segments) intervals.push([s.x0, s.x1]);
  intervals.sort(byStart);
  const cols: Column[] = [];
  for (const [a, b] of intervals) {
    const last = cols[cols.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else cols.push([a, b]);
  }
  if (cols.length < 2) return null;
  // Every row's segments must fall in distinct columns.
  for (const r of rows) {
    const used = new Set<number>();
    for (const s of r.segments) {
      const k = columnOf(cols, s);
      if (k === -1 || used.has(k)) return null;
      used.add(k);
    }
  }
  return cols;
}

/** A table row's cell texts, one per column. */
function tableRow(r: Line, cols: Column[]): string[] {
  const row = new Array<string>(cols.length).fill('');
  for (const s of r.segments) {
    const k = columnOf(cols, s);
    row[k] = joinText(row[k]!, s.text);
  }
  return row;
}
const joinCells = (row: string[]) => row.join(' | ');

/** Splits a stream into paragraphs, list items and tables. */
function blocksOf(stream: Stream, page: number): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < stream.length) {
    const line = stream[i]!;
    // A table: at least two consecutive multi-segment lines whose segments align in columns.
    if (line.segments.length >= 2) {
      let j = i;
      while (j < stream.length && stream[j]!.segments.length >= 2 && (j === i || stream[j - 1]!.y - stream[j]!.y < stream[j]!.size * 3.2)) j++;
      const rows = stream.slice(i, j);
      const cols = rows.length >= 2 ? tableColumns(rows) : null;
      if (cols) {
        const cells: string[][] = [];
        for (const r of rows) cells.push(tableRow(r, cols));
        blocks.push({ kind: 'table', page, bbox: unionBox(rows.map(lineBox)), text: cells.map(joinCells).join('\n'), rows: cells, columns: cols.map(([a, b]) => [a, b] as [number, number]), size: median(rows.map(sizeOf)) });
        i = j;
        continue;
      }
    }
    // A paragraph or list item: following lines of the same size, close below, not starting a new item.
    const text0 = lineText(line);
    const isList = LIST_MARK.test(text0);
    const members = [line];
    let j = i + 1;
    while (j < stream.length) {
      const prev = stream[j - 1]!;
      const next = stream[j]!;
      const gap = prev.y - next.y;
      if (next.segments.length >= 2 && (stream[j + 1]?.segments.length ?? 0) >= 2) break;
      if (Math.abs(next.size - line.size) > line.size * 0.12) break;
      if (gap <= 0 || gap > line.size * 1.75) break;
      if (LIST_MARK.test(lineText(next))) break;
      members.push(next);
      j++;
    }
    let text = '';
    for (const l of members) text = joinText(text, lineText(l), '\n');
    blocks.push({ kind: isList ? 'list' : 'paragraph', page, bbox: unionBox(members.map(lineBox)), text, size: line.size });
    i = j;
  }
  return blocks;
}

const isMarginal = (l: Line, p: PageText) => {
  const y = l.y - (p.y0 ?? 0);
  return y > p.height * 0.9 || y < p.height * 0.1;
};

/** Running heads sit at the very edge of the page; a numbered heading a little lower ("1 Introduction") stays. */
const atEdge = (l: Line, p: PageText) => {
  const y = l.y - (p.y0 ?? 0);
  return y > p.height * 0.92 || y < p.height * 0.08;
};
/** The numbers a short line starts and ends with ("§3.9浮动体 35", "36 第3章 排版", "1 Introduction 3"). */
function edgeNumbers(text: string): number[] {
  if (text.length >= 80) return [];
  const numbers: number[] = [];
  const first = /^(\d{1,4})\s/.exec(text);
  const last = /\s(\d{1,4})$/.exec(text);
  if (first) numbers.push(Number(first[1]));
  if (last) numbers.push(Number(last[1]));
  return numbers;
}
/** Pages that must share one printed numbering before it is trusted. */
const NUMBERING_PAGES = 3;

/**
 * The difference between the pages' indices and their printed numbers, from the numbers that
 * lines at the page edge carry: the difference most pages agree on (front matter shifts it —
 * lshort-zh-cn's page 47 is printed 35), or 0 when no difference holds on enough pages.
 */
function printedNumbering(pages: Array<{ page: PageText; lines: Line[] }>): number {
  const pagesBy = new Map<number, Set<number>>();
  for (const { page, lines } of pages) {
    for (const l of lines) {
      if (!atEdge(l, page)) continue;
      for (const n of edgeNumbers(lineText(l))) {
        const offset = page.page - n;
        pagesBy.set(offset, (pagesBy.get(offset) ?? new Set()).add(page.page));
      }
    }
  }
  const [offset, on] = [...pagesBy.entries()].sort(mostPagesThenSmallest)[0] ?? [0, new Set()];
  return on.size >= NUMBERING_PAGES ? offset : 0;
}
const mostPagesThenSmallest = (a: [number, Set<number>], b: [number, Set<number>]) => b[1].size - a[1].size || Math.abs(a[0]) - Math.abs(b[0]);

/**
 * Lines repeated at the same place on many pages (running heads, page numbers) are dropped, and
 * so are lines at the page edge carrying the page's number: a running head naming the section,
 * which changes too often to repeat ("§3.9浮动体 35"), with the page's printed number.
 */
function furniture(pages: Array<{ page: PageText; lines: Line[] }>): Furniture {
  const seen = new Map<string, number>();
  for (const { page, lines } of pages) {
    const keys = new Set<string>();
    for (const l of lines) if (isMarginal(l, page)) keys.add(furnitureKey(l));
    for (const k of keys) seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  return { seen, offset: printedNumbering(pages) };
}

interface Furniture {
  /** On how many pages each marginal line (by furnitureKey) appears. */
  seen: Map<string, number>;
  /** Page index minus printed page number (printedNumbering). */
  offset: number;
}
/** A marginal line repeated on this many pages is furniture. */
const REPEATED_ON = 3;
const furnitureKey = (l: Line) => `${Math.round(l.y / 4)}|${lineText(l).replace(/\d+/g, '#')}`;

/** Whether a line of the page is content (not a running head, a repeated line or a page number). */
function isContent(l: Line, page: PageText, { seen, offset }: Furniture): boolean {
  if (!isMarginal(l, page)) return true;
  if ((seen.get(furnitureKey(l)) ?? 0) >= REPEATED_ON) return false;
  const text = lineText(l);
  // A lone page number.
  if (/^[-–—\s]*\d{1,4}[-–—\s]*$/.test(text)) return false;
  if (!atEdge(l, page)) return true;
  for (const n of edgeNumbers(text)) if (n === page.page || n === page.page - offset) return false;
  return true;
}

/** Font sizes of headings, largest first, from the body size of the whole document. */
function headingSizes(blocks: Block[]): HeadingSizes {
  // Body size: the size covering the most page width (a Chinese character weighs more than a letter).
  const weight = new Map<number, number>();
  for (const b of blocks) {
    const s = Math.round(b.size * 2) / 2;
    weight.set(s, (weight.get(s) ?? 0) + (b.bbox[2] - b.bbox[0]) * Math.max(1, Math.round((b.bbox[3] - b.bbox[1]) / (b.size * 1.2))));
  }
  const body = [...weight.entries()].sort(heaviest)[0]?.[0] ?? 10;
  const sizes = new Set<number>();
  for (const b of blocks) if (isHeadingSize(b, body)) sizes.add(Math.round(b.size * 2) / 2);
  return { body, sizes: [...sizes].sort(descending) };
}

interface HeadingSizes {
  /** The body text's font size. */
  body: number;
  /** Heading font sizes (to half a point), largest first. */
  sizes: number[];
}
const heaviest = (a: [number, number], b: [number, number]) => b[1] - a[1];
const isHeadingSize = (b: Block, body: number) => b.kind !== 'table' && b.size >= body * 1.12 && b.text.length <= 120 && !/[。；;]$/.test(b.text);

/** A block's heading level 1–4 by its font size, or undefined when it is not a heading. */
function headingLevel(b: Block, { body, sizes }: HeadingSizes): number | undefined {
  if (!isHeadingSize(b, body)) return undefined;
  const i = sizes.indexOf(Math.round(b.size * 2) / 2);
  return Math.min(4, i + 1);
}

/** Structured blocks of a whole document, in reading order. */
export function layoutDocument(pages: PageText[]): Block[] {
  const withLines: Array<{ page: PageText; lines: Line[] }> = [];
  for (const page of pages) withLines.push({ page, lines: buildLines(page.runs) });
  const marginal = furniture(withLines);
  const blocks: Block[] = [];
  for (const { page, lines } of withLines) {
    const content: Line[] = [];
    for (const l of lines) if (isContent(l, page, marginal)) content.push(l);
    for (const stream of readingOrder(content, page.width, page.x0)) blocks.push(...blocksOf(stream, page.page));
  }
  const headings = headingSizes(blocks);
  for (const b of blocks) {
    const level = headingLevel(b, headings);
    if (level) {
      b.kind = 'heading';
      b.level = level;
    }
  }
  return blocks;
}

const escapeCell = (s: string) => s.replace(/\|/g, '\\|');
/** A markdown table row of `width` cells. */
function tableLine(r: string[], width: number): string {
  const cells: string[] = [];
  for (let k = 0; k < width; k++) cells.push(escapeCell(r[k] ?? ''));
  return `| ${cells.join(' | ')} |`;
}

/** Markdown of the blocks, with a page marker comment where each page starts. */
export function toMarkdown(blocks: Block[]): string {
  const out: string[] = [];
  let page = 0;
  for (const b of blocks) {
    if (b.page !== page) {
      page = b.page;
      out.push(`<!-- page ${page} -->`);
    }
    switch (b.kind) {
      case 'heading':
        out.push(`${'#'.repeat(b.level ?? 1)} ${b.text}`);
        break;
      case 'list':
        if (/^[•·●○◦▪■□◆◇▶►‣⁃–—*-]/u.test(b.text)) out.push(`- ${b.text.replace(/^[•·●○◦▪■□◆◇▶►‣⁃–—*-]\s*/u, '')}`);
        else if (/^\d{1,2}[.)]\s/.test(b.text)) out.push(b.text); // already a markdown ordered item
        else out.push(`- ${b.text}`);
        break;
      case 'table': {
        const rows = b.rows ?? [];
        let width = -Infinity;
        for (const r of rows) width = Math.max(width, r.length);
        const lines = [tableLine(rows[0] ?? [], width), `| ${new Array<string>(Math.max(0, width)).fill('---').join(' | ')} |`];
        for (const r of rows.slice(1)) lines.push(tableLine(r, width));
        out.push(lines.join('\n'));
        break;
      }
      default:
        out.push(b.text);
    }
  }
  return out.join('\n\n') + '\n';
}
