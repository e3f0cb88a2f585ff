import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Db, Executor } from '../db/database';
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

/** The stored form of an event built here (already valid: no parse needed). */
const withId = (event: NewAnswerEvent, id: number): AnswerEvent => ({ ...event, id });

/** Commits within BUSY_WINDOW_MS that make the event writer busy, and the gap it then keeps between commits. */
const BUSY_WINDOW_MS = 100;
const BUSY_WRITES = 20;
const BUSY_GAP_MS = 5;

/** Rows per INSERT (5 bound values each, well under SQLite's limit of bound parameters). */
const INSERT_ROWS = 500;

function* slices<T>(xs: T[], size: number): Generator<T[]> {
  for (let i = 0; i < xs.length; i += size) yield xs.slice(i, i + size);
}

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

    /**
     * Stores several events (of one or many questions) with multi-row inserts; ids continue each
     * question's numbering in the order given. Run it in a transaction so they are stored together.
     * `known`: the last ids of questions the caller wrote itself (the others are looked up).
     */
    async appendMany(items: Array<{ questionId: string; event: NewAnswerEvent }>, known: ReadonlyMap<string, number> = new Map()): Promise<AnswerEvent[]> {
      const last = new Map<string, number>();
      const unknown = new Set<string>();
      for (const { questionId } of items) {
        const id = known.get(questionId);
        if (id === undefined) unknown.add(questionId);
        else last.set(questionId, id);
      }
      for (const ids of slices([...unknown], INSERT_ROWS)) {
        const rows = await db
          .selectFrom('question_events')
          .select(['question_id', (eb) => eb.fn.max('seq').as('m')])
          .where('question_id', 'in', ids)
          .groupBy('question_id')
          .execute();
        for (const r of rows) last.set(r.question_id, r.m);
      }
      const t = now();
      const stored: AnswerEvent[] = [];
      const values = items.map(({ questionId, event }) => {
        const seq = (last.get(questionId) ?? 0) + 1;
        last.set(questionId, seq);
        stored.push(withId(event, seq));
        return { question_id: questionId, seq, type: event.event, data: JSON.stringify(event.data), created_at: t };
      });
      for (const part of slices(values, INSERT_ROWS)) await db.insertInto('question_events').values(part).execute();
      return stored;
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

/**
 * Group commit of answer events: events handed in while the event loop is busy (or while the
 * previous batch is being written) are stored together in one transaction, then published in
 * order, so every event is persisted before any stream sees it. A quiet server writes each event
 * at once (the next turn of the event loop); a busy one writes fewer, larger transactions.
 * Consecutive `delta` (or `thinking`) events of one question waiting in the same batch become one
 * event with their texts joined: a stream, a reload with Last-Event-ID and the folded answer all
 * see exactly the events stored.
 */
export function answerEventWriter(db: Db, bus: AnswerEventBus) {
  interface Pending {
    questionId: string;
    event: NewAnswerEvent;
    settle: Array<{ resolve: (e: AnswerEvent) => void; reject: (err: unknown) => void }>;
  }
  let queue: Pending[] = [];
  /** The latest waiting event of each question in `queue`. */
  let latest = new Map<string, Pending>();
  let scheduled = false;
  let writing = false;
  // Each commit costs a WAL write whatever its size. A busy writer (many commits a moment ago)
  // leaves at least BUSY_GAP_MS between commits so that more events share one; a quiet one
  // writes at once (the next turn of the event loop).
  let lastWrite = 0;
  let windowStart = 0;
  let windowWrites = 0;
  let busy = false;
  /** The last write of each question still on its way, so its end can wait for it. */
  const inFlight = new Map<string, Promise<unknown>>();

  const schedule = () => {
    if (scheduled || writing) return;
    scheduled = true;
    const wait = busy ? lastWrite + BUSY_GAP_MS - performance.now() : 0;
    if (wait > 0) setTimeout(flush, wait);
    else setImmediate(flush);
  };
  const flush = () => {
    scheduled = false;
    writing = true;
    const t = performance.now();
    if (t - windowStart >= BUSY_WINDOW_MS) {
      busy = windowWrites >= BUSY_WRITES;
      windowStart = t;
      windowWrites = 0;
    }
    windowWrites++;
    lastWrite = t;
    const batch = queue;
    queue = [];
    latest = new Map();
    void write(batch).finally(() => {
      writing = false;
      if (queue.length) schedule();
    });
  };

  /**
   * The last id written of each question this writer wrote to, so a batch needs no lookup. Only
   * the end of an answer (finalise) writes outside the writer, and it calls `forget` first.
   */
  const lastIds = new Map<string, number>();
  const store = async (batch: Pending[]) => {
    const events = await db.transaction().execute((tx) => answerEventStore(tx).appendMany(batch, lastIds));
    batch.forEach((p, i) => lastIds.set(p.questionId, events[i]!.id));
    return events;
  };

  async function write(batch: Pending[]) {
    let stored: AnswerEvent[][];
    try {
      stored = [await store(batch)];
    } catch {
      // One bad event (e.g. its question was deleted meanwhile) must not lose the others: one question at a time.
      const byQuestion = new Map<string, Pending[]>();
      for (const p of batch) byQuestion.set(p.questionId, [...(byQuestion.get(p.questionId) ?? []), p]);
      stored = [];
      const ok: Pending[] = [];
      for (const group of byQuestion.values()) {
        try {
          stored.push(await store(group));
          ok.push(...group);
        } catch (err) {
          for (const p of group) for (const s of p.settle) s.reject(err);
        }
      }
      batch = ok;
    }
    const events = stored.flat();
    batch.forEach((p, i) => {
      const event = events[i]!;
      bus.publish(p.questionId, { type: 'event', event });
      for (const s of p.settle) s.resolve(event);
    });
  }

  return {
    /** Stores the event (with the next id of its question) and then publishes it. */
    append(questionId: string, event: NewAnswerEvent): Promise<AnswerEvent> {
      const written = new Promise<AnswerEvent>((resolve, reject) => {
        const settle = { resolve, reject };
        // Joined with the question's latest waiting event when both are text of the same kind.
        const p = latest.get(questionId);
        if (p && ((p.event.event === 'delta' && event.event === 'delta') || (p.event.event === 'thinking' && event.event === 'thinking'))) {
          p.event = { event: p.event.event, data: { text: p.event.data.text + event.data.text } };
          p.settle.push(settle);
          return;
        }
        const pending: Pending = { questionId, event, settle: [settle] };
        queue.push(pending);
        latest.set(questionId, pending);
      });
      schedule();
      const tracked = written.catch(() => undefined);
      inFlight.set(questionId, tracked);
      void tracked.then(() => {
        if (inFlight.get(questionId) === tracked) inFlight.delete(questionId);
      });
      return written;
    },

    /** Resolves once every event of the question handed in so far is stored (or failed). */
    drained(questionId: string): Promise<unknown> {
      return inFlight.get(questionId) ?? Promise.resolve();
    },

    /** Before events of the question are written elsewhere (its end), or once it is deleted. */
    forget(questionId: string) {
      lastIds.delete(questionId);
    },
  };
}

export type AnswerEventWriter = ReturnType<typeof answerEventWriter>;

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
