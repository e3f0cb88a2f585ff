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

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
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

/** Groups runs on the same baseline into lines, and splits lines at wide gaps into segments. */
export function buildLines(runs: Run[]): Line[] {
  const visible = runs.filter((r) => r.text.trim() && r.size > 0.5);
  visible.sort((a, b) => b.y - a.y || a.x - b.x);
  const groups: Run[][] = [];
  for (const r of visible) {
    const g = groups[groups.length - 1];
    const ref = g?.[0];
    // Superscripts and subscripts sit a little off the baseline: tolerate about half a line.
    if (g && ref && Math.abs(ref.y - r.y) <= Math.max(ref.size, r.size) * 0.45) g.push(r);
    else groups.push([r]);
  }
  return groups.map((g) => {
    g.sort((a, b) => a.x - b.x);
    const size = median(g.map((r) => r.size));
    const base = g.reduce((best, r) => (r.size >= best.size ? r : best), g[0]!);
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
    return { y: base.y, size, segments: segments.filter((s) => s.text) };
  }).filter((l) => l.segments.length);
}

function makeSegment(runs: Run[], y: number): Segment {
  return {
    runs,
    x0: Math.min(...runs.map((r) => r.x)),
    x1: Math.max(...runs.map((r) => r.x + r.width)),
    y,
    size: median(runs.map((r) => r.size)),
    text: segmentText(runs),
  };
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
  const side = (s: Segment) => (s.x1 <= mid + 2 ? 'left' : s.x0 >= mid - 2 ? 'right' : 'span');
  // Columns are judged segment by segment: the baselines of two columns rarely line up.
  const segments = lines.flatMap((l) => l.segments);
  const wide = (sd: string) => segments.filter((s) => side(s) === sd && s.x1 - s.x0 > colWidth).length;
  const [leftWide, rightWide] = [wide('left'), wide('right')];
  const spanning = segments.filter((s) => side(s) === 'span').length;
  const twoColumns = lines.length >= 6 && leftWide >= 3 && rightWide >= 3 && leftWide + rightWide >= Math.max(6, spanning * 1.5);
  if (!twoColumns) return [lines];

  const streams: Stream[] = [];
  let left: Line[] = [];
  let right: Line[] = [];
  const spanStreams = new Set<Stream>();
  const flush = () => {
    if (left.length) streams.push(left);
    if (right.length) streams.push(right);
    left = [];
    right = [];
  };
  // A segment that crosses the middle only because the gutter gap is narrow (dot leaders,
  // tight columns) is cut at the gap that contains the middle.
  const splitAtGutter = (s: Segment): Segment[] => {
    if (side(s) !== 'span') return [s];
    for (let k = 0; k + 1 < s.runs.length; k++) {
      const a = s.runs[k]!;
      const b = s.runs[k + 1]!;
      // Wider than a word space, so a full-width line of prose is never cut.
      if (a.x + a.width <= mid + 2 && b.x >= mid - 2 && b.x - (a.x + a.width) > Math.max(a.size, b.size) * 0.8) {
        return [makeSegment(s.runs.slice(0, k + 1), s.y), makeSegment(s.runs.slice(k + 1), s.y)].filter((x) => x.text);
      }
    }
    return [s];
  };
  for (const raw of lines) {
    const line = { ...raw, segments: raw.segments.flatMap(splitAtGutter) };
    if (line.segments.some((s) => side(s) === 'span')) {
      // Full-width lines in a row form one stream, so their paragraph stays whole.
      const last = streams[streams.length - 1];
      if (!left.length && !right.length && last && spanStreams.has(last)) last.push(line);
      else {
        flush();
        const stream = [line];
        spanStreams.add(stream);
        streams.push(stream);
      }
      continue;
    }
    const l = line.segments.filter((s) => side(s) === 'left');
    const r = line.segments.filter((s) => side(s) === 'right');
    if (l.length) left.push({ ...line, segments: l });
    if (r.length) right.push({ ...line, segments: r });
  }
  flush();
  return streams;
}

const unionBox = (boxes: Box[]): Box => [
  Math.min(...boxes.map((b) => b[0])),
  Math.min(...boxes.map((b) => b[1])),
  Math.max(...boxes.map((b) => b[2])),
  Math.max(...boxes.map((b) => b[3])),
];
const segBox = (s: Segment): Box => [s.x0, s.y - s.size * 0.25, s.x1, s.y + s.size * 0.85];
const lineBox = (l: Line): Box => unionBox(l.segments.map(segBox));
const lineText = (l: Line) => l.segments.map((s) => s.text).join(' ');

/** Column intervals shared by the rows of a would-be table, or null when rows do not align. */
function tableColumns(rows: Line[]): Array<[number, number]> | null {
  const intervals = rows.flatMap((r) => r.segments.map((s): [number, number] => [s.x0, s.x1])).sort((a, b) => a[0] - b[0]);
  const cols: Array<[number, number]> = [];
  for (const [a, b] of intervals) {
    const last = cols[cols.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else cols.push([a, b]);
  }
  if (cols.length < 2) return null;
  // Every row's segments must fall in distinct columns.
  for (const r of rows) {
    const used = r.segments.map((s) => cols.findIndex(([a, b]) => s.x0 >= a - 1 && s.x1 <= b + 1));
    if (used.includes(-1) || new Set(used).size !== used.length) return null;
  }
  return cols;
}

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
        const cells = rows.map((r) => {
          const row = cols.map(() => '');
          for (const s of r.segments) {
            const k = cols.findIndex(([a, b]) => s.x0 >= a - 1 && s.x1 <= b + 1);
            row[k] = joinText(row[k]!, s.text);
          }
          return row;
        });
        blocks.push({ kind: 'table', page, bbox: unionBox(rows.map(lineBox)), text: cells.map((r) => r.join(' | ')).join('\n'), rows: cells, size: median(rows.map((r) => r.size)) });
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
    const text = members.reduce((acc, l) => joinText(acc, lineText(l), '\n'), '');
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
  const first = /^(\d{1,4})\s/.exec(text);
  const last = /\s(\d{1,4})$/.exec(text);
  return [first?.[1], last?.[1]].filter((n) => n !== undefined).map(Number);
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
  const [offset, on] = [...pagesBy.entries()].sort((a, b) => b[1].size - a[1].size || Math.abs(a[0]) - Math.abs(b[0]))[0] ?? [0, new Set()];
  return on.size >= NUMBERING_PAGES ? offset : 0;
}

/**
 * Lines repeated at the same place on many pages (running heads, page numbers) are dropped, and
 * so are lines at the page edge carrying the page's number: a running head naming the section,
 * which changes too often to repeat ("§3.9浮动体 35"), with the page's printed number.
 */
function furnitureFilter(pages: Array<{ page: PageText; lines: Line[] }>) {
  const key = (l: Line) => `${Math.round(l.y / 4)}|${lineText(l).replace(/\d+/g, '#')}`;
  const seen = new Map<string, number>();
  for (const { page, lines } of pages) {
    const keys = new Set(lines.filter((l) => isMarginal(l, page)).map((l) => key(l)));
    for (const k of keys) seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  const threshold = 3;
  const offset = printedNumbering(pages);
  return (l: Line, page: PageText) => {
    if (!isMarginal(l, page)) return true;
    if ((seen.get(key(l)) ?? 0) >= threshold) return false;
    const text = lineText(l);
    // A lone page number.
    if (/^[-–—\s]*\d{1,4}[-–—\s]*$/.test(text)) return false;
    if (!atEdge(l, page)) return true;
    return !edgeNumbers(text).some((n) => n === page.page || n === page.page - offset);
  };
}

/** Font sizes of headings, largest first, from the body size of the whole document. */
function headingLevels(blocks: Block[]): (b: Block) => number | undefined {
  // Body size: the size covering the most page width (a Chinese character weighs more than a letter).
  const weight = new Map<number, number>();
  for (const b of blocks) {
    const s = Math.round(b.size * 2) / 2;
    weight.set(s, (weight.get(s) ?? 0) + (b.bbox[2] - b.bbox[0]) * Math.max(1, Math.round((b.bbox[3] - b.bbox[1]) / (b.size * 1.2))));
  }
  const body = [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
  const isHeadingSize = (b: Block) => b.kind !== 'table' && b.size >= body * 1.12 && b.text.length <= 120 && !/[。；;]$/.test(b.text);
  const sizes = [...new Set(blocks.filter(isHeadingSize).map((b) => Math.round(b.size * 2) / 2))].sort((a, b) => b - a);
  return (b: Block) => {
    if (!isHeadingSize(b)) return undefined;
    const i = sizes.indexOf(Math.round(b.size * 2) / 2);
    return Math.min(4, i + 1);
  };
}

/** Structured blocks of a whole document, in reading order. */
export function layoutDocument(pages: PageText[]): Block[] {
  const withLines = pages.map((page) => ({ page, lines: buildLines(page.runs) }));
  const keep = furnitureFilter(withLines);
  const blocks: Block[] = [];
  for (const { page, lines } of withLines) {
    const content = lines.filter((l) => keep(l, page));
    for (const stream of readingOrder(content, page.width, page.x0)) blocks.push(...blocksOf(stream, page.page));
  }
  const levelOf = headingLevels(blocks);
  for (const b of blocks) {
    const level = levelOf(b);
    if (level) {
      b.kind = 'heading';
      b.level = level;
    }
  }
  return blocks;
}

const escapeCell = (s: string) => s.replace(/\|/g, '\\|');

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
        const width = Math.max(...rows.map((r) => r.length));
        const line = (r: string[]) => `| ${Array.from({ length: width }, (_, k) => escapeCell(r[k] ?? '')).join(' | ')} |`;
        out.push([line(rows[0] ?? []), `| ${Array.from({ length: width }, () => '---').join(' | ')} |`, ...rows.slice(1).map(line)].join('\n'));
        break;
      }
      default:
        out.push(b.text);
    }
  }
  return out.join('\n\n') + '\n';
}
