// The hard retrieval set (bench/retrieval-eval.ts) evaluated on its two halves: questions at even
// positions (the half the second stage and abstention rule may be tuned on) and at odd positions
// (held out). Run: npx tsx bench/retrieval-hard-halves.ts [index-dir] — with a directory, the
// parsed index is kept there and reused by the next run (parsing the eight documents takes minutes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/server/db/database';
import { looksLikeNavigation } from '../src/server/parsing/navigation';
import { hybridSearch, RERANK_DEPTH } from '../src/server/retrieval/fusion';
import { nothingRelevant, citedPassages } from '../src/server/retrieval/rerank';
import { root } from './lib';
import { evaluate, indexHardSet, loadHardSet, type HardFigures, type HardSet } from './retrieval-eval';

const half = (set: HardSet, parity: number): HardSet => ({ ...set, questions: set.questions.filter((_, i) => i % 2 === parity) });
const row = (name: string, f: HardFigures) =>
  `${name.padEnd(10)} ${f.recall1.toFixed(3)}  ${f.recall5.toFixed(3)}  ${f.mrr.toFixed(3)}  ${f.citationPrecision.toFixed(3)}  ${f.abstainRight.toFixed(3)}  ${f.answerRight.toFixed(3)}  ${String(f.navigationInTop5).padStart(3)}`;

async function main() {
  const set = loadHardSet(root);
  const keep = process.argv[2];
  const dir = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'csai-hard-halves-'));
  const fresh = !fs.existsSync(path.join(dir, 'indexed'));
  fs.mkdirSync(dir, { recursive: true });
  const db = await openDatabase(dir);
  try {
    if (fresh) {
      await indexHardSet(db, root, set);
      fs.writeFileSync(path.join(dir, 'indexed'), '');
    }
    const run = (s: HardSet) => evaluate(s, (q, ids) => hybridSearch(db, ids, q, RERANK_DEPTH), (_q, ps) => nothingRelevant(ps), (ps) => citedPassages(ps), looksLikeNavigation);
    const all = await run(set);
    console.log('set        R@1    R@5    MRR    cite   abst   ansOK  nav');
    console.log(row('all', all));
    console.log(row('even(tune)', await run(half(set, 0))));
    console.log(row('odd(held)', await run(half(set, 1))));
    if (process.env.CSAI_BENCH_VERBOSE) console.log(all.misses.join('\n'));
  } finally {
    await db.destroy();
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}
void main();
