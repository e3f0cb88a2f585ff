// Grid for weighing a question's tokens by their informativeness in general Chinese text
// (text/general-idf.ts): in the first stage (search.ts SearchOptions.weigh: exponent, weight of a
// character pair that is no word, FTS5 depth rescored) and in the second (rerank.ts
// RerankWeights.general / pair), with the number of candidates the second stage reorders. Every
// combination is scored on both halves of the hard set; the one chosen on a half (recall@5, then
// MRR) is reported on the other half, both ways round.
// Result (2026-11-29; recall@5 / MRR / abstention right, even | odd; baseline 0.920 / 0.817 / 0.818 |
// 0.987 / 0.829 / 0.818): chosen on the odd half, {depth 30, general 1, pair 0.6, second 1} gave the
// odd half 1.000 / 0.858 / 0.727 and the held-out even half 0.920 / 0.828 / 0.818; chosen on the even
// half, {depth 20, general 1, pair 0.6, second 1} gave it 0.933 / 0.837 (one question, ranked 6th
// before, moved to 5th) and the held-out odd half 1.000 / 0.851 / 0.727. The second stage alone
// (no first-stage weighing) moved MRR only (held out: even 0.817 → 0.828, odd 0.829 → 0.830), and a
// pool of the plain and the weighted lists together changed no recall@5. The even half's remaining
// misses are asked in other words than their page, which no token weighting reaches. Loading
// jieba's dictionary and idf list cost ~2 s and ~130 MB per process, so it was not kept.
// Needs the index bench/retrieval-hard-halves.ts keeps: npx tsx bench/retrieval-hard-general.ts /tmp/hard/db
import { openDatabase } from '../src/server/db/database';
import { looksLikeNavigation } from '../src/server/parsing/navigation';
import { nothingRelevant, citedPassages, rerank, RERANK_WEIGHTS } from '../src/server/retrieval/rerank';
import { search } from '../src/server/retrieval/search';
import { root } from './lib';
import { evaluate, halfOf, loadHardSet, type HardFigures } from './retrieval-eval';

const set = loadHardSet(root);
const db = await openDatabase(process.argv[2] ?? '/tmp/hard/db');
const ids = Object.keys(set.docs);
const list = (name: string, dflt: string) => (process.env[name] ?? dflt).split(',').map(Number);
const rows: Array<{ name: string; even: HardFigures; odd: HardFigures }> = [];
for (const depth of list('DEPTHS', '20,30'))
  for (const general of list('GENERAL', '0,0.5,1,1.5,2'))
    for (const pair of general ? list('PAIRS', '0.3,0.6,1') : [1])
      for (const second of list('SECOND', '0,1')) {
        const weigh = { general, pair, depth: 100 };
        const weights = { ...RERANK_WEIGHTS, general: second, pair };
        const run = (half: 'even' | 'odd') =>
          evaluate(halfOf(set, half), async (q) => rerank(q, await search(db, ids, q, depth, { expand: true, weigh }), weights), (_q, ps) => nothingRelevant(ps), (ps) => citedPassages(ps), looksLikeNavigation);
        rows.push({ name: JSON.stringify({ depth, general, pair, second }), even: await run('even'), odd: await run('odd') });
      }
const f = (x: HardFigures) => `R5 ${x.recall5.toFixed(3)} MRR ${x.mrr.toFixed(3)} abst ${x.abstainRight.toFixed(3)}`;
for (const r of rows) console.log(`${r.name.padEnd(48)} even ${f(r.even)} | odd ${f(r.odd)}`);
for (const [tune, held] of [['odd', 'even'], ['even', 'odd']] as const) {
  const best = [...rows].sort((a, b) => b[tune].recall5 - a[tune].recall5 || b[tune].mrr - a[tune].mrr)[0]!;
  console.log(`tuned on the ${tune} half: ${best.name} → ${tune} ${f(best[tune])}; held-out ${held} half ${f(best[held])}`);
  if (process.env.CSAI_BENCH_VERBOSE) console.log(best[held].misses.join('\n'));
}
await db.destroy();
