import { segmentForIndex } from '../text/segment';
import type { Block, Box } from './pdf-layout';
import type { ParsedChunk } from './protocol';

/** Target passage length in characters: long enough for context, short enough to cite. */
const TARGET = 700;

/** Whether two boxes share most of their width: a passage's box must not span two columns. */
const sameColumn = (a: Box, b: Box) => {
  const overlap = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  return overlap >= 0.5 * Math.min(a[2] - a[0], b[2] - b[0]);
};

const union = (a: Box, b: Box): Box => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];

/** A passage with fewer meaningful characters than this is merged into a neighbour or left out of the index. */
export const MIN_MEANINGFUL = 20;
const HAN_CHAR = /\p{Script=Han}/u;
const LETTER_RUN = /\p{L}{2}/u;

/**
 * The meaningful characters of a passage: letters and digits, a Han character counting twice (it
 * carries about a word), or 0 when no two letters stand together ("7.", "vii" has three, "\\[").
 */
export function meaningfulLength(text: string): number {
  if (!LETTER_RUN.test(text)) return 0;
  let n = 0;
  for (const c of text) if (/[\p{L}\p{N}]/u.test(c)) n += HAN_CHAR.test(c) ? 2 : 1;
  return n;
}

/**
 * Passages too small to stand alone (a list number, a page number, a lone heading or a block
 * split off by the column rule): BM25's length normalisation ranks such a passage high on any weak
 * match, and its text says nothing when cited. Each is merged into a neighbour on the same page
 * whose box shares its column (so the union stays on one column): a heading-like line or a list
 * number into the passage after it, anything else (a page number, a stray symbol) into the one
 * before it, the other one when that does not fit; one that cannot merge is left out of the index
 * (the markdown keeps it).
 */
function mergeTiny(chunks: ParsedChunk[]): ParsedChunk[] {
  const fits = (a: ParsedChunk, b: ParsedChunk) => a.page === b.page && (!a.bbox || !b.bbox ? !a.bbox && !b.bbox : sameColumn(a.bbox, b.bbox));
  const join = (first: ParsedChunk, second: ParsedChunk): ParsedChunk => {
    const text = `${first.text}\n${second.text}`;
    return { page: first.page, bbox: first.bbox && second.bbox ? union(first.bbox, second.bbox) : null, text, segmented: segmentForIndex(text) };
  };
  const out: ParsedChunk[] = [];
  // Merged into the passage before it, or left out when that is impossible.
  const backwards = (c: ParsedChunk) => {
    const prev = out[out.length - 1];
    if (prev && fits(prev, c)) out[out.length - 1] = join(prev, c);
  };
  let pending: ParsedChunk | null = null; // a tiny passage waiting for the one after it
  for (const c of chunks) {
    let cur = c;
    if (pending) {
      if (fits(pending, cur)) cur = join(pending, cur);
      else backwards(pending);
      pending = null;
    }
    if (meaningfulLength(cur.text) >= MIN_MEANINGFUL) out.push(cur);
    else if (headingLike(cur.text) || LIST_MARK.test(cur.text)) pending = cur;
    else {
      const prev = out[out.length - 1];
      if (prev && fits(prev, cur)) out[out.length - 1] = join(prev, cur);
      else pending = cur;
    }
  }
  if (pending) backwards(pending);
  // A document whose only text is short (an image with one label) still gets its passage.
  return out.length || !chunks.length ? out : chunks;
}

/** A lone list or section number ("7.", "iv)", "(3)", "B."): it belongs to the text after it. */
const LIST_MARK = /^\s*[(（]?(?:\d{1,3}|[ivxlc]{1,6}|[A-Za-z])[.)）、]\s*$/i;

/** One short line with words and no closing punctuation ("3.1 章节和目录", "Test title") introduces what follows. */
const headingLike = (text: string) => !text.trim().includes('\n') && LETTER_RUN.test(text) && !/[.。:：;；,，!！?？]$/.test(text.trim());

/**
 * Passages for the index: consecutive blocks of one page up to about TARGET characters, each
 * with the union of their boxes. A heading starts a passage and is kept in front of its text.
 */
export function chunkBlocks(blocks: Block[]): ParsedChunk[] {
  const out: ParsedChunk[] = [];
  type Passage = { page: number; bbox: Box; parts: string[]; len: number; heading: boolean };
  let cur: Passage | null = null;
  const flush = () => {
    if (cur && cur.parts.join('').trim()) {
      const text = cur.parts.join('\n');
      out.push({ page: cur.page, bbox: cur.bbox, text, segmented: segmentForIndex(text) });
    }
    cur = null;
  };
  for (const b of blocks) {
    const text = b.text;
    if (!cur || cur.page !== b.page || b.kind === 'heading' || cur.len + text.length > TARGET || !sameColumn(cur.bbox, b.bbox)) {
      // A heading followed by nothing yet stays with what comes next.
      const carry: Passage | null = cur;
      if (carry && carry.heading && carry.parts.length === 1 && carry.page === b.page && carry.len < 120 && b.kind !== 'heading') {
        carry.parts.push(text);
        carry.len += text.length;
        carry.bbox = union(carry.bbox, b.bbox);
        continue;
      }
      flush();
      cur = { page: b.page, bbox: b.bbox, parts: [text], len: text.length, heading: b.kind === 'heading' };
      continue;
    }
    cur.parts.push(text);
    cur.len += text.length;
    cur.bbox = union(cur.bbox, b.bbox);
  }
  flush();
  // Very long single blocks (a huge table) are split so no passage gets unwieldy.
  return mergeTiny(out).flatMap((c) => (c.text.length <= TARGET * 3 ? [c] : splitLong(c)));
}

function splitLong(c: ParsedChunk): ParsedChunk[] {
  const pieces: ParsedChunk[] = [];
  const lines = c.text.split('\n');
  let buf = '';
  for (const line of lines) {
    if (buf && buf.length + line.length > TARGET * 2) {
      pieces.push({ ...c, text: buf, segmented: segmentForIndex(buf) });
      buf = '';
    }
    buf = buf ? `${buf}\n${line}` : line;
  }
  if (buf) pieces.push({ ...c, text: buf, segmented: segmentForIndex(buf) });
  return pieces;
}

/** Passages of plain text without pages (OCR, molecules, structures): split at blank lines. */
export function chunkText(text: string, page: number | null = null): ParsedChunk[] {
  const out: ParsedChunk[] = [];
  let buf = '';
  for (const para of text.split(/\n\s*\n/)) {
    const p = para.trim();
    if (!p) continue;
    if (buf && buf.length + p.length > TARGET) {
      out.push({ page, bbox: null, text: buf, segmented: segmentForIndex(buf) });
      buf = '';
    }
    buf = buf ? `${buf}\n${p}` : p;
  }
  if (buf) out.push({ page, bbox: null, text: buf, segmented: segmentForIndex(buf) });
  return mergeTiny(out);
}

/**
 * The index words of a document's title (its file name): the extension dropped and '.', '_', '-'
 * read as spaces, so "cdk2.sdf" gives "cdk2" and "lshort-zh-cn.pdf" gives "lshort zh cn".
 */
export function titleWords(title: string): string {
  const name = title.normalize('NFKC').replace(/\.[A-Za-z0-9]{1,5}$/, '');
  return segmentForIndex(name.replace(/[._\-]+/g, ' '));
}

/**
 * The title's words added to the index words of the document's first passage, so a question
 * naming the file ("cdk2") finds the document; the passage's text (what is cited) is unchanged.
 */
export function withTitle(chunks: ParsedChunk[], title: string): ParsedChunk[] {
  const words = titleWords(title);
  if (!words || !chunks.length) return chunks;
  const [first, ...rest] = chunks;
  return [{ ...first!, segmented: `${words} ${first!.segmented}`.trim() }, ...rest];
}
