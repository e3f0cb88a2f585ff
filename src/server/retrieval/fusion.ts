import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/database';
import { search, type Passage } from './search';
import { vectorSearch, type EmbeddingClient } from './embeddings';
import { ABSTAIN_BELOW, rerank, type Scored } from './rerank';

/** How many first-stage candidates the second stage (rerank.ts) reorders. */
export const RERANK_DEPTH = 20;

/** How many of the vector list's best passages are kept from abstention whatever their words. */
const BY_MEANING = 5;

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
  const { passages, byMeaning } = await firstStage(db, docIds, query, Math.max(k, RERANK_DEPTH), opts);
  const reranked = rerank(query, passages);
  // Coverage counts the question's words; a passage the vectors found may answer in other words, so
  // it is never the reason to abstain (it keeps at least the abstention threshold).
  const kept = byMeaning.size ? reranked.map((p) => (byMeaning.has(passageKey(p)) ? { ...p, coverage: Math.max(p.coverage, ABSTAIN_BELOW) } : p)) : reranked;
  return kept.slice(0, k);
}

/** BM25 alone, or BM25 and vectors fused: the candidates of the second stage, and which the vectors found. */
async function firstStage(db: Executor, docIds: string[], query: string, k: number, opts: HybridOptions): Promise<{ passages: Passage[]; byMeaning: Set<string> }> {
  const client = opts.embeddings;
  const none = new Set<string>();
  if (!client || !docIds.length || !query.trim()) return { passages: await search(db, docIds, query, k, { expand: true }), byMeaning: none };
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
  const [lexical, vectors] = await Promise.all([search(db, docIds, query, depth, { expand: true }), semantic()]);
  if (!vectors?.length) return { passages: lexical.slice(0, k), byMeaning: none };
  const fromVectors: Passage[] = vectors.map(({ docId, page, bbox, text, score }) => ({ docId, page, bbox, text, score }));
  // The vector list's copy has no index words: take them from the BM25 copy where there is one.
  const words = new Map(lexical.map((p) => [passageKey(p), p.segmented]));
  for (const p of fromVectors) p.segmented = words.get(passageKey(p));
  const passages = reciprocalRankFusion<Passage>([lexical, fromVectors], passageKey)
    .slice(0, k)
    .map(({ item, score }) => ({ ...item, score }));
  // The vectors' own best few count as found by meaning (deeper down, every passage is in their list).
  return { passages, byMeaning: new Set(fromVectors.slice(0, BY_MEANING).map(passageKey)) };
}
