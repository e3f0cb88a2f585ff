// Retrieval quality and speed, each figure against a baseline measured in the same run.
// - quality: the committed question set (bench/data/retrieval-set.json, Chinese and English
//   questions over the real test PDFs with the page holding the answer). Each question is searched
//   in its own document; recall@5 = share of questions whose page is among the top-5 passages'
//   pages, MRR = mean of 1/rank of the first passage on that page. Targets: recall@5 >= 0.8
//   BM25-only (MRR is shown, no target).
// - fused: the same questions through hybridSearch (BM25 and cosine similarity fused by reciprocal
//   rank, k = 60). There is no internet here, so no real embedding model: the vectors come from a
//   local OpenAI-compatible /embeddings stub on 127.0.0.1 computing a purely lexical hashing
//   embedding (character n-grams into 256 dims, tests/server/embedding-server.ts). Its figures show
//   that the pipeline (indexing, storage, query embedding, fusion) works end to end, not the quality
//   a neural model such as bge-m3 would give. Also fused search p95 vs BM25 search p95, same run.
// - speed: query p95 of search() over 10k and 100k synthetic chunks (real chunks copied with varied
//   words) vs a bare `SELECT rowid FROM kb_chunks_fts WHERE kb_chunks_fts MATCH ? LIMIT 5` on the
//   same table (the bare query neither ranks nor filters by document, so it is a floor, not a
//   like-for-like). Target: search p95 <= 20 ms at 100k chunks, shown as a ratio to that budget.
//   search() ranks at most ~2000 candidates per query (the rarest tokens, then the best 40
//   re-scored with all of them; see search.ts), so two quality checks go with the speed: the set
//   again with the 100k chunks in the index, and the set with the candidate budget forced down to
//   20 passages, which sends nearly every question through that pruned path.
// Needs `node scripts/fetch-test-docs.mjs` first (the PDFs in .tmp/test-docs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'kysely';
import { z } from 'zod';
import { usersRepo } from '../src/server/auth/accounts';
import { now, openDatabase, type Db } from '../src/server/db/database';
import { parsePdf } from '../src/server/parsing/pdf';
import { storeParseResult } from '../src/server/parsing/index-store';
import { embedDocument, embeddingClient, type EmbeddingSettings } from '../src/server/retrieval/embeddings';
import { hybridSearch } from '../src/server/retrieval/fusion';
import { startEmbeddingServer } from '../tests/server/embedding-server';
import { search } from '../src/server/retrieval/search';
import { matchQuery } from '../src/server/text/segment';
import { root, type Figure } from './lib';
import { evaluate, evaluateAnswers, FRESH_SETS, halfOf, indexHardSet, loadFreshSet, loadHardSet, type AnswerFigures, type HardSet } from './retrieval-eval';
import { localAnswerer, outcomeAt, tuneAbstention, MAX_FALSE_ABSTENTION, type TuneRow } from './retrieval-answer';
import { PASSAGES_PER_ANSWER } from '../src/server/answering/answers';
import { knowledgePort } from '../src/server/retrieval/knowledge-port';
import { looksLikeNavigation } from '../src/server/parsing/navigation';
import { ABSTAIN_BELOW, nothingRelevant, citedPassages } from '../src/server/retrieval/rerank';
import { RERANK_DEPTH } from '../src/server/retrieval/fusion';

const retrievalSetSchema = z.object({
  docs: z.record(z.string(), z.object({ file: z.string(), pages: z.number().int().positive() })),
  questions: z.array(z.object({ doc: z.string(), lang: z.enum(['zh', 'en']), question: z.string().min(4), page: z.number().int().positive() })),
});

const docsDir = path.join(root, '.tmp/test-docs');

async function addDocument(db: Db, ownerId: string, id: string, title: string) {
  await db
    .insertInto('kb_documents')
    .values({ id, owner_id: ownerId, folder_id: null, title, type: 1, mime: 'application/pdf', size: 0, sha256: id, storage_name: id, parse_status: 1, parse_progress: 0, progress_texts: '[]', page_count: null, markdown: null, created_at: now(), updated_at: now() })
    .execute();
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

export async function run(): Promise<Figure[]> {
  return [...(await hardFigures()), ...(await originalFigures())];
}

/**
 * Issue 17's set (bench/data/retrieval-hard.json, see bench/retrieval-eval.ts): every question
 * searched in all eight documents at once, BM25 alone and with the second stage (rerank.ts).
 * Targets: recall@5 >= 0.95, MRR >= 0.8, abstention right on >= 80 % of the unanswerable
 * questions, no navigation passage in any top 5. Then the answer without a model on the set's
 * halves (answerFigures) and on the fresh set, never tuned on (freshFigures), in the same index.
 */
async function hardFigures(): Promise<Figure[]> {
  const set = loadHardSet(root);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-bench-hard-'));
  const db = await openDatabase(dataDir);
  try {
    await indexHardSet(db, root, set);
    const bm25 = await evaluate(set, (q, ids) => search(db, ids, q, 5), (_q, ps) => ps.length === 0, (ps) => ps.slice(0, 3), looksLikeNavigation);
    const reranked = await evaluate(set, (q, ids) => hybridSearch(db, ids, q, RERANK_DEPTH), (_q, ps) => nothingRelevant(ps), (ps) => citedPassages(ps), looksLikeNavigation);
    if (process.env.CSAI_BENCH_VERBOSE) console.log(reranked.misses.join('\n'));
    const size = `${set.questions.length} questions, ${Object.keys(set.docs).length} documents, ${reranked.unanswerable} unanswerable`;
    return [
      { name: `hard set (${size}): recall@1, BM25 + rerank`, value: reranked.recall1.toFixed(3), baseline: `BM25 alone ${bm25.recall1.toFixed(3)}`, ratio: bm25.recall1 ? reranked.recall1 / bm25.recall1 : 0 },
      { name: 'hard set: recall@5, BM25 + rerank', value: reranked.recall5.toFixed(3), baseline: 'all answerable questions (1.000)', ratio: reranked.recall5, target: { op: '>=', ratio: 0.95 } },
      { name: 'hard set: recall@5, BM25 alone', value: bm25.recall5.toFixed(3), baseline: 'all answerable questions (1.000)', ratio: bm25.recall5 },
      { name: 'hard set: MRR, BM25 + rerank', value: reranked.mrr.toFixed(3), baseline: `BM25 alone ${bm25.mrr.toFixed(3)}`, ratio: reranked.mrr, target: { op: '>=', ratio: 0.8 } },
      { name: `hard set: table questions recall@5 (${reranked.tables})`, value: reranked.tableRecall5.toFixed(3), baseline: 'all (1.000)', ratio: reranked.tableRecall5 },
      { name: 'hard set: citation precision (quoted passages on the answering page)', value: reranked.citationPrecision.toFixed(3), baseline: `BM25 top 3 quoted ${bm25.citationPrecision.toFixed(3)}`, ratio: reranked.citationPrecision },
      { name: 'hard set: abstention right on unanswerable questions', value: reranked.abstainRight.toFixed(3), baseline: 'all (1.000)', ratio: reranked.abstainRight, target: { op: '>=', ratio: 0.8 } },
      { name: 'hard set: answerable questions not abstained on', value: reranked.answerRight.toFixed(3), baseline: 'all (1.000)', ratio: reranked.answerRight },
      { name: 'hard set: navigation passages not asked for in any top 5 (the contents found for a question about the outline are)', value: String(reranked.navigationInTop5), baseline: `BM25 alone ${bm25.navigationInTop5}`, ratio: reranked.navigationInTop5, target: { op: '<=', ratio: 0 } },
      ...(await answerFigures(db, set)),
      ...(await freshFigures(db, set)),
    ];
  } finally {
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The answer itself, without a model (the local engine over the passages answers.ts
 * gives it), on the hard set's two halves. Answer-level recall = share of answerable questions
 * whose answering page is among the answer's citations; it must equal recall@5 of the passages the
 * answer was given. The abstention threshold (ABSTAIN_BELOW) is tuned on the even half
 * (bench/retrieval-answer.ts tuneAbstention) and the odd half is held out; the same rule tuned on
 * the odd half is reported on the even half too (the halves swapped): held out for the threshold
 * alone. The lexicon's last three blocks (text/synonyms.ts) were written on the odd half's misses,
 * then on both halves' and the first fresh set's, then on the second fresh set's, so for the lexicon
 * no half is held out: the seventh fresh set is (freshFigures). Neither half is untouched by everything: the second stage's weights were chosen
 * on the even half (rerank.ts RERANK_WEIGHTS; the same grid scored on the odd half instead,
 * bench/retrieval-hard-tune.ts --tune-odd, picks the same weights: even half recall@5 0.920), and the
 * lexicon's earlier blocks were written reading misses of both halves (text/synonyms.ts). The even
 * half's five remaining misses are questions asked in other words than their page (分段函数 for the
 * cases environment, 为什么要升级 for 升级的必要性; 国内镜像 for 大陆地区的源 was found by the
 * lexicon's last block): none of the
 * second-stage variants tried (a deeper candidate list, the page's words, shares of the question's
 * characters) nor a dictionary-pivot expansion (CC-CEDICT glosses) found any of them without losing
 * others, nor did weighing the question's tokens by their informativeness in general Chinese text
 * (jieba's idf list, in the first stage and the second; commit 31bde29, bench/retrieval-hard-general.ts
 * there: chosen on the odd half, the even half stayed at 0.920); see the miss lines under CSAI_BENCH_VERBOSE.
 */
export async function answerFigures(db: Db, set: HardSet): Promise<Figure[]> {
  const answer = localAnswerer(db);
  const docIds = Object.keys(set.docs);
  const knowledge = knowledgePort(db);
  const rows = new Map<string, TuneRow>();
  for (const question of set.questions) {
    const passages = (await knowledge.search(docIds, question.question, PASSAGES_PER_ANSWER)).map((p, i) => ({ ...p, n: i + 1 }));
    rows.set(question.question, { question, passages });
  }
  const rowsOf = (s: HardSet) => s.questions.map((q) => rows.get(q.question)!);
  const even = halfOf(set, 'even');
  const odd = halfOf(set, 'odd');
  const tunedOnEven = tuneAbstention(rowsOf(even));
  const tunedOnOdd = tuneAbstention(rowsOf(odd));
  const shipped = { even: await evaluateAnswers(even, answer, 'even half (tuning)'), odd: await evaluateAnswers(odd, answer, 'odd half (held out for the threshold)') };
  const swapped = await evaluateAnswers(even, async (q) => outcomeAt(rows.get(q)!, tunedOnOdd), 'even half held out, threshold tuned on the odd half');
  // The misses of the answer without a model: question, answering page, retrieval's ranking, the answer's citations.
  if (process.env.CSAI_BENCH_VERBOSE) console.log([...shipped.even.misses, ...shipped.odd.misses, ...swapped.misses].join('\n'));
  const all = (pick: (f: AnswerFigures) => number, n: (f: AnswerFigures) => number) => (pick(shipped.even) * n(shipped.even) + pick(shipped.odd) * n(shipped.odd)) / (n(shipped.even) + n(shipped.odd));
  return [
    {
      name: 'answer without a model: abstention threshold tuned on the even half (the tuning half; at most 1 % of its answerable questions abstained on) = the shipped ABSTAIN_BELOW',
      value: tunedOnEven.toFixed(2),
      baseline: `shipped ${ABSTAIN_BELOW.toFixed(2)}`,
      ratio: Math.abs(tunedOnEven - ABSTAIN_BELOW),
      target: { op: '<=', ratio: 1e-9 },
    },
    ...answerRows('even half (tuning half)', shipped.even, false),
    ...answerRows('odd half (held out for the threshold; the lexicon was tuned on both halves)', shipped.odd, true),
    ...answerRows(`halves swapped: threshold ${tunedOnOdd.toFixed(2)} tuned on the odd half, even half held out for it (the lexicon was tuned on both halves)`, swapped, true),
    {
      name: 'answer without a model, both halves: abstained on the unanswerable questions (right)',
      value: all((f) => f.abstainRight, (f) => f.unanswerable).toFixed(3),
      baseline: 'all (1.000)',
      ratio: all((f) => f.abstainRight, (f) => f.unanswerable),
      target: { op: '>=', ratio: 0.8 },
    },
  ];
}

/**
 * The answer's figures on one set (or half): answer-level recall beside recall@5 of the passages
 * the answer was given, and abstention on both kinds of question. On questions held out (`held`),
 * the targets: answer-level recall equal to recall@5 and >= 0.95, false abstention <= 2 %.
 */
function answerRows(label: string, f: AnswerFigures, held: boolean): Figure[] {
  return [
    {
      name: `answer without a model, ${label}: answer-level recall (answering page among the answer's citations, ${f.answerable} answerable)`,
      value: f.answerRecall.toFixed(3),
      baseline: `retrieval recall@5 ${f.recall5.toFixed(3)}; ${f.lost} lost between them`,
      ratio: f.recall5 ? f.answerRecall / f.recall5 : 0,
      ...(held ? { target: { op: '>=' as const, ratio: 1 } } : {}),
    },
    ...(held ? [{ name: `answer without a model, ${label}: answer-level recall against the 0.95 target`, value: f.answerRecall.toFixed(3), baseline: '0.95', ratio: f.answerRecall / 0.95, target: { op: '>=' as const, ratio: 1 } }] : []),
    {
      name: `answer without a model, ${label}: abstained on answerable questions (wrong)`,
      value: f.abstainWrong.toFixed(3),
      baseline: `at most ${MAX_FALSE_ABSTENTION.toFixed(2)}`,
      ratio: f.abstainWrong / MAX_FALSE_ABSTENTION,
      ...(held ? { target: { op: '<=' as const, ratio: 1 } } : {}),
    },
    { name: `answer without a model, ${label}: abstained on unanswerable questions (right, ${f.unanswerable})`, value: f.abstainRight.toFixed(3), baseline: 'all (1.000)', ratio: f.abstainRight },
  ];
}

/**
 * The fresh sets (bench/retrieval-eval.ts FRESH_SETS): questions written after the tuning before
 * them and committed before any retrieval ran on them, through the same answer path as the hard
 * set's halves (localAnswerer, evaluateAnswers) and the shipped product exactly as it is
 * (ABSTAIN_BELOW, the lexicon, the second stage's weights): retrieval recall@5 of the passages the
 * answer was given, answer-level recall, and abstention on both kinds of question. The first set's
 * misses were read for the lexicon's block before the last two, the second's for the block before
 * the last (its first score, answer-level recall 0.898 against recall@5 0.932, was read once; the
 * rule that followed, rerank.ts alsoRetrieved, and that block made it 0.966), the third's for the
 * last block and the index's splitting of words joined by '_' (its first score, recall@5 0.909,
 * answer-level recall 0.894, one answer lost between them, was read once; they made it 0.955), the
 * fourth's for the changes after its first score (answer-level recall 0.894, read once; fusion.ts
 * namedCandidates and the lexicon's last block made it 0.940), the fifth's for the abstention rule
 * after its first score (answer-level recall 0.881 against recall@5 0.896, read once; rerank.ts
 * NAMED_COVERAGE made it 0.896), the sixth's after that rule was scored on it held out (recall@5
 * 0.955; answer-level recall 0.896 before the rule, 0.925 after), for the second abstention rule
 * (rerank.ts UNHELD_BIGRAM; 0.940), the seventh's after that rule was scored on it held out
 * (answer-level recall 0.910), the eighth's after its held-out score (answer-level recall 0.910,
 * recall@5 0.940), the ninth's after its held-out score (answer-level recall 0.881, recall@5
 * 0.925), the tenth's after its held-out score (answer-level recall 0.866, recall@5 0.881), the
 * eleventh's after its held-out score (answer-level recall 0.910 = recall@5), the twelfth's after
 * its held-out score (answer-level recall 0.866, recall@5 0.881; rerank.ts absentWords leaving out
 * code written the question's own way, and the lexicon's block before the last, made it 0.910), the
 * thirteenth's after its held-out score (answer-level recall 0.896 = recall@5; the lexicon's last
 * block made it 0.940), the fourteenth's after its held-out score (answer-level recall 0.848, recall@5
 * 0.864), the fifteenth's after its held-out score (answer-level recall 0.803, recall@5 0.818), the
 * sixteenth's after its held-out score (answer-level recall 0.844, recall@5 0.859; the lexicon's last
 * block and rerank.ts spelledOut made it 0.906 = recall@5), the seventeenth's after its held-out
 * score (answer-level recall 0.815 = recall@5; rerank.ts diversified counting each passage of a file
 * without pages as its own place, the lexicon's one-way block and English equivalents only for an
 * English question made it 0.923), the eighteenth's after its held-out score (answer-level recall
 * 0.923 = recall@5; the lexicon's one-way entries read on it and the whole pool made it 0.969), the
 * nineteenth's after its held-out score (answer-level recall 0.846 = recall@5; the dictionary's
 * English words for a Chinese question over English passages made it 0.877), the twentieth's after
 * its held-out score (answer-level recall 0.923 = recall@5; a footnote's mark split from its word
 * in the index and a continued section's heading counting as the passage's left it there), the
 * twenty-first's after its held-out score (answer-level recall 0.877, recall@5 0.892; the lexicon's
 * entries read on it made it 0.954 = recall@5), the twenty-second's after its held-out score
 * (answer-level recall 0.877 = recall@5; the lexicon's entries read on it made it 0.892), the
 * twenty-third's after its held-out score (answer-level recall 0.862, recall@5 0.892; a gloss in
 * brackets no longer counted as a name the documents lack, and the lexicon's entries read on it,
 * made it 0.908 = recall@5), the twenty-fourth's after its held-out score (answer-level recall 0.923
 * = recall@5; a pasted symbol's commands weighed as whole words, and the lexicon's entries read on
 * it, made it 0.969), the twenty-fifth's after its held-out score (answer-level recall 0.831 = recall@5,
 * six of its misses on contents pages; the lexicon's entries read on it made it 0.877), the
 * twenty-sixth's after its held-out score (answer-level recall 0.954 = recall@5, its three misses
 * symbols pasted from a symbol table; unicode-math's symbol names and a pasted symbol's passages as
 * candidates made it 1.000), the twenty-seventh's after its held-out score (answer-level recall
 * 0.785, recall@5 0.800, five of its misses on contents pages; tables of contents searched for
 * questions about the outline made it 0.862), the twenty-eighth's after its held-out score
 * (answer-level recall 0.877 = recall@5; the lexicon's entries and the changes read on it made it
 * 0.954), the twenty-ninth's after its held-out score (answer-level recall 0.938, recall@5 0.954;
 * the changes read on it made it 0.969), the thirtieth's after its held-out score (answer-level
 * recall 0.923 = recall@5; amssymb's shapes made it 0.938), the thirty-first's after its held-out
 * score (answer-level recall 0.908, recall@5 0.923, three answerable questions abstained on; the
 * lexicon's entries read on it made it 0.938): all thirty-one are reported as tuning data. The
 * thirty-second and the thirty-third (written after the thirty-second's score, with no change
 * since), held out from everything, carry the targets; their misses have not been read.
 * Their documents are the hard set's: one index.
 */
async function freshFigures(db: Db, hard: HardSet): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const [which, label, held] of [
    ['first', 'first fresh set (tuning data: the lexicon block before the last two was written on its misses)', false],
    ['second', 'second fresh set (tuning data: the lexicon block before the last was written on its misses)', false],
    ['third', "third fresh set (tuning data: the last lexicon block and the '_' word parts were written on its misses)", false],
    ['fourth', 'fourth fresh set (tuning data: the changes after its first score were made on its misses)', false],
    ['fifth', 'fifth fresh set (tuning data: the changes after its first score were made on its misses)', false],
    ['sixth', 'sixth fresh set (tuning data: the second abstention rule was made on its misses)', false],
    ['seventh', 'seventh fresh set (tuning data: its misses were read after its held-out score)', false],
    ['eighth', 'eighth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['ninth', 'ninth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['tenth', 'tenth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['eleventh', 'eleventh fresh set (tuning data: its misses were read after its held-out score)', false],
    ['twelfth', 'twelfth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['thirteenth', 'thirteenth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['fourteenth', 'fourteenth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['fifteenth', 'fifteenth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['sixteenth', 'sixteenth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['seventeenth', 'seventeenth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['eighteenth', 'eighteenth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['nineteenth', 'nineteenth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['twentieth', 'twentieth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['twentyfirst', 'twenty-first fresh set (tuning data: its misses were read after its held-out score)', false],
    ['twentysecond', 'twenty-second fresh set (tuning data: its misses were read after its held-out score)', false],
    ['twentythird', 'twenty-third fresh set (tuning data: its misses were read after its held-out score)', false],
    ['twentyfourth', 'twenty-fourth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['twentyfifth', 'twenty-fifth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['twentysixth', 'twenty-sixth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['twentyseventh', 'twenty-seventh fresh set (tuning data: its misses were read after its held-out score)', false],
    ['twentyeighth', 'twenty-eighth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['twentyninth', 'twenty-ninth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['thirtieth', 'thirtieth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['thirtyfirst', 'thirty-first fresh set (tuning data: its misses were read after its held-out score)', false],
    ['thirtysecond', 'thirty-second fresh set, written from the documents alone and never tuned on', true],
    ['thirtythird', 'thirty-third fresh set, written from the documents alone and never tuned on', true],
    ['thirtyfourth', 'thirty-fourth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['thirtyfifth', 'thirty-fifth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['thirtysixth', 'thirty-sixth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['thirtyseventh', 'thirty-seventh fresh set (tuning data: its misses were read after its held-out score)', false],
    ['thirtyeighth', 'thirty-eighth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['thirtyninth', 'thirty-ninth fresh set (tuning data: its misses were read after its held-out score)', false],
    ['fortieth', 'fortieth fresh set, written from the documents alone and never tuned on', true],
  ] as const) {
    const fresh = loadFreshSet(root, which);
    if (!isDeepStrictEqual(fresh.docs, hard.docs)) throw new Error(`bench/data/${FRESH_SETS[which]} must name the documents of retrieval-hard.json: the bench searches all sets in one index`);
    const f = await evaluateAnswers(fresh, localAnswerer(db), `${which} fresh set`);
    // A held-out set's misses are never printed: reading them would make it tuning data.
    if (process.env.CSAI_BENCH_VERBOSE && !held) console.log(f.misses.join('\n'));
    const name = `${label} (${fresh.questions.length} questions)`;
    figures.push(
      {
        name: `answer without a model, ${name}: retrieval recall@5 (answering page among the first 5 of the ${PASSAGES_PER_ANSWER} passages the answer was given, ${f.answerable} answerable)`,
        value: f.recall5.toFixed(3),
        baseline: 'all answerable questions (1.000)',
        ratio: f.recall5,
      },
      ...answerRows(name, f, held),
    );
  }
  return figures;
}

async function originalFigures(): Promise<Figure[]> {
  const set = retrievalSetSchema.parse(JSON.parse(fs.readFileSync(path.join(root, 'bench/data/retrieval-set.json'), 'utf8')));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-bench-retrieval-'));
  const db = await openDatabase(dataDir);
  try {
    const owner = await usersRepo(db).create({ email: 'r@example.com', phone: null, name: '检索', password_hash: 'x', department_id: null, status: 'active' });
    for (const [key, doc] of Object.entries(set.docs)) {
      const file = path.join(docsDir, doc.file);
      if (!fs.existsSync(file)) throw new Error(`${file} is missing: run node scripts/fetch-test-docs.mjs`);
      await addDocument(db, owner.id, key, doc.file);
      await storeParseResult(db, key, await parsePdf(file, () => {}));
    }

    // Quality.
    let hits = 0;
    let reciprocal = 0;
    const misses: string[] = [];
    for (const q of set.questions) {
      const passages = await search(db, [q.doc], q.question, 5);
      const rank = passages.findIndex((p) => p.page === q.page);
      if (rank >= 0) {
        hits++;
        reciprocal += 1 / (rank + 1);
      } else misses.push(`  miss: [${q.doc} p.${q.page}] ${q.question} → pages ${passages.map((p) => p.page).join(',') || '(none)'}`);
    }
    const recall = hits / set.questions.length;
    const mrr = reciprocal / set.questions.length;
    if (process.env.CSAI_BENCH_VERBOSE) console.log(misses.join('\n'));

    const figures: Figure[] = [
      { name: `BM25-only recall@5 (${set.questions.length} questions; ${misses.length} missed)`, value: recall.toFixed(3), baseline: 'all questions (1.000)', ratio: recall, target: { op: '>=', ratio: 0.8 } },
      { name: 'BM25-only MRR', value: mrr.toFixed(3), baseline: 'perfect ranking (1.000)', ratio: mrr },
    ];

    figures.push(...(await fusedFigures(db, set.questions, { recall, mrr })));

    const bm25Quality = async (budget?: number) => {
      let found = 0;
      let rr = 0;
      for (const q of set.questions) {
        const rank = (await search(db, [q.doc], q.question, 5, { budget })).findIndex((p) => p.page === q.page);
        if (rank >= 0) {
          found++;
          rr += 1 / (rank + 1);
        }
      }
      return { recall: found / set.questions.length, mrr: rr / set.questions.length };
    };
    const forced = await bm25Quality(20);
    figures.push(
      { name: 'BM25-only recall@5 with the candidate budget forced to 20 passages (pruned path)', value: forced.recall.toFixed(3), baseline: `default budget ${recall.toFixed(3)}`, ratio: recall ? forced.recall / recall : 0 },
      { name: 'BM25-only MRR with the candidate budget forced to 20 passages (pruned path)', value: forced.mrr.toFixed(3), baseline: `default budget ${mrr.toFixed(3)}`, ratio: mrr ? forced.mrr / mrr : 0 },
    );

    // Speed: a synthetic document grown to 10k, then 100k chunks.
    const real = await db.selectFrom('kb_chunks').select(['page', 'text', 'segmented']).execute();
    await addDocument(db, owner.id, 'synthetic', 'synthetic');
    const words = ['catalyst', 'benzene', 'kinase', 'solvent', 'ligand', '催化剂', '溶剂', '配体', 'polymer', '晶体'];
    let inserted = 0;
    const grow = async (total: number) => {
      for (; inserted < total; ) {
        const rows = Array.from({ length: Math.min(500, total - inserted) }, (_, i) => {
          const n = inserted + i;
          const src = real[n % real.length]!;
          const extra = `${words[n % words.length]} ${words[(n * 7) % words.length]} v${n}`;
          return { doc_id: 'synthetic', ordinal: n, page: src.page, bbox: null, text: `${src.text} ${extra}`, segmented: `${src.segmented} ${extra}` };
        });
        await db.insertInto('kb_chunks').values(rows).execute();
        inserted += rows.length;
      }
    };
    const queries = set.questions.map((q) => q.question);
    for (const size of [10_000, 100_000]) {
      await grow(size);
      const searchTimes: number[] = [];
      const bareTimes: number[] = [];
      // CPU time of the whole process (all its threads) per search: less swayed than wall time by
      // other processes on a busy machine.
      const searchCpu: number[] = [];
      for (let round = 0; round < 3; round++) {
        for (const q of queries) {
          const match = matchQuery(q);
          if (!match) continue;
          let t = performance.now();
          const cpu = process.cpuUsage();
          await search(db, ['synthetic'], q, 5);
          searchTimes.push(performance.now() - t);
          const used = process.cpuUsage(cpu);
          searchCpu.push((used.user + used.system) / 1000);
          t = performance.now();
          await sql`select rowid from kb_chunks_fts where kb_chunks_fts match ${match} limit 5`.execute(db);
          bareTimes.push(performance.now() - t);
        }
      }
      const s = p95(searchTimes);
      const b = p95(bareTimes);
      const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
      figures.push({ name: `search p95 at ${size / 1000}k chunks`, value: `${s.toFixed(2)} ms`, baseline: `bare FTS5 MATCH LIMIT 5 ${b.toFixed(2)} ms`, ratio: s / b });
      figures.push({ name: `search median at ${size / 1000}k chunks`, value: `${median(searchTimes).toFixed(2)} ms`, baseline: `bare FTS5 MATCH LIMIT 5 ${median(bareTimes).toFixed(2)} ms`, ratio: median(searchTimes) / median(bareTimes) });
      figures.push({ name: `search CPU time p95 at ${size / 1000}k chunks (process-wide)`, value: `${p95(searchCpu).toFixed(2)} ms`, baseline: `wall-clock p95 ${s.toFixed(2)} ms`, ratio: p95(searchCpu) / s });
      if (size === 100_000) figures.push({ name: 'search p95 at 100k chunks against the 20 ms budget', value: `${s.toFixed(2)} ms`, baseline: '20 ms', ratio: s / 20, target: { op: '<=', ratio: 1 } });
      if (size === 100_000) {
        const big = await bm25Quality();
        figures.push(
          { name: 'BM25-only recall@5 with the 100k synthetic chunks in the index', value: big.recall.toFixed(3), baseline: `without them ${recall.toFixed(3)}`, ratio: recall ? big.recall / recall : 0 },
          { name: 'BM25-only MRR with the 100k synthetic chunks in the index', value: big.mrr.toFixed(3), baseline: `without them ${mrr.toFixed(3)}`, ratio: mrr ? big.mrr / mrr : 0 },
        );
      }
    }
    return figures;
  } finally {
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * recall@5 and MRR with BM25 and embeddings fused, the embeddings from a local stub server with a
 * lexical hashing embedding (see the header), and the fused search's p95 against BM25's.
 */
async function fusedFigures(db: Db, questions: Array<{ doc: string; question: string; page: number }>, bm25: { recall: number; mrr: number }): Promise<Figure[]> {
  const stub = await startEmbeddingServer({ dims: 256 });
  try {
    const settings: EmbeddingSettings = { baseUrl: stub.url, model: 'hash-ngram-256', batchSize: 64, queryTimeoutMs: 10_000 };
    const client = embeddingClient(settings);
    for (const doc of new Set(questions.map((q) => q.doc))) await embedDocument(db, client, settings, doc);
    const opts = { embeddings: client, queryTimeoutMs: settings.queryTimeoutMs };
    let hits = 0;
    let reciprocal = 0;
    const fusedTimes: number[] = [];
    const bm25Times: number[] = [];
    for (const q of questions) {
      let t = performance.now();
      const passages = await hybridSearch(db, [q.doc], q.question, 5, opts);
      fusedTimes.push(performance.now() - t);
      t = performance.now();
      await search(db, [q.doc], q.question, 5);
      bm25Times.push(performance.now() - t);
      const rank = passages.findIndex((p) => p.page === q.page);
      if (rank >= 0) {
        hits++;
        reciprocal += 1 / (rank + 1);
      }
    }
    const recall = hits / questions.length;
    const mrr = reciprocal / questions.length;
    const label = 'BM25 + lexical hashing embedding (char n-grams, 256 dims, local stub; not a neural model)';
    return [
      { name: `fused recall@5, ${label}; ${questions.length - hits} missed`, value: recall.toFixed(3), baseline: `BM25-only ${bm25.recall.toFixed(3)}`, ratio: bm25.recall ? recall / bm25.recall : 0 },
      { name: `fused MRR, ${label}`, value: mrr.toFixed(3), baseline: `BM25-only ${bm25.mrr.toFixed(3)}`, ratio: bm25.mrr ? mrr / bm25.mrr : 0 },
      {
        name: 'fused search p95 (question embedded over HTTP on 127.0.0.1, cosine over the document, fusion)',
        value: `${p95(fusedTimes).toFixed(2)} ms`,
        baseline: `BM25 search p95 ${p95(bm25Times).toFixed(2)} ms`,
        ratio: p95(fusedTimes) / p95(bm25Times),
      },
    ];
  } finally {
    await stub.close();
  }
}
