import { sql } from 'kysely';
import type { Executor } from '../db/database';
import { queryTerms } from '../text/segment';
import { fullTextOf, type FullText, type Hit, type Span } from './fulltext';

/** A retrieved passage with where it sits in its document (DESIGN §3 citation fields). */
export interface Passage {
  docId: string;
  page: number | null;
  bbox: [number, number, number, number] | null;
  text: string;
  /** BM25 relevance, higher is better. */
  score: number;
  /** The passage's index words (text/segment.ts), for the second stage (rerank.ts); not sent to clients. */
  segmented?: string;
  /** Found by the question's English words alone (retrieval/fusion.ts translatedCandidates): no part of the question's weights. */
  viaDictionary?: boolean;
  /** A passage of a table of contents, found for a question about the document's outline (retrieval/outline.ts): not taken for navigation. */
  outline?: boolean;
}

export interface SearchOptions {
  /** At most about this many passages are ranked by FTS5 per query (default RANK_BUDGET). */
  budget?: number;
  /**
   * Also search for the equivalents of the question's words in the lexicon (text/synonyms.ts,
   * queryTerms' expand): for the second stage (fusion.ts), which counts them as covering the words.
   */
  expand?: boolean;
}

/**
 * BM25 in FTS5 costs a few µs per candidate passage, so a query ranks at most about this many
 * (a few ms); bench/retrieval.bench.ts measures the effect at 100k passages.
 */
export const RANK_BUDGET = 2000;
/** When tokens are left out of the FTS5 ranking, this many of its best passages are re-scored with all of them. */
const RESCORE_DEPTH = 40;
/** Every token is first counted up to this many passages (exactly only where it may matter). */
const PROBE = 128;
/** Documents whose passages lie further apart than this many rowids are searched as separate ranges. */
const SPAN_GAP = 2000;
/** More separate ranges than this are searched as one range from the first to the last. */
const MAX_SPANS = 6;
/** SQLite allows 500 terms in a compound SELECT; the counts go in statements of at most this many. */
const COUNTS_PER_STATEMENT = 400;
// FTS5's bm25() constants.
const K1 = 1.2;
const B = 0.75;

/**
 * The rowid ranges holding the documents' passages. A document's passages are written in
 * ordinal order by one statement or transaction (parsing/index-store.ts, and the parse job's and the
 * copy's `insert … select … order by ordinal`), so its rowids run from its first ordinal's to its
 * last's; both ends come from the (doc_id, ordinal) index. Ranges with another document's
 * passages between the asked ones are marked impure and filtered by doc_id wherever they are read.
 */
async function spansOf(ft: FullText, docIds: string[]): Promise<Span[]> {
  const rows = await ft.documentEnds(docIds);
  const spans = rows
    .flatMap((r) => (r.lo === null || r.hi === null ? [] : [{ lo: Math.min(r.lo, r.hi), hi: Math.max(r.lo, r.hi), pure: true }]))
    .sort((a, b) => a.lo - b.lo);
  const merged: Span[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s.lo - last.hi - 1 <= SPAN_GAP) {
      // Rowids between the two may belong to another document.
      last.pure &&= s.lo <= last.hi + 1;
      last.hi = Math.max(last.hi, s.hi);
    } else merged.push({ ...s });
  }
  return merged.length > MAX_SPANS ? [{ lo: merged[0]!.lo, hi: merged[merged.length - 1]!.hi, pure: false }] : merged;
}

interface Count {
  /** Passages holding the term: exact, or estimated when the count stopped at its cap. */
  n: number;
  exact: boolean;
}

/**
 * How many passages of the asked documents in the spans hold each term, counted up to cap; above
 * it estimated from how far into its span the cap-th one lies. Ranges with other documents
 * between the asked ones are counted through kb_chunks (slower, so only there).
 */
async function passageCounts(db: Executor, ft: FullText, terms: string[], spans: Span[], docIds: string[], cap: number): Promise<Count[]> {
  const parts = terms.flatMap((term, t) => spans.map((s, i) => ft.countPart(t, i, term, s, docIds, cap)));
  const rows: Array<{ t: number; s: number; n: number; last: number | null }> = [];
  for (let i = 0; i < parts.length; i += COUNTS_PER_STATEMENT) {
    const batch = parts.slice(i, i + COUNTS_PER_STATEMENT);
    rows.push(...(await sql<{ t: number; s: number; n: number; last: number | null }>`${sql.join(batch, sql` union all `)}`.execute(db)).rows);
  }
  const counts = terms.map(() => ({ n: 0, exact: true }));
  for (const r of rows) {
    const s = spans[r.s]!;
    const c = counts[r.t]!;
    if (r.n < cap || r.last === null) c.n += r.n;
    else {
      c.n += Math.max(cap, Math.round((cap * (s.hi - s.lo + 1)) / Math.max(1, r.last - s.lo + 1)));
      c.exact = false;
    }
  }
  return counts;
}

/**
 * The question's tokens that occur in the spans, rarest first, with how many passages hold each
 * (exact where it decides what is ranked), and how many of them lead: the rarest whose passages
 * fit the budget together (at least one). Every token is probed with a small cap; only the
 * tokens that may still fit are counted further, up to the room left.
 */
async function selectTerms(db: Executor, ft: FullText, terms: string[], spans: Span[], docIds: string[], budget: number) {
  const counts = await passageCounts(db, ft, terms, spans, docIds, Math.min(PROBE, budget + 1));
  const exactSum = counts.filter((c) => c.exact).reduce((n, c) => n + c.n, 0);
  const room = Math.max(0, budget - exactSum);
  const capped = terms
    .map((term, i) => ({ term, i, c: counts[i]! }))
    .filter((t) => !t.c.exact)
    .sort((a, b) => a.c.n - b.c.n);
  const open: typeof capped = [];
  let expected = 0;
  for (const t of capped) {
    if (open.length ? expected + t.c.n > 1.5 * room : t.c.n > 2 * room && exactSum > 0) break;
    open.push(t);
    expected += t.c.n;
  }
  if (open.length) {
    const recount = await passageCounts(
      db,
      ft,
      open.map((t) => t.term),
      spans,
      docIds,
      Math.max(room, 1) + 1,
    );
    open.forEach((t, j) => (counts[t.i] = recount[j]!));
  }
  const present = terms.map((term, i) => ({ term, ...counts[i]! })).filter((t) => t.n > 0);
  present.sort((a, b) => Number(b.exact) - Number(a.exact) || a.n - b.n);
  let candidates = 0;
  let lead = 0;
  while (lead < present.length && (lead === 0 || (present[lead]!.exact && candidates + present[lead]!.n <= budget))) candidates += present[lead++]!.n;
  return { present, lead, candidates };
}

/** The best passages of the documents in the spans holding any of the terms, by BM25. */
async function rank(ft: FullText, terms: string[], spans: Span[], docIds: string[], limit: number): Promise<Hit[]> {
  const hits: Hit[] = [];
  for (const s of spans) hits.push(...(await ft.rank(terms, s, docIds, limit)));
  return hits.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
}

interface ChunkRow {
  id: number;
  doc_id: string;
  page: number | null;
  bbox: string | null;
  text: string;
  segmented: string;
}

const chunksById = async (db: Executor, ids: number[]): Promise<Map<number, ChunkRow>> =>
  new Map(
    (await db.selectFrom('kb_chunks').select(['id', 'doc_id', 'page', 'bbox', 'text', 'segmented']).where('id', 'in', ids).execute()).map((r) => [r.id, r]),
  );

/**
 * The k passages of the given documents that best match the query (BM25 over the segmented
 * text). The caller must have checked that the asker may read these documents.
 *
 * BM25 in FTS5 costs a few µs for every passage that shares a token with the question, which on a
 * large index is most of them, so the candidates are bounded (MaxScore-like): the question's
 * tokens are counted inside the asked documents and the rarest are taken while their passages fit
 * the budget. When every token fits, the answer is FTS5's BM25 over the OR of all of them. When
 * some are left out, FTS5 ranks by the rare ones, and its best RESCORE_DEPTH passages are scored
 * again here with every token (BM25 with the documents' own passage counts, FTS5's k1 and b), so
 * the common tokens still order the candidates. A question made only of very common tokens ranks
 * the first passages (in document order) that hold its rarest token.
 */
export async function search(db: Executor, docIds: string[], query: string, k = 8, opts: SearchOptions = {}): Promise<Passage[]> {
  const terms = queryTerms(query, { expand: opts.expand === true });
  if (!terms.length || !docIds.length) return [];
  const ft = fullTextOf(db);
  let spans = await spansOf(ft, docIds);
  if (!spans.length) return [];
  const budget = Math.max(1, Math.floor(opts.budget ?? RANK_BUDGET));
  const limit = Number.isFinite(k) ? Math.max(1, Math.min(100, Math.floor(k))) : 8;

  // Ranges no larger than the budget cannot hold more candidates than it: no counting needed.
  const small = spans.reduce((n, s) => n + s.hi - s.lo + 1, 0) <= budget;
  const { present, lead: kept, candidates } = small
    ? { present: terms.map((term) => ({ term, n: 1, exact: true })), lead: terms.length, candidates: 0 }
    : await selectTerms(db, ft, terms, spans, docIds, budget);
  if (!present.length) return [];
  if (candidates > budget) {
    // Even the rarest token is everywhere: rank the passages up to its budget-th one.
    const whole = { lo: spans[0]!.lo, hi: spans[spans.length - 1]!.hi, pure: false };
    const end = (await ft.nth(present[0]!.term, whole, budget - 1)) ?? whole.hi;
    spans = spans.filter((s) => s.lo <= end).map((s) => ({ ...s, hi: Math.min(s.hi, end) }));
  }
  const rare = present.slice(0, kept);
  const rescore = kept < present.length;
  const hits = await rank(
    ft,
    rare.map((t) => t.term),
    spans,
    docIds,
    rescore ? Math.max(limit, RESCORE_DEPTH) : limit,
  );
  if (!hits.length) return [];
  const rows = await chunksById(
    db,
    hits.map((h) => h.id),
  );

  let best = hits;
  if (rescore) {
    const size = spans.reduce((n, s) => n + s.hi - s.lo + 1, 0);
    const avgdl = await ft.averageLength();
    // The question's tokens are words of the segmented text as they are (text/segment.ts makes both),
    // so their frequencies are counted on its words directly.
    const weighted = present.map((t) => ({
      word: t.term.slice(1, -1).replace(/""/g, '"'),
      idf: Math.max(1e-6, Math.log((size - Math.min(t.n, size) + 0.5) / (Math.min(t.n, size) + 0.5))),
    }));
    const index = new Map(weighted.map((w, i) => [w.word, i]));
    best = hits
      .map((h) => {
        const words = (rows.get(h.id)?.segmented ?? '').split(' ');
        const freq = weighted.map(() => 0);
        for (const w of words) {
          const i = index.get(w);
          if (i !== undefined) freq[i]!++;
        }
        const norm = K1 * (1 - B + (B * words.length) / avgdl);
        let score = 0;
        weighted.forEach((w, i) => {
          const f = freq[i]!;
          if (f) score += (w.idf * f * (K1 + 1)) / (f + norm);
        });
        return { id: h.id, score };
      })
      .sort((a, b) => b.score - a.score || a.id - b.id)
      .slice(0, limit);
  }
  return best.flatMap((h) => {
    const r = rows.get(h.id);
    if (!r) return [];
    return [
      {
        docId: r.doc_id,
        page: r.page,
        bbox: r.bbox ? (JSON.parse(r.bbox) as [number, number, number, number]) : null,
        text: r.text,
        score: h.score,
        segmented: r.segmented,
      },
    ];
  });
}
