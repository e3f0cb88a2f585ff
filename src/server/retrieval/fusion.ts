import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/database';
import { search, type Passage } from './search';
import { vectorSearch, type EmbeddingClient } from './embeddings';
import { rerank, type Scored } from './rerank';

/** How many first-stage candidates the second stage (rerank.ts) reorders. */
export const RERANK_DEPTH = 20;

/** The usual reciprocal-rank-fusion constant (Cormack et al. 2009): damps the weight of the very top ranks. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: each item scores Σ 1/(k + rank) over the lists it appears in (rank from
 * 1), best first. Items are matched across lists by `key`; the first list's copy of an item is kept.
 */
export function reciprocalRankFusion<T>(lists: T[][], key: (item: T) => string, k = RRF_K): { item: T; score: number }[] {
  const fused = new Map<string, { item: T; score: number; first: number }>();
  let order = 0;
  for (const list of lists) {
    const seen = new Set<string>();
    list.forEach((item, i) => {
      const id = key(item);
      if (seen.has(id)) return; // a list counts an item once, at its best rank
      seen.add(id);
      const entry = fused.get(id);
      if (entry) entry.score += 1 / (k + i + 1);
      else fused.set(id, { item, score: 1 / (k + i + 1), first: order++ });
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.first - b.first).map(({ item, score }) => ({ item, score }));
}

/** A passage's identity across the BM25 and vector lists (BM25 results carry no chunk id). */
export const passageKey = (p: { docId: string; page: number | null; text: string }) => `${p.docId}\u0000${p.page ?? ''}\u0000${p.text}`;

/** How deep each list is read before fusing. */
const depthFor = (k: number) => Math.min(100, Math.max(30, k * 4));

export interface HybridOptions {
  embeddings?: EmbeddingClient | undefined;
  /** Milliseconds the question's embedding may take before BM25 goes on alone. */
  queryTimeoutMs?: number;
  log?: FastifyBaseLogger | undefined;
}

/**
 * The k best passages of the given documents: BM25 alone, or, with embeddings configured, BM25
 * and cosine similarity fused by reciprocal rank — once every passage of the documents has its
 * vector (see vectorSearch). A failing embeddings service falls back to BM25 with a log line. The caller must have checked that the asker may read these documents.
 */
export async function hybridSearch(db: Executor, docIds: string[], query: string, k: number, opts: HybridOptions = {}): Promise<Scored[]> {
  return rerank(query, await firstStage(db, docIds, query, Math.max(k, RERANK_DEPTH), opts)).slice(0, k);
}

/** BM25 alone, or BM25 and vectors fused: the candidates of the second stage. */
async function firstStage(db: Executor, docIds: string[], query: string, k: number, opts: HybridOptions): Promise<Passage[]> {
  const client = opts.embeddings;
  if (!client || !docIds.length || !query.trim()) return search(db, docIds, query, k);
  const depth = depthFor(k);
  const semantic = async () => {
    try {
      const [vector] = await client.embed([query], opts.queryTimeoutMs ?? 3000);
      const { hits, complete } = await vectorSearch(db, docIds, vector!, client.model, depth);
      return complete ? hits : undefined;
    } catch (err) {
      opts.log?.warn({ err: err instanceof Error ? err.message : String(err) }, 'question embedding failed; searching with BM25 alone');
      return undefined;
    }
  };
  const [lexical, vectors] = await Promise.all([search(db, docIds, query, depth), semantic()]);
  if (!vectors?.length) return lexical.slice(0, k);
  const fromVectors: Passage[] = vectors.map(({ docId, page, bbox, text, score }) => ({ docId, page, bbox, text, score }));
  // The vector list's copy has no index words: take them from the BM25 copy where there is one.
  const words = new Map(lexical.map((p) => [passageKey(p), p.segmented]));
  for (const p of fromVectors) p.segmented = words.get(passageKey(p));
  return reciprocalRankFusion<Passage>([lexical, fromVectors], passageKey)
    .slice(0, k)
    .map(({ item, score }) => ({ ...item, score }));
}
