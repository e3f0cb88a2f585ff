// General second-stage variants tried on the hard retrieval set, chosen on the even half
// (tuning) and shown beside the odd half (held out): a deeper candidate pool, pseudo-relevance
// feedback over the pool (RM3: Lavrenko & Croft 2001, "Relevance-based language models"; the
// parameters of Anserini's RM3 — fbDocs 10, fbTerms 10, originalQueryWeight 0.5 — among the grid),
// evidence of a passage's page (its other candidates) and of its previous passage (a heading or a
// question split from its answer). Every variant reorders the first stage's candidates only (no
// second query to the index), except the second pass (SECOND_ONLY=1).
//
// Result (2026-11-26; recall@5 / MRR, tuning half | held-out half; baseline 0.920 / 0.833 | 0.973 / 0.812):
// no variant raised the tuning half's recall@5 and MRR together except scoring the pool again with
// BM25 k1 = 1.4 (OKAPI_ONLY=1, fts5idf: 0.933 / 0.842 | 0.973 / 0.814), which was tried in search.ts
// (commit 53a590a, SearchOptions.rescore) and reverted: with other documents in the index it left
// the held-out half unchanged (0.973 / 0.812) and lowered the easy set's MRR through the second stage
// (bench/data/retrieval-set.json, 0.881 → 0.857). RM3 lowered the tuning half's MRR at every setting
// (best 0.822 at fbDocs 5, fbTerms 20, weight 0.1); page and previous-passage evidence, verbatim
// phrase runs, deeper pools (30–60) and the second stage's floor / proximity / heading weights
// (WEIGHTS_ONLY=1) gave nothing on the tuning half beyond ±0.002 MRR. A second BM25 query with the
// feedback words (SECOND_ONLY=1; its best 20 joining the pool) kept recall@5, lowered the tuning
// half's MRR to 0.819 and abstention to 0.727 at most settings.
// Needs the index bench/retrieval-hard-halves.ts keeps: npx tsx bench/retrieval-hard-halves.ts /tmp/hard/db,
// then npx tsx bench/retrieval-hard-variants.ts /tmp/hard/db
import { openDatabase } from '../src/server/db/database';
import { looksLikeNavigation } from '../src/server/parsing/navigation';
import { nothingRelevant, citedPassages, rerank, RERANK_WEIGHTS, type RerankWeights, type Scored } from '../src/server/retrieval/rerank';
import { search, type Passage } from '../src/server/retrieval/search';
import { queryTerms } from '../src/server/text/segment';
import { root } from './lib';
import { evaluate, loadHardSet, type HardSet } from './retrieval-eval';

const set = loadHardSet(root);
const db = await openDatabase(process.argv[2] ?? '/tmp/hard/db');
const ids = Object.keys(set.docs);
const half = (parity: number): HardSet => ({ ...set, questions: set.questions.filter((_, i) => i % 2 === parity) });

// Every passage by document and text, with its neighbours (the previous passage of the same document).
const chunks = await db.selectFrom('kb_chunks').select(['doc_id', 'ordinal', 'page', 'text', 'segmented']).orderBy('doc_id').orderBy('ordinal').execute();
const byKey = new Map(chunks.map((c, i) => [`${c.doc_id}\u0000${c.text}`, i]));
const previous = (p: Passage) => {
  const i = byKey.get(`${p.docId}\u0000${p.text}`);
  if (i === undefined || i === 0) return undefined;
  const c = chunks[i - 1]!;
  return c.doc_id === p.docId ? c : undefined;
};

const depths = [20, 30, 40, 60];
const pools = new Map<string, Passage[]>();
for (const d of depths) for (const q of set.questions) pools.set(`${d}|${q.question}`, await search(db, ids, q.question, d, { expand: true }));

const HAN1 = /^\p{Script=Han}$/u;
const STOP = /^(?:\d+|[a-z]|the|and|for|with|that|this|are|is|of|to|in|on|by|be|or|an|as|it|at|from|which|can|not)$/;

interface Variant {
  depth: number;
  /** RM3 feedback: passages, terms, weight of the feedback part (0: off). */
  fbDocs: number;
  fbTerms: number;
  fbWeight: number;
  /** Share of the page's other candidates' scores added to a passage's. */
  page: number;
  /** Weight of the score of the passage read with its previous passage. */
  prev: number;
  /** Bonus for the longest run of the question's Chinese characters found verbatim in the passage (3 or more). */
  phrase?: number;
  /** Only in its first line (heading or question). */
  phraseHeading?: boolean;
  /** The pool scored again by BM25 with these constants (document frequencies of all the set's passages), its best 20 reranked. */
  okapi?: { k1: number; b: number; fts5Idf?: boolean };
  /** The second stage's own weights (rerank.ts RERANK_WEIGHTS) changed. */
  weights?: Partial<RerankWeights>;
  /** A second BM25 query: the question and the fbTerms commonest words of the first fbDocs reranked passages; its 20 best join the pool. */
  secondPass?: { fbDocs: number; fbTerms: number };
}

// Document frequencies and average length over every passage of the set (all its documents are searched).
const dfs = new Map<string, number>();
let totalLength = 0;
for (const c of chunks) {
  const ws = c.segmented.split(' ').filter(Boolean);
  totalLength += ws.length;
  for (const w of new Set(ws)) dfs.set(w, (dfs.get(w) ?? 0) + 1);
}
const avgdl = totalLength / chunks.length;
function okapi(question: string, pool: Passage[], k1: number, b: number, fts5Idf = false): Passage[] {
  const terms = queryTerms(question, { expand: true }).map((t) => t.slice(1, -1).replace(/""/g, '"'));
  const N = chunks.length;
  return pool
    .map((p) => {
      const ws = (p.segmented ?? '').split(' ').filter(Boolean);
      const norm = k1 * (1 - b + (b * ws.length) / avgdl);
      let score = 0;
      for (const t of terms) {
        const f = ws.filter((w) => w === t).length;
        if (!f) continue;
        const n = dfs.get(t) ?? 0;
        score += (fts5Idf ? Math.max(1e-6, Math.log((N - n + 0.5) / (n + 0.5))) : Math.log(1 + (N - n + 0.5) / (n + 0.5))) * ((f * (k1 + 1)) / (f + norm));
      }
      return { ...p, score };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, 20);
}

const ASKING = /什么|怎么|怎样|如何|为什么|为何|哪些|哪个|哪里|哪儿|是否|能否|可以|可否|能不能|是不是|有没有|多少|几种|吗|呢|请问|一下|一些|应该|需要|我们|你们|进行/gu;
/** Length of the longest run of the question's Han characters (asking words cut out) that the text holds. */
function longestRun(question: string, text: string): number {
  const runs = question.normalize('NFKC').replace(ASKING, ' ').match(/\p{Script=Han}+/gu) ?? [];
  const t = text.normalize('NFKC');
  let best = 0;
  for (const r of runs) {
    const cs = [...r];
    for (let i = 0; i < cs.length; i++) for (let j = i + best + 1; j <= cs.length; j++) {
      if (t.includes(cs.slice(i, j).join(''))) best = j - i;
      else break;
    }
  }
  return best;
}

const diversify = (ranked: Scored[]): Scored[] => {
  const head: Scored[] = [];
  const later: Scored[] = [];
  const seen = new Set<string>();
  for (const p of ranked) {
    const key = `${p.docId}\u0000${p.page ?? ''}`;
    if (head.length < RERANK_WEIGHTS.diverseTop && !seen.has(key)) {
      seen.add(key);
      head.push(p);
    } else later.push(p);
  }
  return [...head, ...later];
};

function reorder(question: string, pool: Passage[], v: Variant): Scored[] {
  let ranked = rerank(question, v.okapi ? okapi(question, pool, v.okapi.k1, v.okapi.b, v.okapi.fts5Idf) : pool, { ...RERANK_WEIGHTS, ...v.weights });
  if (v.prev) {
    const withPrev = pool.map((p) => {
      const c = previous(p);
      return c ? { ...p, text: `${c.text}\n${p.text}`, segmented: `${c.segmented} ${p.segmented ?? ''}` } : p;
    });
    const ctx = new Map(rerank(question, withPrev).map((p) => [p.text, p.score] as const));
    const own = new Map(pool.map((p, i) => [p.text, withPrev[i]!.text] as const));
    ranked = ranked.map((p) => ({ ...p, score: p.score + v.prev * (ctx.get(own.get(p.text) ?? '') ?? 0) })).sort((a, b) => b.score - a.score);
  }
  if (v.phrase) {
    ranked = ranked
      .map((p) => {
        const L = longestRun(question, v.phraseHeading ? p.text.split('\n', 1)[0]!.slice(0, 120) : p.text);
        return { ...p, score: p.score * (1 + v.phrase! * (L >= 3 ? Math.min(1, (L - 2) / 3) : 0)) };
      })
      .sort((a, b) => b.score - a.score);
  }
  if (v.page) {
    const sums = new Map<string, number>();
    for (const p of ranked) sums.set(`${p.docId}|${p.page}`, (sums.get(`${p.docId}|${p.page}`) ?? 0) + p.score);
    ranked = ranked.map((p) => ({ ...p, score: p.score + v.page * (sums.get(`${p.docId}|${p.page}`)! - p.score) })).sort((a, b) => b.score - a.score);
  }
  if (v.fbWeight) {
    const words = new Map(pool.map((p) => [p.text, (p.segmented ?? '').split(' ').filter(Boolean)] as const));
    const asked = new Set(queryTerms(question, { expand: true }).map((t) => t.slice(1, -1)));
    const fb = ranked.slice(0, v.fbDocs);
    const total = fb.reduce((s, p) => s + p.score, 0) || 1;
    const rel = new Map<string, number>();
    for (const p of fb) {
      const ws = words.get(p.text) ?? [];
      for (const w of ws) if (!HAN1.test(w) && !STOP.test(w) && !asked.has(w)) rel.set(w, (rel.get(w) ?? 0) + p.score / total / ws.length);
    }
    const n = pool.length;
    const df = (w: string) => pool.filter((p) => words.get(p.text)!.includes(w)).length;
    const expansion = [...rel.entries()].sort((a, b) => b[1] - a[1]).slice(0, v.fbTerms);
    const z = expansion.reduce((s, e) => s + e[1], 0) || 1;
    const idf = new Map(expansion.map(([w]) => [w, Math.log(1 + (n + 1) / (df(w) + 0.5))]));
    const avg = pool.reduce((s, p) => s + words.get(p.text)!.length, 0) / Math.max(1, n);
    const fbScore = (p: Scored) => {
      const ws = words.get(p.text) ?? [];
      const norm = 1.2 * (0.25 + (0.75 * ws.length) / avg);
      return expansion.reduce((s, [w, pw]) => {
        const f = ws.filter((x) => x === w).length;
        return s + (f ? ((pw / z) * idf.get(w)! * f * 2.2) / (f + norm) : 0);
      }, 0);
    };
    const fbs = ranked.map(fbScore);
    const fbTop = Math.max(...fbs, 1e-9);
    const top = Math.max(...ranked.map((p) => p.score), 1e-9);
    ranked = ranked.map((p, i) => ({ ...p, score: (1 - v.fbWeight) * (p.score / top) + v.fbWeight * (fbs[i]! / fbTop) })).sort((a, b) => b.score - a.score);
  }
  return diversify(ranked);
}

async function poolOf(q: string, v: Variant): Promise<Passage[]> {
  const first = pools.get(`${v.depth}|${q}`)!;
  if (!v.secondPass) return first;
  const asked = new Set(queryTerms(q, { expand: true }).map((t) => t.slice(1, -1)));
  const rel = new Map<string, number>();
  const top = rerank(q, first).slice(0, v.secondPass.fbDocs);
  const total = top.reduce((s, p) => s + p.score, 0) || 1;
  const seg = new Map(first.map((p) => [p.text, (p.segmented ?? '').split(' ').filter(Boolean)] as const));
  for (const p of top) {
    const ws = seg.get(p.text) ?? [];
    for (const w of ws) if (!HAN1.test(w) && !STOP.test(w) && !asked.has(w) && !/[^\p{L}\p{N}]/u.test(w)) rel.set(w, (rel.get(w) ?? 0) + p.score / total / ws.length);
  }
  const extra = [...rel.entries()].sort((a, b) => b[1] - a[1]).slice(0, v.secondPass.fbTerms).map(([w]) => w);
  const second = await search(db, ids, `${q} ${extra.join(' ')}`, 20, { expand: true });
  const seen = new Set(first.map((p) => p.text));
  // The second pass's scores are on another scale: its passages join below the first pass's weakest.
  const floor = Math.min(...first.map((p) => p.score));
  const top2 = Math.max(...second.map((p) => p.score), 1e-9);
  return [...first, ...second.filter((p) => !seen.has(p.text)).map((p) => ({ ...p, score: floor * (p.score / top2) }))];
}
const run = (s: HardSet, v: Variant) =>
  evaluate(s, async (q) => reorder(q, await poolOf(q, v), v), (_q, ps) => nothingRelevant(ps), (ps) => citedPassages(ps), looksLikeNavigation);

const base: Variant = { depth: 20, fbDocs: 0, fbTerms: 0, fbWeight: 0, page: 0, prev: 0 };
const variants: Variant[] = [base];
for (const depth of depths) if (depth !== 20) variants.push({ ...base, depth });
for (const depth of [20, 40]) for (const fbDocs of [3, 5, 10]) for (const fbTerms of [10, 20]) for (const fbWeight of [0.1, 0.2, 0.3, 0.5]) variants.push({ ...base, depth, fbDocs, fbTerms, fbWeight });
for (const depth of [20, 40]) for (const page of [0.1, 0.2, 0.3, 0.5]) variants.push({ ...base, depth, page });
for (const depth of [20, 40]) for (const prev of [0.1, 0.2, 0.3, 0.5, 1]) variants.push({ ...base, depth, prev });

if (process.env.PHRASE_ONLY) variants.length = 1;
if (process.env.SECOND_ONLY) {
  variants.length = 1;
  for (const fbDocs of [3, 5, 10]) for (const fbTerms of [5, 10]) variants.push({ ...base, secondPass: { fbDocs, fbTerms } });
}
if (process.env.WEIGHTS_ONLY) {
  variants.length = 1;
  for (const floor of [0.2, 0.35, 0.5]) for (const proximity of [0, 0.2, 0.35, 0.6]) for (const heading of [0.25, 0.5, 0.75, 1]) variants.push({ ...base, weights: { floor, proximity, heading } });
}
if (process.env.OKAPI_ONLY) {
  variants.length = 1;
  for (const depth of [20, 40]) for (const k1 of [0.6, 0.9, 1.2, 1.6, 2]) for (const b of [0.3, 0.5, 0.75, 0.9]) variants.push({ ...base, depth, okapi: { k1, b } });
  for (const depth of [20, 40]) for (const k1 of [1.2, 1.4, 1.6, 1.8, 2]) for (const b of [0.6, 0.75, 0.85]) variants.push({ ...base, depth, okapi: { k1, b, fts5Idf: true } });
}
if (!process.env.OKAPI_ONLY && !process.env.WEIGHTS_ONLY && !process.env.SECOND_ONLY) for (const depth of [20, 40]) for (const phrase of [0.1, 0.2, 0.3, 0.5, 1]) for (const phraseHeading of [false, true]) variants.push({ ...base, depth, phrase, phraseHeading });
const f3 = (x: number) => x.toFixed(3);
console.log('variant | tune R5 MRR abst nav | held R5 MRR abst nav');
for (const v of variants) {
  const t = await run(half(0), v);
  const h = await run(half(1), v);
  const name = `d${v.depth}${v.fbWeight ? ` rm3(${v.fbDocs},${v.fbTerms},${v.fbWeight})` : ''}${v.page ? ` page ${v.page}` : ''}${v.prev ? ` prev ${v.prev}` : ''}${v.okapi ? ` k1 ${v.okapi.k1} b ${v.okapi.b}${v.okapi.fts5Idf ? ' fts5idf' : ''}` : ''}${v.weights ? ` ${JSON.stringify(v.weights)}` : ''}${v.secondPass ? ` 2nd pass(${v.secondPass.fbDocs},${v.secondPass.fbTerms})` : ''}${v.phrase ? ` phrase${v.phraseHeading ? '(head)' : ''} ${v.phrase}` : ''}`;
  console.log(`${name.padEnd(24)} | ${f3(t.recall5)} ${f3(t.mrr)} ${f3(t.abstainRight)} ${t.navigationInTop5} | ${f3(h.recall5)} ${f3(h.mrr)} ${f3(h.abstainRight)} ${h.navigationInTop5}`);
}
await db.destroy();
