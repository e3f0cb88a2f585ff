import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Executor } from '../db/database';
import { now } from '../db/database';
import { answerEvent, type AnswerEvent, type AnswerStep, type Citation } from '../../contract/channel';

/** An event before it is stored (the store gives it its id). */
export type NewAnswerEvent = AnswerEvent extends infer E ? (E extends AnswerEvent ? Omit<E, 'id'> : never) : never;

/** What travels on the bus: a stored event, or word that the question is gone. */
export type BusMessage = { type: 'event'; event: AnswerEvent } | { type: 'deleted' };

/**
 * Fan-out of answer events to open streams. In one process an EventEmitter; across nodes the
 * same interface over PostgreSQL LISTEN/NOTIFY (publish = NOTIFY with the question id and event
 * id, subscribers read the event row), since every event is stored before it is published.
 */
export interface AnswerEventBus {
  publish(questionId: string, message: BusMessage): void;
  /** Returns the function that unsubscribes. */
  subscribe(questionId: string, listener: (message: BusMessage) => void): () => void;
}

export function memoryEventBus(): AnswerEventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (questionId, message) => void emitter.emit(questionId, message),
    subscribe(questionId, listener) {
      emitter.on(questionId, listener);
      return () => void emitter.off(questionId, listener);
    },
  };
}

export const isTerminal = (e: AnswerEvent) => e.event === 'done' || e.event === 'error';

const toEvent = (row: { seq: number; type: string; data: string }): AnswerEvent =>
  answerEvent.parse({ id: row.seq, event: row.type, data: JSON.parse(row.data) });

/** The persisted events of answers: every event is a row, numbered per question from 1. */
export function answerEventStore(db: Executor) {
  return {
    async append(questionId: string, event: NewAnswerEvent): Promise<AnswerEvent> {
      const row = await db
        .insertInto('question_events')
        .values({
          question_id: questionId,
          // Numbered in the insert itself: SQLite has one writer, so ids never collide or skip.
          seq: sql<number>`(select coalesce(max(seq), 0) + 1 from question_events where question_id = ${questionId})`,
          type: event.event,
          data: JSON.stringify(event.data),
          created_at: now(),
        })
        .returning('seq')
        .executeTakeFirstOrThrow();
      return toEvent({ seq: row.seq, type: event.event, data: JSON.stringify(event.data) });
    },

    /** Events after the given id, in order. */
    async after(questionId: string, afterId = 0): Promise<AnswerEvent[]> {
      const rows = await db
        .selectFrom('question_events')
        .select(['seq', 'type', 'data'])
        .where('question_id', '=', questionId)
        .where('seq', '>', afterId)
        .orderBy('seq')
        .execute();
      return rows.map(toEvent);
    },

    /** Events of several questions at once, grouped by question. */
    async ofQuestions(questionIds: string[]): Promise<Map<string, AnswerEvent[]>> {
      const out = new Map<string, AnswerEvent[]>();
      if (!questionIds.length) return out;
      const rows = await db
        .selectFrom('question_events')
        .select(['question_id', 'seq', 'type', 'data'])
        .where('question_id', 'in', questionIds)
        .orderBy('question_id')
        .orderBy('seq')
        .execute();
      for (const r of rows) {
        const list = out.get(r.question_id) ?? [];
        list.push(toEvent(r));
        out.set(r.question_id, list);
      }
      return out;
    },

    async lastIds(questionIds: string[]): Promise<Map<string, number>> {
      if (!questionIds.length) return new Map();
      const rows = await db
        .selectFrom('question_events')
        .select(['question_id', (eb) => eb.fn.max('seq').as('m')])
        .where('question_id', 'in', questionIds)
        .groupBy('question_id')
        .execute();
      return new Map(rows.map((r) => [r.question_id, r.m]));
    },
  };
}

/** The answer so far, folded from its events. */
export interface AnswerSoFar {
  answer: string;
  thinking: string;
  steps: AnswerStep[];
  citations: Citation[];
  error: string | null;
}

export function foldEvents(events: AnswerEvent[]): AnswerSoFar {
  const out: AnswerSoFar = { answer: '', thinking: '', steps: [], citations: [], error: null };
  const answer: string[] = [];
  const thinking: string[] = [];
  for (const e of events) {
    switch (e.event) {
      case 'delta':
        answer.push(e.data.text);
        break;
      case 'thinking':
        thinking.push(e.data.text);
        break;
      case 'citation':
        if (!out.citations.some((c) => c.n === e.data.n)) out.citations.push(e.data);
        break;
      case 'tool_call':
        out.steps.push({ type: 'tool_call', ...e.data });
        break;
      case 'tool_result':
        out.steps.push({ type: 'tool_result', ...e.data });
        break;
      case 'research_step':
        out.steps.push({ type: 'research_step', ...e.data });
        break;
      case 'status':
        // Notices made while answering; queue messages are transient and not kept as steps.
        if (e.data.message && e.data.status === 'running') out.steps.push({ type: 'notice', message: e.data.message });
        break;
      case 'error':
        out.error = e.data.message;
        break;
      case 'done':
        break;
    }
  }
  out.answer = answer.join('');
  out.thinking = thinking.join('');
  return out;
}
