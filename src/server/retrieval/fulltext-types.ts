import type { RawBuilder } from 'kysely';

/** A range of passage ids (kb_chunks.id) holding asked documents' passages (search.ts). */
export interface Span {
  lo: number;
  hi: number;
  /** Every passage in the range belongs to an asked document (no other document lies between). */
  pure: boolean;
}

export interface Hit {
  id: number;
  score: number;
}

/**
 * The full-text index as search.ts uses it, one implementation per engine: FTS5 on SQLite, a
 * tsvector with a GIN index on PostgreSQL. Terms are queryTerms() of text/segment.ts (quoted words).
 * Both give the same BM25 (FTS5's: k1 1.2, b 0.75, statistics of the whole index).
 */
export interface FullText {
  /** The first and last passage id (by ordinal) of each asked document that has passages. */
  documentEnds(docIds: string[]): Promise<Array<{ lo: number | null; hi: number | null }>>;
  /**
   * One row `t, s, n, last` for a union: how many passages in the span (of the asked documents)
   * hold the term, counted up to cap in id order, and the last id counted.
   */
  countPart(t: number, s: number, term: string, span: Span, docIds: string[], cap: number): RawBuilder<unknown>;
  /** The average passage length in words over the whole index. */
  averageLength(): Promise<number>;
  /** The best `limit` passages in the span holding any of the terms, by BM25 (best first, then by id). */
  rank(terms: string[], span: Span, docIds: string[], limit: number): Promise<Hit[]>;
  /** The id of the (offset+1)-th passage in the span holding the term, in id order. */
  nth(term: string, span: Span, offset: number): Promise<number | undefined>;
}
