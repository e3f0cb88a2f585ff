import { sql } from 'kysely';
import type { Executor } from '../db/database';
import { matchQuery } from './segment';

/** A retrieved passage with where it sits in its document (DESIGN §3 citation fields). */
export interface Passage {
  docId: string;
  page: number | null;
  bbox: [number, number, number, number] | null;
  text: string;
  /** BM25 relevance, higher is better. */
  score: number;
}

/**
 * The k passages of the given documents that best match the query (BM25 over the segmented
 * text). The caller must have checked that the asker may read these documents.
 */
export async function search(db: Executor, docIds: string[], query: string, k = 8): Promise<Passage[]> {
  const match = matchQuery(query);
  if (!match || !docIds.length) return [];
  const rows = await sql<{ doc_id: string; page: number | null; bbox: string | null; text: string; rank: number }>`
    select c.doc_id, c.page, c.bbox, c.text, bm25(kb_chunks_fts) as rank
    from kb_chunks_fts join kb_chunks c on c.id = kb_chunks_fts.rowid
    where kb_chunks_fts match ${match} and c.doc_id in (${sql.join(docIds)})
    order by rank limit ${Math.max(1, Math.min(100, k))}`.execute(db);
  return rows.rows.map((r) => ({
    docId: r.doc_id,
    page: r.page,
    bbox: r.bbox ? (JSON.parse(r.bbox) as [number, number, number, number]) : null,
    text: r.text,
    score: -r.rank,
  }));
}
