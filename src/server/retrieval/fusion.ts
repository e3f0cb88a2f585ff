import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/database';
import { search, type Passage } from './search';
import { isMostlyLatin, translatedQuery } from '../text/segment';
import { symbolCommands } from '../text/synonyms';
import { outlinePassages } from './outline';
import { structurePassages } from './structures';
import { vectorSearch, type EmbeddingClient } from './embeddings';
import { ABSTAIN_BELOW, latinWordsOf, rerank, RERANK_WEIGHTS, type Scored } from './rerank';

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
  const depth = Math.max(k, RERANK_DEPTH);
  const { passages, byMeaning, mentioned } = await firstStage(db, docIds, query, depth, opts);
  const reranked = rerank(query, passages, RERANK_WEIGHTS, Math.min(depth, passages.length), mentioned);
  // Coverage counts the question's words; a passage the vectors found may answer in other words, so
  // it is never the reason to abstain (it keeps at least the abstention threshold).
  const kept = byMeaning.size ? reranked.map((p) => (byMeaning.has(passageKey(p)) ? { ...p, coverage: Math.max(p.coverage, ABSTAIN_BELOW) } : p)) : reranked;
  return kept.slice(0, k);
}

/**
 * How deep BM25's list is read for passages holding a name the question asks about (a command, an
 * option, a file name: l3backend, XDG_DATA_DIRS), and how few of those passages a name may have to
 * count as one. A question's ordinary and expanded words outnumber its one name, so BM25 can rank
 * the few passages that hold it below the second stage's depth; they join the candidates after
 * BM25's best k, and the second stage (rerank.ts: coverage, heading, a missing name) places them.
 * Chosen on the tuning sets (hard set, fresh sets one to four; bench/retrieval.bench.ts): answer-level
 * recall 373 → 375 of their 393 answerable questions, none lost (at most 3 passages found one of
 * the two, 10 the same two as 5). The fifth fresh set, held out, was not read for it.
 */
const NAMED_DEPTH = 100;
const NAMED_MAX_PASSAGES = 5;

/** BM25's best k, then the passages below them holding one of the question's rare Latin-script words. */
function namedCandidates(deep: Passage[], k: number, query: string): Passage[] {
  const head = deep.slice(0, k);
  if (deep.length <= k) return head;
  const words = deep.map((p) => new Set((p.segmented ?? '').split(' ')));
  const rare = latinWordsOf(query).filter((w) => {
    const holders = words.filter((s) => s.has(w)).length;
    return holders > 0 && holders <= NAMED_MAX_PASSAGES;
  });
  if (!rare.length) return head;
  return [...head, ...deep.slice(k).filter((_, i) => rare.some((w) => words[k + i]!.has(w)))];
}

/** The question's Latin-script words that some passage of BM25's deep list holds (inside a longer index word too). */
function mentionedIn(deep: Passage[], query: string): Set<string> {
  return new Set(latinWordsOf(query).filter((w) => deep.some((p) => (p.segmented ?? '').includes(w))));
}

/**
 * How many passages the search in a Chinese question's English words (text/segment.ts
 * translatedQuery) adds to the second stage's candidates: English passages (text/segment.ts isMostlyLatin) the
 * question's own words cannot find, ranked there among the rest by how much of the question they
 * cover. A Chinese passage found by English words is left to the question's own search. Only
 * without vectors: with them, the vector list finds passages by meaning in either language.
 */
const TRANSLATED_DEPTH = 5;

/** The English passages the search in the question's English words finds, that are not among the candidates yet. */
async function translatedCandidates(db: Executor, docIds: string[], query: string, have: Passage[]): Promise<Passage[]> {
  const english = translatedQuery(query);
  if (!english) return [];
  const seen = new Set(have.map(passageKey));
  const last = have[have.length - 1]?.score ?? 0;
  return (await search(db, docIds, english, TRANSLATED_DEPTH * 4))
    .filter((p) => isMostlyLatin(p.text) && !seen.has(passageKey(p)))
    .slice(0, TRANSLATED_DEPTH)
    .map((p) => ({ ...p, score: Math.min(p.score, last), viaDictionary: true }));
}

/**
 * How many passages may hold the commands of a symbol the question pastes (∋: ni; text/synonyms.ts
 * symbolCommands) for them to join the second stage's candidates. A manual's symbol table holds the
 * glyph as a private code and the command as one short word among hundreds, so BM25, counting the
 * question's words describing the symbol (集合, 元素, 公式, 命令), ranks it below the second stage's
 * depth. The passages holding the command join with the best candidate's score (or are raised to
 * it), and the second stage (rerank.ts PASTED_SYMBOL) places them. A command many passages hold (in,
 * to, le) is left to the question's own search. Read on retrieval-fresh-26.json: tuning pool 1745 →
 * 1748 of 1842, none lost; raising those already among the candidates, read on
 * retrieval-fresh-28.json (⊊ over a table ranked sixth): 1877 → 1878 of 1972.
 */
const SYMBOL_DEPTH = 3;

/** The best first-stage score among the candidates (0 for none): what a passage found beside the question's own search joins with. */
const bestScore = (have: Passage[]) => Math.max(0, ...have.map((p) => p.score));

/**
 * The candidates with the passages holding the commands of the symbols the question pastes: those
 * among them get the best candidate's score if lower, the others join with it.
 */
async function withSymbolHolders(db: Executor, docIds: string[], query: string, have: Passage[]): Promise<Passage[]> {
  const commands = symbolCommands(query);
  if (!commands.length) return have;
  const found = await search(db, docIds, commands.join(' '), SYMBOL_DEPTH + 1);
  if (!found.length || found.length > SYMBOL_DEPTH) return have;
  // Those the English words found are left where their own search put them.
  return joinedAtBest(have, found, { raises: (p) => !p.viaDictionary });
}

/**
 * The candidates with `found`, passages found beside the question's own search: those among the
 * candidates (that `raises` allows) get the best candidate's score if lower, the others join with
 * it; `hold` marks each of them.
 */
function joinedAtBest(have: Passage[], found: Passage[], { raises = () => true, hold = (p) => p }: { raises?: (p: Passage) => boolean; hold?: (p: Passage) => Passage } = {}): Passage[] {
  const holders = new Set(found.map(passageKey));
  const best = bestScore(have);
  const raised = have.map((p) => (holders.has(passageKey(p)) && raises(p) ? hold({ ...p, score: Math.max(p.score, best) }) : p));
  const seen = new Set(have.map(passageKey));
  return [...raised, ...found.filter((p) => !seen.has(passageKey(p))).map((p) => hold({ ...p, score: best }))];
}

/**
 * The table-of-contents passages that match a question about the document's outline
 * (retrieval/outline.ts), with the best candidate's score: the second stage places them.
 */
async function outlineCandidates(db: Executor, docIds: string[], query: string, have: Passage[]): Promise<Passage[]> {
  const found = await outlinePassages(db, docIds, query);
  const best = bestScore(have);
  return found.map((p) => ({ ...p, score: best }));
}

/** The candidates with those found beside the question's own search: by its English words, by the commands of a symbol it pastes, in the outline it asks about. */
async function withBesideCandidates(db: Executor, docIds: string[], query: string, have: Passage[]): Promise<Passage[]> {
  const translated = await translatedCandidates(db, docIds, query, have);
  const withSymbols = await withSymbolHolders(db, docIds, query, [...have, ...translated]);
  return [...withSymbols, ...(await outlineCandidates(db, docIds, query, have))];
}

/**
 * The candidates with the passages of the molecules holding a structure the question writes as
 * SMILES or names as a functional group (structures.ts): those among them get the best candidate's
 * score if lower, the others join
 * with it, holding the structure's words (for their coverage); the words join `mentioned` too: the
 * documents do not lack what their molecules hold.
 */
async function withStructureHolders(db: Executor, docIds: string[], query: string, have: Passage[], mentioned: Set<string>): Promise<{ passages: Passage[]; mentioned: Set<string> }> {
  const found = await structurePassages(db, docIds, query);
  if (!found.passages.length) return { passages: have, mentioned };
  // A holder holds the structure as the question writes it: its words count in the holder's coverage.
  const hold = (p: Passage) => ({ ...p, segmented: `${p.segmented ?? ''} ${found.tokens.join(' ')}`.trim() });
  return { passages: joinedAtBest(have, found.passages, { hold }), mentioned: new Set([...mentioned, ...found.tokens]) };
}

/** BM25 alone, or BM25 and vectors fused: the candidates of the second stage, and which the vectors found. */
async function firstStage(db: Executor, docIds: string[], query: string, k: number, opts: HybridOptions): Promise<{ passages: Passage[]; byMeaning: Set<string>; mentioned: Set<string> }> {
  const client = opts.embeddings;
  const none = new Set<string>();
  if (!client || !docIds.length || !query.trim()) {
    const deep = await search(db, docIds, query, Math.max(k, NAMED_DEPTH), { expand: true });
    const passages = await withBesideCandidates(db, docIds, query, namedCandidates(deep, k, query));
    return { ...(await withStructureHolders(db, docIds, query, passages, mentionedIn(deep, query))), byMeaning: none };
  }
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
  const [lexical, vectors] = await Promise.all([search(db, docIds, query, Math.max(depth, NAMED_DEPTH), { expand: true }), semantic()]);
  const mentioned = mentionedIn(lexical, query);
  if (!vectors?.length) {
    const passages = await withBesideCandidates(db, docIds, query, namedCandidates(lexical, k, query));
    return { ...(await withStructureHolders(db, docIds, query, passages, mentioned)), byMeaning: none };
  }
  const fromVectors: Passage[] = vectors.map(({ docId, page, bbox, text, score }) => ({ docId, page, bbox, text, score }));
  // The vector list's copy has no index words: take them from the BM25 copy where there is one.
  const words = new Map(lexical.map((p) => [passageKey(p), p.segmented]));
  for (const p of fromVectors) p.segmented = words.get(passageKey(p));
  const fused = reciprocalRankFusion<Passage>([lexical.slice(0, depth), fromVectors], passageKey)
    .slice(0, k)
    .map(({ item, score }) => ({ ...item, score }));
  const inFused = new Set(fused.map(passageKey));
  // The named passages BM25 found deeper down join with the fused score of the last candidate.
  const last = fused[fused.length - 1]?.score ?? 0;
  const named = [...fused, ...namedCandidates(lexical, k, query).slice(k).filter((p) => !inFused.has(passageKey(p))).map((p) => ({ ...p, score: last }))];
  const passages = [...(await withSymbolHolders(db, docIds, query, named)), ...(await outlineCandidates(db, docIds, query, named))];
  // The vectors' own best few count as found by meaning (deeper down, every passage is in their list).
  return { ...(await withStructureHolders(db, docIds, query, passages, mentioned)), byMeaning: new Set(fromVectors.slice(0, BY_MEANING).map(passageKey)) };
}
