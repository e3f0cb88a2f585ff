// The answer without a model over the hard set's questions (bench/retrieval-eval.ts evaluateAnswers):
// the same path a question takes in answers.ts — the knowledge port's search for
// PASSAGES_PER_ANSWER passages, numbered, then the local engine — with its citations collected.
import type { Citation } from '../src/contract/channel';
import type { Db } from '../src/server/db/database';
import { PASSAGES_PER_ANSWER } from '../src/server/answering/answers';
import type { AnswerInput, AnswerSink, NumberedPassage } from '../src/server/answering/engine';
import { citedByAnswer, localEngine, NOTHING_FOUND, subjectTokens } from '../src/server/answering/local-engine';
import { nothingRelevant } from '../src/server/retrieval/rerank';
import { knowledgePort } from '../src/server/retrieval/knowledge-port';
import { createToolRegistry } from '../src/server/tools/registry';
import type { AnswerOutcome, HardSet } from './retrieval-eval';
import type { Passage } from '../src/server/retrieval/search';

/** Answers a question with the local engine over the documents, as a user with no model would get it. */
export function localAnswerer(db: Db) {
  const knowledge = knowledgePort(db);
  const engine = localEngine();
  const tools = createToolRegistry([], { restricted: false, log: { error: () => {} } });
  return async (question: string, docIds: string[]): Promise<AnswerOutcome & { retrieved: Passage[]; text: string }> => {
    const passages: NumberedPassage[] = (await knowledge.search(docIds, question, PASSAGES_PER_ANSWER)).map((p, i) => ({ ...p, n: i + 1 }));
    const citations: Citation[] = [];
    let text = '';
    const sink: AnswerSink = {
      notice: () => {},
      thinking: () => {},
      delta: (t) => (text += t),
      toolCall: () => {},
      toolResult: () => {},
      citation: (c) => citations.push(c),
      researchStep: () => {},
    };
    const input: AnswerInput = {
      question,
      history: [],
      hasSources: true,
      passages,
      options: { if_search_online: false, search_type: 'all', if_thinking: false, deepresearch: false, tools_name: [] },
      viewer: { userId: 'bench' },
      docIds,
      signal: new AbortController().signal,
    };
    await engine.answer(input, sink, tools);
    const cited = citations.flatMap((c) => ('docId' in c && c.docId ? [{ docId: c.docId, page: c.page ?? null, bbox: null, text: c.text ?? '', score: 0 }] : []));
    return { cited, abstained: text.includes(NOTHING_FOUND), retrieved: passages, text };
  };
}

/** The thresholds of coverage below which an answer abstains that tuning tries. */
export const ABSTAIN_GRID = Array.from({ length: 21 }, (_, i) => Math.round((0.1 + i * 0.01) * 100) / 100);
/** At most this share of the held-out half's answerable questions may be abstained on. */
export const MAX_FALSE_ABSTENTION = 0.02;
/**
 * At most this share of the tuning half's answerable questions may be abstained on while tuning:
 * half the budget, leaving room for questions not seen. Tuned with the whole 2 %, the threshold
 * from the odd half (0.23, one answerable question of 75 abstained on) abstained on 2 of the even
 * half's and lost 2 answers retrieval had found (answer-level recall 0.893 against recall@5 0.920).
 */
export const TUNING_FALSE_ABSTENTION = MAX_FALSE_ABSTENTION / 2;

/** One question of a half, with the passages the answer gets (PASSAGES_PER_ANSWER, reranked). */
export interface TuneRow {
  question: HardSet['questions'][number];
  passages: NumberedPassage[];
}

/**
 * The abstention threshold tuned on one half: among the grid's thresholds that abstain on at most
 * TUNING_FALSE_ABSTENTION of the half's answerable questions, the one abstaining on the most of its
 * unanswerable ones (the lowest of equals: fewer answerable questions at risk).
 */
export function tuneAbstention(rows: TuneRow[]): number {
  const answerable = rows.filter((r) => r.question.page !== null);
  const unanswerable = rows.filter((r) => r.question.page === null);
  let best = ABSTAIN_GRID[0]!;
  let bestRight = -1;
  for (const t of ABSTAIN_GRID) {
    const wrong = answerable.filter((r) => nothingRelevant(r.passages, t)).length;
    if (wrong > TUNING_FALSE_ABSTENTION * answerable.length) continue;
    const right = unanswerable.filter((r) => nothingRelevant(r.passages, t)).length;
    if (right > bestRight) {
      best = t;
      bestRight = right;
    }
  }
  return best;
}

/** The answer's outcome for a tuning row at another threshold: the local engine's own choice (citedByAnswer). */
export const outcomeAt = (row: TuneRow, threshold: number): AnswerOutcome & { retrieved: Passage[] } => {
  const cited = citedByAnswer(row.passages, subjectTokens(row.question.question), threshold);
  return { cited, abstained: cited.length === 0, retrieved: row.passages };
};
