// The hard retrieval set (bench/retrieval-eval.ts) evaluated on its two halves: questions at even
// positions (the half the second stage and abstention rule may be tuned on) and at odd positions
// (held out), retrieval and the answer without a model. Run: npx tsx bench/retrieval-hard-halves.ts [index-dir] — with a directory, the
// parsed index is kept there and reused by the next run (parsing the eight documents takes minutes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/server/db/database';
import { looksLikeNavigation } from '../src/server/parsing/navigation';
import { hybridSearch, RERANK_DEPTH } from '../src/server/retrieval/fusion';
import { nothingRelevant, citedPassages } from '../src/server/retrieval/rerank';
import { root } from './lib';
import { evaluate, evaluateAnswers, halfOf, indexHardSet, loadHardSet, type AnswerFigures, type HardFigures, type HardSet } from './retrieval-eval';
import { localAnswerer } from './retrieval-answer';

const row = (name: string, f: HardFigures, a: AnswerFigures) =>
  `${name.padEnd(10)} ${f.recall1.toFixed(3)}  ${f.recall5.toFixed(3)}  ${f.mrr.toFixed(3)}  ${f.citationPrecision.toFixed(3)}  ${f.abstainRight.toFixed(3)}  ${f.answerRight.toFixed(3)}  ${String(f.navigationInTop5).padStart(3)}  ${a.answerRecall.toFixed(3)}  ${a.abstainRight.toFixed(3)}  ${a.abstainWrong.toFixed(3)}`;

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
    const answers = (s: HardSet, label: string) => evaluateAnswers(s, localAnswerer(db), label);
    const all = await run(set);
    const even = await answers(halfOf(set, 'even'), 'even');
    const odd = await answers(halfOf(set, 'odd'), 'odd');
    // Retrieval (R@1 … nav) and the answer without a model (ansR: answer-level recall; aAbst / aWrong: it abstains on unanswerable / answerable questions).
    console.log('set        R@1    R@5    MRR    cite   abst   ansOK  nav  ansR   aAbst  aWrong');
    console.log(row('all', all, await answers(set, 'all')));
    console.log(row('even(tune)', await run(halfOf(set, 'even')), even));
    console.log(row('odd(held)', await run(halfOf(set, 'odd')), odd));
    // Each question the answer missed: the answering page, retrieval's ranking, the answer's citations.
    if (process.env.CSAI_BENCH_VERBOSE) console.log([...even.misses, ...odd.misses].join('\n'));
  } finally {
    await db.destroy();
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}
void main();
