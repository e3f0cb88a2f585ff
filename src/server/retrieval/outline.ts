/**
 * Questions about a document's outline: "CTEX FAQ 的“帮助文档”部分包括哪些问题，编号是从几到几",
 * "讲 restore 和 backup 的小节分别从第几页开始", "附录一共有几个". The page that answers them is the
 * table of contents, which lists a part's items and pages together; the parts' own pages each hold
 * one item. Tables of contents are kept out of the full-text index (parsing/navigation.ts): their
 * words would change every question's BM25 statistics, and indexing them, at any weight, was no
 * better than leaving them out (tuning pool with fresh sets 1–23: 1563 → 1564 of 1647, three gained
 * and two lost). They are kept apart in kb_outline (parsing/index-store.ts) and searched here, only
 * for a question that names a part of the document and asks what it holds or where it starts.
 */
import type { Executor } from '../db/database';
import { titleWords } from '../parsing/chunks';
import { queryTokens } from '../text/segment';
import type { Passage } from './search';

/** A part of a document: a chapter, section, appendix, category of an FAQ. */
const PART = /大类|一类|那类|这类|类别|分类|小节|一节|那节|这节|章|部分|附录|专题|section|chapter|appendix|part\b/i;
/**
 * The document as a whole ("这份指南一共介绍了哪几种办法"): what it covers, its contents list (read on
 * retrieval-fresh-29.json: tuning pool 1940 → 1943 of 2037, none lost, abstentions unchanged).
 */
const DOCUMENT = /这份|这本|这篇|全书|全文|整本|整份/;
/** What a question about a part asks: which items, how many, from which number or page. */
const LISTING = /哪几|哪些|哪[两二三四五]|几个|几种|几条|多少个|多少条|一共|总共|第几页|从第?几|分成|细分|收了|收录|which (?:questions|sections|items|topics)|how many|(?:what|which) page/i;

/**
 * Where in the document something is: its page ("索引、贡献者名单和 v0.4 更新列表分别在第几页"; read on
 * retrieval-fresh-28.json: tuning pool 1876 → 1877 of 1972, abstentions unchanged).
 */
const WHICH_PAGE = /第几页|哪一页|哪页|页码|(?:what|which) page/i;

/** Whether a question asks about the outline of a document: it names a part (or the document) and asks what it holds or where it starts, or asks on which page something is. */
export function asksForOutline(question: string): boolean {
  return ((PART.test(question) || DOCUMENT.test(question)) && LISTING.test(question)) || WHICH_PAGE.test(question);
}

/**
 * A question about the document's back-of-book index ("CTEX FAQ 书后索引里，ebb 和 EPS 分别指向第几页"):
 * the index's passages are searched instead of the contents (read on retrieval-fresh-36.json). An index
 * repeats every term of the document beside its pages, so it is searched for no other question.
 */
const NAMES_INDEX = /索引里|索引中|索引的|书后索引|索引页|\bthe index\b/i;

/** At most this many outline passages join the candidates of an outline question; the second stage places them. */
const OUTLINE_DEPTH = 2;
/** At most this many outline passages of the asked documents are read for one question. */
const OUTLINE_ROWS = 2000;

/**
 * The outline passages of the given documents that best match an outline question (none for
 * another question), by the question's tokens they hold, the rarer among the outline passages
 * the more; they are marked `outline`, so the second stage does not take them for navigation.
 */
export async function outlinePassages(db: Executor, docIds: string[], question: string): Promise<Passage[]> {
  if (!docIds.length || !asksForOutline(question)) return [];
  const found = await db
    .selectFrom('kb_outline')
    .innerJoin('kb_documents', 'kb_documents.id', 'kb_outline.doc_id')
    .select(['kb_outline.doc_id', 'kb_outline.page', 'kb_outline.bbox', 'kb_outline.text', 'kb_outline.segmented', 'kb_documents.title'])
    .where('kb_outline.doc_id', 'in', docIds)
    .where('kb_outline.kind', '=', NAMES_INDEX.test(question) ? 'index' : 'toc')
    .orderBy('kb_outline.id')
    .limit(OUTLINE_ROWS)
    .execute();
  if (!found.length) return [];
  // A question about the outline names the document ("CTEX FAQ 的“帮助文档”部分"): every passage of
  // its contents carries the title's words, as the document's first passage does (parsing/chunks.ts withTitle).
  const rows = found.map((r) => ({ ...r, segmented: `${titleWords(r.title)} ${r.segmented}`.trim() }));
  const asked = [...new Set(queryTokens(question))];
  const words = rows.map((r) => new Set(r.segmented.split(' ')));
  const idf = asked.map((t) => {
    const df = words.filter((w) => w.has(t)).length;
    return df ? Math.log(1 + rows.length / df) : 0;
  });
  return rows
    .map((r, i) => ({ r, score: asked.reduce((s, t, j) => s + (words[i]!.has(t) ? idf[j]! : 0), 0) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, OUTLINE_DEPTH)
    .map(({ r, score }) => ({
      docId: r.doc_id,
      page: r.page,
      bbox: r.bbox ? (JSON.parse(r.bbox) as [number, number, number, number]) : null,
      text: r.text,
      segmented: r.segmented,
      score,
      outline: true,
    }));
}
