import { segmentForIndex } from '../text/segment';
import type { Block, Box } from './pdf-layout';
import { navigationKinds, type PassageKind } from './navigation';
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
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * The meaningful characters of a passage: letters and digits, a Han character counting twice (it
 * carries about a word), or 0 when no two letters stand together ("7.", "vii" has three, "\\[").
 */
export function meaningfulLength(text: string): number {
  if (!LETTER_RUN.test(text)) return 0;
  let n = 0;
  for (const c of text) if (LETTER_OR_DIGIT.test(c)) n += HAN_CHAR.test(c) ? 2 : 1;
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
  const out: ParsedChunk[] = [];
  let pending: ParsedChunk | null = null; // a tiny passage waiting for the one after it
  for (const c of chunks) {
    let cur = c;
    if (pending) {
      if (fits(pending, cur)) cur = join(pending, cur);
      else mergeBackwards(out, pending);
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
  if (pending) mergeBackwards(out, pending);
  // A document whose only text is short (an image with one label) still gets its passage.
  return out.length || !chunks.length ? out : chunks;
}

/** Whether two passages can become one: same page, same kind, same column. */
const fits = (a: ParsedChunk, b: ParsedChunk) => a.page === b.page && (a.kind ?? 'content') === (b.kind ?? 'content') && (!a.bbox || !b.bbox ? !a.bbox && !b.bbox : sameColumn(a.bbox, b.bbox));

function join(first: ParsedChunk, second: ParsedChunk): ParsedChunk {
  const text = `${first.text}\n${second.text}`;
  return { page: first.page, bbox: first.bbox && second.bbox ? union(first.bbox, second.bbox) : null, text, segmented: segmentForIndex(text), ...(first.kind ? { kind: first.kind } : {}) };
}

/** A tiny passage merged into the passage before it, or left out when that is impossible. */
function mergeBackwards(out: ParsedChunk[], c: ParsedChunk) {
  const prev = out[out.length - 1];
  if (prev && fits(prev, c)) out[out.length - 1] = join(prev, c);
}

/** A lone list or section number ("7.", "iv)", "(3)", "B."): it belongs to the text after it. */
const LIST_MARK = /^\s*[(（]?(?:\d{1,3}|[ivxlc]{1,6}|[A-Za-z])[.)）、]\s*$/i;

/** One short line with words and no closing punctuation ("3.1 章节和目录", "Test title") introduces what follows. */
const headingLike = (text: string) => !text.trim().includes('\n') && LETTER_RUN.test(text) && !/[.。:：;；,，!！?？]$/.test(text.trim());

/** A numbered question opening a FAQ entry ("17 CTEX中文套装…有什么区别？", "Q3. How do I …?"): it starts a passage like a heading. */
const QUESTION_START = /^\s*(?:Q\s?)?\d{1,3}[.、．)）:：]?\s?[^\n。？?]{2,90}[？?]/u;
/** A table or figure caption ("表 3.1 …", "Table 2: …", "图1 …"). */
const CAPTION = /^\s*(?:表|图|Table|Tab\.|Figure|Fig\.)\s?[\dA-Z][\d.\-–]*[\s:：.]/u;

/** Whether a block starts a new unit of meaning: a heading, or a FAQ question. */
const startsSection = (b: Block, kind: PassageKind) => kind === 'content' && (b.kind === 'heading' || (b.kind !== 'table' && QUESTION_START.test(b.text)));

/**
 * Passages for the index: consecutive blocks of one page up to about TARGET characters, each
 * with the union of their boxes and the kind of its blocks (navigation never shares a passage
 * with content; see navigation.ts). A heading or a FAQ question starts a passage and is kept in
 * front of its text — also when the text begins on the next page (the passage then lies on that
 * page, its box around the text there). A caption and its table stay in one passage.
 */
export function chunkBlocks(blocks: Block[]): ParsedChunk[] {
  const kinds = navigationKinds(blocks);
  const out: ParsedChunk[] = [];
  let cur: Passage | null = null;
  // The heading or question of the section being read: a passage that continues a section (after
  // a page break or past TARGET) carries its words in its index words, not in its text.
  let section: string | null = null;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    const text = b.text;
    const kind = kinds[i]!;
    // A caption right before its table opens the passage that holds both.
    const opensTable = b.kind !== 'table' && blocks[i + 1]?.kind === 'table' && blocks[i + 1]!.page === b.page && CAPTION.test(text) && text.length < 200;
    const pairedCaption = !opensTable && cur !== null && cur.page === b.page && cur.kind === kind && isCaptionPair(cur.lastBlock, b);
    if (!cur || cur.page !== b.page || cur.kind !== kind || ((startsSection(b, kind) || opensTable) && !pairedCaption) || (cur.len + text.length > TARGET && !pairedCaption) || !cur.bbox || !sameColumn(cur.bbox, b.bbox)) {
      // A heading followed by nothing yet stays with what comes next, on this page or the next.
      if (cur && carriesOver(cur, b, kind)) {
        if (cur.page !== b.page) {
          cur.page = b.page;
          cur.bbox = b.bbox;
        } else cur.bbox = cur.bbox ? union(cur.bbox, b.bbox) : b.bbox;
        cur.parts.push(text);
        cur.len += text.length;
        cur.lastBlock = b;
        continue;
      }
      if (cur) pushPassage(out, cur);
      const opens = startsSection(b, kind);
      if (opens) section = b.kind === 'heading' ? text : (QUESTION_START.exec(text)?.[0] ?? null);
      if (kind !== 'content') section = null;
      cur = { page: b.page, bbox: b.bbox, parts: [text], len: text.length, heading: opens && text.length < 120, kind, lastBlock: b, context: opens || opensTable ? null : section };
      continue;
    }
    cur.parts.push(text);
    cur.len += text.length;
    cur.bbox = union(cur.bbox, b.bbox);
    cur.lastBlock = b;
  }
  if (cur) pushPassage(out, cur);
  // Very long single blocks (a huge table) are split so no passage gets unwieldy.
  const passages: ParsedChunk[] = [];
  for (const c of mergeTiny(out)) {
    if (c.text.length <= TARGET * 3) passages.push(c);
    else passages.push(...splitLong(c));
  }
  return passages;
}

/** A passage being gathered by chunkBlocks. */
interface Passage {
  page: number;
  bbox: Box | null;
  parts: string[];
  len: number;
  heading: boolean;
  kind: PassageKind;
  lastBlock: Block;
  /** The heading or question of the section it continues, for its index words. */
  context: string | null;
}

/** Whether a passage that is only a heading takes the next block in (instead of standing alone). */
const carriesOver = (carry: Passage, b: Block, kind: PassageKind) =>
  carry.heading &&
  carry.parts.length === 1 &&
  carry.kind === kind &&
  carry.len < 120 &&
  !startsSection(b, kind) &&
  (carry.page !== b.page ? movesToNextPage(carry.parts[0]!, b.text) : !!carry.bbox && sameColumn(carry.bbox, b.bbox));

/** A gathered passage as an indexed passage, unless it is empty or has no box. */
function pushPassage(out: ParsedChunk[], cur: Passage) {
  if (!cur.bbox || !cur.parts.join('').trim()) return;
  const text = cur.parts.join('\n');
  const context = cur.context ? `${segmentForIndex(cur.context)} ` : '';
  out.push({ page: cur.page, bbox: cur.bbox, text, segmented: context + segmentForIndex(text), kind: cur.kind });
}

/** A heading or question at the foot of a page goes over to its text at the top of the next one (not to a stray page number). */
const movesToNextPage = (heading: string, next: string) => (headingLike(heading) || QUESTION_START.test(heading)) && meaningfulLength(next) >= MIN_MEANINGFUL;

/** A caption and the table it names, in either order. */
const isCaptionPair = (prev: Block, next: Block) =>
  (next.kind === 'table' && CAPTION.test(prev.text) && prev.text.length < 200) || (prev.kind === 'table' && CAPTION.test(next.text) && next.text.length < 200);

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
