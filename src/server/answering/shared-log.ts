import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../db/database';
import { now } from '../db/database';
import { textList } from '../db/dialect';
import { answerEvent, type AnswerEvent } from '../../contract/channel';
import type { NewAnswerEvent } from './event-types';

/**
 * The answer event log on PostgreSQL, where several nodes write it: rows are numbered
 * by the database and carry the node that wrote them; every node reads a question's rows by
 * question (index answer_event_log_question), so an answer written on one node streams from any.
 * The SQLite path keeps its rows in the writer's memory instead (events.ts, LiveEvents).
 */

const toEvent = (row: { seq: number; type: string; data: string }): AnswerEvent =>
  answerEvent.parse({ id: row.seq, event: row.type, data: JSON.parse(row.data) });

/** The last id of a question, over both tables (an answer's end moves its rows from the log to question_events). */
const lastSeq = (questionId: RawBuilder<unknown>) =>
  sql<number>`greatest(
    (select coalesce(max(seq), 0) from question_events e where e.question_id = ${questionId}),
    (select coalesce(max(seq), 0) from answer_event_log l where l.question_id = ${questionId}))`;

export const sharedLog = {
  /** The questions among `ids` that exist, each with its last event id. */
  async known(db: Executor, ids: readonly string[]): Promise<Map<string, number>> {
    const rows = await db
      .selectFrom('questions as q')
      .select(['q.id', lastSeq(sql.ref('q.id')).as('m')])
      .where(sql<boolean>`q.id in (${textList('postgres', ids)})`)
      .execute();
    return new Map(rows.map((r) => [r.id, Number(r.m)]));
  },

  /**
   * The questions' events after `afterId` (stored and in the log), by question, in order, each once.
   * One statement: it sees one snapshot, so an answer's end moving rows meanwhile loses none.
   */
  async of(db: Executor, ids: readonly string[], afterId = 0): Promise<Map<string, AnswerEvent[]>> {
    const out = new Map<string, AnswerEvent[]>();
    if (!ids.length) return out;
    const list = textList('postgres', ids);
    const { rows } = await sql<{ question_id: string; seq: number; type: string; data: string }>`
      select question_id, seq, type, data from question_events where question_id in (${list}) and seq > ${afterId}
      union
      select question_id, seq, type, data from answer_event_log where question_id in (${list}) and seq > ${afterId}
      order by question_id, seq`.execute(db);
    for (const r of rows) {
      const list = out.get(r.question_id) ?? [];
      if (list.at(-1)?.id !== r.seq) list.push(toEvent(r));
      out.set(r.question_id, list);
    }
    return out;
  },

  /** The last id of each question that has events (stored or in the log). */
  async lastIds(db: Executor, ids: readonly string[]): Promise<Map<string, number>> {
    const list = textList('postgres', ids);
    const { rows } = await sql<{ question_id: string; m: number }>`
      select question_id, max(seq) as m from (
        select question_id, seq from question_events where question_id in (${list})
        union all
        select question_id, seq from answer_event_log where question_id in (${list})) e
      group by question_id`.execute(db);
    return new Map(rows.map((r) => [r.question_id, Number(r.m)]));
  },

  /** Stores one event in question_events after every id the question has in either table (and after `liveLast`). */
  async append(db: Executor, questionId: string, event: NewAnswerEvent, liveLast: number): Promise<AnswerEvent> {
    const row = await db
      .insertInto('question_events')
      .values({
        question_id: questionId,
        seq: sql<number>`greatest(${lastSeq(sql.val(questionId))}, ${liveLast}) + 1`,
        type: event.event,
        data: JSON.stringify(event.data),
        created_at: now(),
      })
      .returning('seq')
      .executeTakeFirstOrThrow();
    return { ...event, id: row.seq };
  },

  /** An answer's end (in its transaction): the question's rows leave the log for question_events, whichever node wrote them. */
  async moveOut(tx: Executor, questionId: string): Promise<void> {
    await sql`insert into question_events (question_id, seq, type, data, created_at)
      select question_id, seq, type, data, created_at from answer_event_log
      where question_id = ${questionId} order by seq on conflict do nothing`.execute(tx);
    await tx.deleteFrom('answer_event_log').where('question_id', '=', questionId).execute();
  },
};
