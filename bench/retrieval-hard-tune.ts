// The grid search behind RERANK_WEIGHTS (src/server/retrieval/rerank.ts): every combination scored
// on the even half of the hard set (recall@5 + MRR), the odd half shown beside it as held out.
// Needs the index bench/retrieval-hard-halves.ts keeps: npx tsx bench/retrieval-hard-halves.ts /tmp/hard/db,
// then npx tsx bench/retrieval-hard-tune.ts /tmp/hard/db (about 10 minutes on a busy two-core machine).
// With --tune-odd the halves are swapped: the grid is scored on the odd half and the even half is
// shown as held out (what the weights would be if the odd half were the tuning half).
import { root } from './lib';
import { openDatabase } from '../src/server/db/database';
import { looksLikeNavigation } from '../src/server/parsing/navigation';
import { nothingRelevant, citedPassages, rerank, RERANK_WEIGHTS, type RerankWeights } from '../src/server/retrieval/rerank';
import { search, type Passage } from '../src/server/retrieval/search';
import { evaluate, loadHardSet, type HardSet } from './retrieval-eval';
const set = loadHardSet(root);
const args = process.argv.slice(2);
const tuneOdd = args.includes('--tune-odd');
const db = await openDatabase(args.find((a) => !a.startsWith('--')) ?? '/tmp/hard/db');
const cache = new Map<string, Passage[]>();
const ids = Object.keys(set.docs);
for (const q of set.questions) cache.set(q.question, await search(db, ids, q.question, 20, { expand: true }));
const half = (parity: number): HardSet => ({ ...set, questions: set.questions.filter((_, i) => i % 2 === parity) });
const run = (s: HardSet, w: RerankWeights) => evaluate(s, async (q) => rerank(q, cache.get(q)!, w), (_q, ps) => nothingRelevant(ps), (ps) => citedPassages(ps), looksLikeNavigation);
const rows: Array<[number, string]> = [];
for (const bm25 of [1, 0.7, 0.5, 0.35]) for (const chars of [0, 0.3, 0.6, 1]) for (const headingChars of [0, 0.3, 0.6, 1]) for (const perPage of [99, 1, 2]) {
  const w = { ...RERANK_WEIGHTS, bm25, chars, headingChars, perPage };
  const t = await run(half(tuneOdd ? 1 : 0), w);
  const h = await run(half(tuneOdd ? 0 : 1), w);
  rows.push([t.recall5 + t.mrr, `${JSON.stringify({ bm25, chars, headingChars, perPage })} tune R5 ${t.recall5.toFixed(3)} MRR ${t.mrr.toFixed(3)} abst ${t.abstainRight.toFixed(3)} ans ${t.answerRight.toFixed(3)} | held R5 ${h.recall5.toFixed(3)} MRR ${h.mrr.toFixed(3)} abst ${h.abstainRight.toFixed(3)} ans ${h.answerRight.toFixed(3)}`]);
}
rows.sort((a, b) => b[0] - a[0]);
for (const r of rows.slice(0, 15)) console.log(r[1]);
console.log('baseline', rows.find((r) => r[1].startsWith('{"bm25":1,"chars":0,"headingChars":0,"perPage":99}'))?.[1]);
await db.destroy();
