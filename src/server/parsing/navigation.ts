/**
 * Navigation, not content: tables of contents, lists of figures and tables, back-of-book indexes
 * and reference lists. They repeat the words of the whole document next to page numbers, so BM25
 * ranks them high for almost any question, and quoted as an answer they say nothing. They are
 * recognised here at parse time from text and page cues, given a kind, and left out of the
 * answerable index (parsing/index-store.ts); the markdown keeps them, and the viewer's outline
 * comes from the PDF's own outline, not from these passages. Running heads and page numbers are
 * dropped earlier, by the layout (pdf-layout.ts, furnitureFilter).
 */
import type { Block } from './pdf-layout';

/** What a passage is: answerable content, or one of the kinds of navigation. */
export type PassageKind = 'content' | 'toc' | 'index' | 'references';

/** Dot leaders (". . . .", "……", "····") followed by a page number (arabic or roman), maybe across a table cell. */
const LEADER_ENTRY = /(?:(?:\.\s?){4,}|…{2,}|(?:·\s?){4,}|(?:．\s?){4,}|(?:_\s?){6,})\s*\|?\s*(?:\d{1,4}|[ivxlc]{1,7})(?=$|\s|\||\p{Script=Han}|[A-Z])/gimu;
/** A line ending with a page number after a space or a cell bar ("前言 | v", "A关于FAQ 5"). */
const ENDS_WITH_PAGE = /(?:\s|\|)(?:\d{1,4}|[ivxlc]{1,7})\s*$/i;
const PAGE_ONLY = /^(?:\d{1,4}|[ivxlc]{1,7})$/i;
/** An index entry: a term, a comma and page numbers ("\\caption, 22, 29", "amsmath, 6, 18–21"). */
const INDEX_ENTRY = /[^\s,，|]{1,40}[,，]\s?\d{1,4}(?:[-–]\d{1,4})?(?:[,，]\s?\d{1,4}(?:[-–]\d{1,4})?)*(?=$|\s|\||\p{Script=Han}|[A-Za-z\\])/gmu;
/** A reference-list item: "[12] Author. Title…". */
const REFERENCE_ITEM = /^\s*\[\d{1,3}\]/;
/** Titles of navigation sections. */
const TOC_TITLE = /^\s*(?:目\s*录|contents|table of contents|list of (?:figures|tables|algorithms|listings)|插\s*图\s*(?:目\s*录)?|表\s*格\s*(?:目\s*录)?|图\s*目\s*录|表\s*目\s*录)\s*(?:\|?\s*[ivxlc\d]{1,5})?\s*$/i;
const INDEX_TITLE = /^\s*(?:索\s*引|index|名词索引|术语索引)\s*$/i;
const REFERENCES_TITLE = /^\s*(?:参\s*考\s*文\s*献|references|bibliography|引用文献)\s*$/i;

const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;
/**
 * Index entries in a text. INDEX_ENTRY tries up to 40 characters from every position (in Chinese
 * prose, without spaces, that was most of this file's share of a parse); a text without a comma
 * before a digit holds none, so the scan runs only on texts that have one.
 */
const indexEntries = (text: string) => (/[,，]\s?\d/.test(text) ? count(text, INDEX_ENTRY) : 0);

/** Whether a page is (part of) a table of contents: several leader entries on it. */
function tocPages(blocks: Block[]): Set<number> {
  const leaders = new Map<number, number>();
  for (const b of blocks) leaders.set(b.page, (leaders.get(b.page) ?? 0) + count(b.text, LEADER_ENTRY));
  const pages = new Set<number>();
  for (const [page, n] of leaders) if (n >= 4) pages.add(page);
  return pages;
}

// Module-level predicates rather than closures made per block: V8 keeps their optimized code
// from one document to the next (see pdf-layout.ts).
const nonBlank = (l: string) => l.trim() !== '';
const isPagedLine = (l: string) => ENDS_WITH_PAGE.test(l) || PAGE_ONLY.test(l.trim()) || count(l, LEADER_ENTRY) > 0;
/** Whether a line starts a reference-list item ("[12] Author. Title…"). */
export const isReferenceItem = (l: string) => REFERENCE_ITEM.test(l);
const countOf = (lines: string[], test: (l: string) => boolean) => {
  let n = 0;
  for (const l of lines) if (test(l)) n++;
  return n;
};

/** The kind of one block, given whether its page is a table-of-contents page and the section it is in. */
function blockKind(b: Block, onTocPage: boolean, section: PassageKind): PassageKind {
  const text = b.text.trim();
  const firstLine = text.split('\n')[0] ?? '';
  if (TOC_TITLE.test(firstLine) && (onTocPage || count(text, LEADER_ENTRY) > 0 || ENDS_WITH_PAGE.test(text))) return 'toc';
  const lines = text.split('\n').filter(nonBlank);
  const leaders = count(text, LEADER_ENTRY);
  // Mostly "title . . . . 12" entries (several may share one line when the layout joined them).
  if (leaders > 0 && leaders >= 0.5 * lines.length) return 'toc';
  if (onTocPage) {
    const paged = countOf(lines, isPagedLine);
    if (lines.length && paged >= 0.6 * lines.length) return 'toc';
  }
  // An index: dense "term, page, page" entries (fewer are enough inside an index).
  const entries = indexEntries(text);
  if (entries >= 3 && entries * 32 >= text.length) return 'index';
  if (section === 'index' && entries >= 1 && entries * 40 >= text.length) return 'index';
  if (INDEX_TITLE.test(firstLine) && (entries >= 2 || section === 'index')) return 'index';
  const refs = countOf(lines, isReferenceItem);
  if (REFERENCES_TITLE.test(firstLine) && (refs > 0 || lines.length === 1)) return 'references';
  if (refs >= 2 && refs >= 0.6 * lines.length) return 'references';
  if (section === 'references' && refs >= 1 && refs >= 0.5 * lines.length) return 'references';
  return 'content';
}

/**
 * The kind of every block, in order. A block is navigation by its own text (leaders, index
 * entries, reference items), by the page it is on (the other entries of a contents page), or by
 * the navigation title just before it ("参考文献", "Index" heading blocks).
 */
export function navigationKinds(blocks: Block[]): PassageKind[] {
  const toc = tocPages(blocks);
  let section: PassageKind = 'content';
  const kinds: PassageKind[] = [];
  for (const b of blocks) {
    const kind = blockKind(b, toc.has(b.page), section);
    const first = b.text.trim().split('\n')[0] ?? '';
    if (b.kind === 'heading') section = INDEX_TITLE.test(first) ? 'index' : REFERENCES_TITLE.test(first) ? 'references' : 'content';
    else if (kind === 'index' || kind === 'references') section = kind;
    else if (kind === 'content' && b.text.length > 200) section = 'content';
    kinds.push(kind);
  }
  return kinds;
}

/** Whether a passage's text reads as a reference list: mostly "[12] Author. Title…" items. */
export function looksLikeReferences(text: string): boolean {
  const lines = text.trim().split('\n').filter(nonBlank);
  const refs = countOf(lines, isReferenceItem);
  return refs >= 2 && refs >= 0.6 * lines.length;
}

/**
 * Whether a passage's text reads as navigation (for passages indexed before kinds existed, and as
 * a last guard before quoting): mostly leader entries or index entries. A reference list is not:
 * it is indexed and answers like any passage (what a document cites, and its annotated entries:
 * "(texdoc symbols-a4)").
 */
export function looksLikeNavigation(text: string): boolean {
  const t = text.trim();
  const lines = t.split('\n').filter(nonBlank);
  if (!lines.length) return false;
  const leaders = count(t, LEADER_ENTRY);
  if (leaders > 0 && leaders >= 0.5 * lines.length) return true;
  const entries = indexEntries(t);
  return entries >= 3 && entries * 32 >= t.length;
}
