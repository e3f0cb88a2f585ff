import { foldAnswerEvents } from '../../contract/answer-fold';
import { now, type Db } from '../db/database';
import type { AnswerStatus } from '../db/schema';
import { answerEventStore, type AnswerEventBus, type AnswerEventWriter } from './events';

export const RESTART_MESSAGE = '服务重启，回答被中断，请重新提问';

/** Rolls back an answer's end whose row changed between reading and writing it (another node claimed or ended it). */
class ChangedMeanwhile extends Error {}

export type Outcome = { status: 'done' | 'stopped' } | { status: 'failed'; message: string };

/**
 * Writes the end of an answer: the folded answer on the row and the terminal event, in one
 * transaction, after every event handed in before it. `onlyFrom`: ended only from these states.
 * Resolves false when nothing was written (deleted, already ended, or owned by another node).
 */
export type Finalise = (questionId: string, outcome: Outcome, onlyFrom?: AnswerStatus[]) => Promise<boolean>;

export function answerEnd({ db, writer, bus, nodeId }: { db: Db; writer: AnswerEventWriter; bus: AnswerEventBus; nodeId?: string }): Finalise {
  return async function finalise(questionId, outcome, onlyFrom) {
    await writer.drained(questionId); // the end comes after every event handed in before it
    writer.forget(questionId);
    const stored = await db
      .transaction()
      .execute(async (tx) => {
        const row = await tx.selectFrom('questions').select(['status', 'node_id']).where('id', '=', questionId).executeTakeFirst();
        if (!row) writer.moved(questionId); // deleted meanwhile: what it wrote is gone with it
        if (!row || (onlyFrom && !onlyFrom.includes(row.status))) return null;
        if (nodeId !== undefined && (row.status === 'running' ? row.node_id !== nodeId : !onlyFrom)) {
          // Several nodes: taken over by another node (this one was taken for dead) or already ended
          // there; that node wrote the end, and whatever this one wrote since is dropped.
          await tx.deleteFrom('answer_event_log').where('question_id', '=', questionId).where('node_id', '=', nodeId).execute();
          writer.moved(questionId);
          return null;
        }
        // The events in the answer event log join the others for good, with the end.
        await writer.moveTo(tx, questionId);
        const so = foldAnswerEvents(await answerEventStore(tx).after(questionId));
        const ended = await tx
          .updateTable('questions')
          .set({
            status: outcome.status,
            answer: so.answer,
            thinking: so.thinking,
            steps: JSON.stringify(so.steps),
            citations: JSON.stringify(so.citations),
            error: outcome.status === 'failed' ? outcome.message : null,
            finished_at: now(),
          })
          .where('id', '=', questionId)
          // Several nodes: claimed (or ended) by another node since it was read — nothing of this end is kept.
          .where('status', '=', row.status)
          .executeTakeFirst();
        if (Number(ended.numUpdatedRows) !== 1) throw new ChangedMeanwhile();
        return answerEventStore(tx).append(
          questionId,
          outcome.status === 'failed' ? { event: 'error', data: { status: 'failed', message: outcome.message } } : { event: 'done', data: { status: outcome.status } },
        );
      })
      .catch((err: unknown) => {
        if (err instanceof ChangedMeanwhile) return null;
        throw err;
      });
    if (!stored) return false;
    writer.moved(questionId);
    bus.publish(questionId, { type: 'event', event: stored });
    return true;
  };
}
