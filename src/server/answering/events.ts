import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Db, Executor } from '../db/database';
import { hasSqliteHandle, now, withSqlite } from '../db/database';
import { engineOf, intList, larger } from '../db/dialect';
import { answerEvent, type AnswerEvent } from '../../contract/channel';
import type { NewAnswerEvent } from './event-types';
import { sharedLog } from './shared-log';

export type { NewAnswerEvent } from './event-types';

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

/** The JSON of a stored event's data, as the writer stored it (so a stream's frame need not build it again). */
export const dataJson = new WeakMap<AnswerEvent, string>();

/** The stored form of an event built here (already valid: no parse needed). */
const withId = (event: NewAnswerEvent, id: number): AnswerEvent => ({ ...event, id });

/** Commits within BUSY_WINDOW_MS that make the event writer busy, and the gap it then keeps between commits. */
const BUSY_WINDOW_MS = 100;
const BUSY_WRITES = 20;
const BUSY_GAP_MS = 5;

/** The answer event log is emptied from its start once this many rows before the oldest live answer are spent. */
const LOG_TRIM_ROWS = 2000;
/** Rows per insert statement on PostgreSQL (6 parameters each; at most 65535 per statement). */
const LOG_INSERT_ROWS = 5000;

/** Events of several questions, by question, in the order of the rows. */
function byQuestion(rows: Array<{ question_id: string; seq: number; type: string; data: string }>): Map<string, AnswerEvent[]> {
  const out = new Map<string, AnswerEvent[]>();
  for (const r of rows) {
    const list = out.get(r.question_id) ?? [];
    list.push(toEvent(r));
    out.set(r.question_id, list);
  }
  return out;
}

/**
 * Events of answers being written that are stored in the answer event log and not yet in
 * question_events (the writer keeps them; see answerEventWriter).
 */
export interface LiveEvents {
  /** The log rows of the question's events there, in order; empty when it has none. */
  rows(questionId: string): readonly number[];
  /** The id of the question's last event in the log; 0 when it has none. */
  lastId(questionId: string): number;
  /**
   * PostgreSQL (several nodes): the log holds other nodes' answers too, so reads find a question's
   * log rows in the database (by question) rather than through `rows`.
   */
  readonly shared?: boolean;
}
const noLiveEvents: LiveEvents = { rows: () => [], lastId: () => 0 };

/** Stored and live events of one question, in order, each once (an answer's end copies its live events). */
function merged(stored: AnswerEvent[], live: AnswerEvent[]): AnswerEvent[] {
  if (!live.length) return stored;
  if (!stored.length) return live;
  const byId = new Map<number, AnswerEvent>();
  for (const e of [...stored, ...live]) byId.set(e.id, e);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * The persisted events of answers: every event is a row, numbered per question from 1. Events of
 * answers being written are in the answer event log until the answer ends; `live` (the writer)
 * has them, and every read here includes them.
 */
export function answerEventStore(db: Executor, live: LiveEvents = noLiveEvents) {
  return {
    /** Stores one event outside the writer (a new question's first, an answer's end). */
    async append(questionId: string, event: NewAnswerEvent): Promise<AnswerEvent> {
      const liveLast = live.lastId(questionId);
      if (live.shared) return sharedLog.append(db, questionId, event, liveLast);
      const row = await db
        .insertInto('question_events')
        .values({
          question_id: questionId,
          // Numbered in the insert itself: SQLite has one writer, so ids never collide or skip.
          seq: sql<number>`(select ${larger(engineOf(db), sql`coalesce(max(seq), 0)`, sql`${liveLast}`)} + 1 from question_events where question_id = ${questionId})`,
          type: event.event,
          data: JSON.stringify(event.data),
          created_at: now(),
        })
        .returning('seq')
        .executeTakeFirstOrThrow();
      return withId(event, row.seq);
    },

    /** Copies rows of the answer event log into question_events (an ended answer's), keeping their ids. */
    async moveFromLog(rows: readonly number[]): Promise<void> {
      if (!rows.length) return;
      await sql`insert into question_events (question_id, seq, type, data, created_at)
        select question_id, seq, type, data, created_at from answer_event_log
        where id in (${intList(engineOf(db), rows)}) order by id on conflict do nothing`.execute(db);
    },

    /** The events in the given log rows after `afterId`, by question, in order. */
    async fromLog(rows: readonly number[], afterId = 0): Promise<Map<string, AnswerEvent[]>> {
      if (!rows.length) return new Map();
      const found = await db
        .selectFrom('answer_event_log')
        .select(['question_id', 'seq', 'type', 'data'])
        .where(sql<boolean>`id in (${intList(engineOf(db), rows)})`)
        .where('seq', '>', afterId)
        .orderBy('id')
        .execute();
      return byQuestion(found);
    },

    /** Events after the given id, in order. */
    async after(questionId: string, afterId = 0): Promise<AnswerEvent[]> {
      if (live.shared) return (await sharedLog.of(db, [questionId], afterId)).get(questionId) ?? [];
      const rows = await db
        .selectFrom('question_events')
        .select(['seq', 'type', 'data'])
        .where('question_id', '=', questionId)
        .where('seq', '>', afterId)
        .orderBy('seq')
        .execute();
      const inLog = await this.fromLog(live.rows(questionId), afterId);
      return merged(rows.map(toEvent), inLog.get(questionId) ?? []);
    },

    /** Events of several questions at once, grouped by question. */
    async ofQuestions(questionIds: string[]): Promise<Map<string, AnswerEvent[]>> {
      if (!questionIds.length) return new Map();
      if (live.shared) return sharedLog.of(db, questionIds);
      const rows = await db
        .selectFrom('question_events')
        .select(['question_id', 'seq', 'type', 'data'])
        .where('question_id', 'in', questionIds)
        .orderBy('question_id')
        .orderBy('seq')
        .execute();
      const out = byQuestion(rows);
      const inLog = await this.fromLog(questionIds.flatMap((id) => live.rows(id)));
      for (const [id, events] of inLog) out.set(id, merged(out.get(id) ?? [], events));
      return out;
    },

    async lastIds(questionIds: string[]): Promise<Map<string, number>> {
      if (!questionIds.length) return new Map();
      if (live.shared) return sharedLog.lastIds(db, questionIds);
      const rows = await db
        .selectFrom('question_events')
        .select(['question_id', (eb) => eb.fn.max('seq').as('m')])
        .where('question_id', 'in', questionIds)
        .groupBy('question_id')
        .execute();
      const out = new Map(rows.map((r) => [r.question_id, r.m]));
      for (const id of questionIds) {
        const liveLast = live.lastId(id);
        if (liveLast > (out.get(id) ?? 0)) out.set(id, liveLast);
      }
      return out;
    },
  };
}

/**
 * At start-up, before any answer is read or written: events left in the answer event log by the
 * previous process (its answers did not end) move to question_events, and the log is emptied.
 * Events of questions deleted meanwhile are dropped.
 */
export async function recoverEventLog(db: Db): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const moved = await sql`insert into question_events (question_id, seq, type, data, created_at)
      select question_id, seq, type, data, created_at from answer_event_log l
      where exists (select 1 from questions q where q.id = l.question_id) order by id on conflict do nothing`.execute(tx);
    await tx.deleteFrom('answer_event_log').execute();
    return Number(moved.numAffectedRows ?? 0);
  });
}

/**
 * Group commit of answer events: events handed in while the event loop is busy (or while the
 * previous batch is being written) are stored together in one transaction, then published in
 * order, so every event is persisted before any stream sees it. A quiet server writes each event
 * at once (the next turn of the event loop); a busy one writes fewer, larger transactions.
 * Consecutive `delta` (or `thinking`) events of one question waiting in the same batch become one
 * event with their texts joined: a stream, a reload with Last-Event-ID and the folded answer all
 * see exactly the events stored.
 *
 * Where: the answer event log, appended to with prepared statements. Rows of many answers
 * streaming at once then share the last page or two of one table, where question_events (keyed by
 * question) would have each commit write one page per answer. For each answer still being
 * written the writer keeps the log rows of its events and its last id (LiveEvents: every read of
 * the store adds those rows); when the answer ends, `finalise` copies the rows to question_events
 * in the transaction that writes the end
 * (`moveTo`), then `moved` lets them go, and the log is emptied from its start up to the oldest
 * answer still being written. After a crash, `recoverEventLog` does the same for what was left.
 */
export function answerEventWriter(db: Db, bus: AnswerEventBus, nodeId: string | null = null) {
  interface Pending {
    questionId: string;
    event: NewAnswerEvent;
    settle: Settle[];
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
  /** Events of each question handed in and not yet stored (or failed), and who waits for none to be left. */
  const waiting = new Map<string, { count: number; drained: Array<() => void> }>();
  const settled = (p: Pending) => {
    const w = waiting.get(p.questionId);
    if (!w || (w.count -= p.settle.length) > 0) return;
    waiting.delete(p.questionId);
    for (const done of w.drained) done();
  };
  /** The log rows of each answer being written, and the id of its last event. */
  const live = new Map<string, { rows: number[]; lastId: number }>();
  // Log rows are numbered here (one writer), so numbers never repeat even when the log is emptied.
  let lastRow = -1;
  /** Log rows below this one belong to no answer being written; `trimmed`: rows below it are deleted. */
  let spentBelow = 0;
  let trimmed = 0;
  let trimming = false;

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
   * The last id written of each question this writer wrote to, so a batch needs no lookup (the
   * others are looked up in one query). Only the end of an answer (finalise) writes outside the
   * writer, and it calls `forget` first.
   */
  const lastIds = new Map<string, number>();
  /** SQLite: prepared statements on its own handle (withSqlite); PostgreSQL: Kysely (storeWithKysely). */
  const sqliteFast = hasSqliteHandle(db);

  type Statements = ReturnType<typeof prepare>;
  let statements: Statements | undefined;
  function prepare(sqlite: SQLiteHandle) {
    return {
      // Which questions exist, and the last id each has in question_events (JSON array of ids).
      known: sqlite.prepare<[string], { id: string; m: number }>(
        `select q.id as id, coalesce((select max(seq) from question_events e where e.question_id = q.id), 0) as m
         from questions q where q.id in (select value from json_each(?))`,
      ),
      insert: sqlite.prepare<[number, string, number, string, string, string]>('insert into answer_event_log (id, question_id, seq, type, data, created_at) values (?, ?, ?, ?, ?, ?)'),
      lastRow: sqlite.prepare<[], { m: number }>('select coalesce(max(id), 0) as m from answer_event_log'),
      trim: sqlite.prepare<[number]>('delete from answer_event_log where id < ?'),
    };
  }

  /** Stores the batch in one transaction; returns each pending's event (or the reason it was not stored). */
  function store(sqlite: SQLiteHandle, batch: Pending[]): Array<AnswerEvent | Error> {
    const st = (statements ??= prepare(sqlite));
    if (lastRow < 0) lastRow = trimmed = st.lastRow.get()!.m;
    const unknown = [...new Set(batch.map((p) => p.questionId).filter((id) => !lastIds.has(id)))];
    const missing = new Set(unknown);
    if (unknown.length) {
      for (const r of st.known.all(JSON.stringify(unknown))) {
        missing.delete(r.id);
        lastIds.set(r.id, Math.max(r.m, live.get(r.id)?.lastId ?? 0));
      }
    }
    const t = now();
    const rows: Array<{ event: AnswerEvent; row: number } | Error> = [];
    // Ids taken by this batch: kept only once it is committed (a failed batch leaves no gap).
    const taken = new Map<string, number>();
    sqlite.transaction(() => {
      if (spentBelow - trimmed >= LOG_TRIM_ROWS || (!live.size && spentBelow > trimmed)) {
        st.trim.run(spentBelow);
        trimmed = spentBelow;
      }
      for (const { questionId, event } of batch) {
        if (missing.has(questionId)) {
          rows.push(new Error(`question ${questionId} does not exist`));
          continue;
        }
        const seq = (taken.get(questionId) ?? lastIds.get(questionId)!) + 1;
        const data = JSON.stringify(event.data);
        st.insert.run(lastRow + 1, questionId, seq, event.event, data, t);
        lastRow++;
        taken.set(questionId, seq);
        const stored = withId(event, seq);
        dataJson.set(stored, data);
        rows.push({ event: stored, row: lastRow });
      }
    })();
    return kept(batch, rows, taken);
  }

  /**
   * PostgreSQL (no synchronous handle; possibly several nodes writing the one log): the same batch,
   * written with one multi-row insert per LOG_INSERT_ROWS rows in one transaction, the rows
   * numbered by the database and marked with this node (see shared-log.ts). The log is not trimmed
   * here: an answer's rows leave it when it ends (moveTo). The state here changes only once it committed.
   */
  async function storeWithKysely(batch: Pending[]): Promise<Array<AnswerEvent | Error>> {
    const unknown = [...new Set(batch.map((p) => p.questionId).filter((id) => !lastIds.has(id)))];
    const missing = new Set(unknown);
    if (unknown.length) {
      for (const [id, m] of await sharedLog.known(db, unknown)) {
        missing.delete(id);
        lastIds.set(id, Math.max(m, live.get(id)?.lastId ?? 0));
      }
    }
    const t = now();
    const rows: Array<{ event: AnswerEvent; row: number } | Error> = [];
    const taken = new Map<string, number>();
    const values: Array<{ question_id: string; seq: number; type: string; data: string; created_at: string; node_id: string | null }> = [];
    for (const { questionId, event } of batch) {
      if (missing.has(questionId)) {
        rows.push(new Error(`question ${questionId} does not exist`));
        continue;
      }
      const seq = (taken.get(questionId) ?? lastIds.get(questionId)!) + 1;
      const data = JSON.stringify(event.data);
      values.push({ question_id: questionId, seq, type: event.event, data, created_at: t, node_id: nodeId });
      taken.set(questionId, seq);
      const stored = withId(event, seq);
      dataJson.set(stored, data);
      rows.push({ event: stored, row: 0 });
    }
    await db.transaction().execute(async (tx) => {
      for (let i = 0; i < values.length; i += LOG_INSERT_ROWS) await tx.insertInto('answer_event_log').values(values.slice(i, i + LOG_INSERT_ROWS)).execute();
    });
    return kept(batch, rows, taken);
  }

  /** After a batch committed: its ids are the questions' last, and its log rows are kept for the store's reads. */
  function kept(batch: Pending[], rows: Array<{ event: AnswerEvent; row: number } | Error>, taken: Map<string, number>): Array<AnswerEvent | Error> {
    for (const [id, seq] of taken) lastIds.set(id, seq);
    // Stored: from now on every read of the store includes them (before they are published). Only
    // their log rows are kept here, not the events: thousands of answers may be streaming.
    return rows.map((r, i) => {
      if (r instanceof Error) return r;
      const questionId = batch[i]!.questionId;
      const entry = live.get(questionId);
      if (entry) {
        entry.rows.push(r.row);
        entry.lastId = r.event.id;
      } else {
        live.set(questionId, { rows: [r.row], lastId: r.event.id });
      }
      return r.event;
    });
  }

  async function write(batch: Pending[]) {
    let stored: Array<AnswerEvent | Error>;
    try {
      stored = sqliteFast ? await withSqlite(db, (sqlite) => store(sqlite, batch)) : await storeWithKysely(batch);
    } catch (err) {
      for (const p of batch) {
        for (const s of p.settle) s.reject(err);
        settled(p);
      }
      return;
    }
    batch.forEach((p, i) => {
      const event = stored[i]!;
      if (event instanceof Error) {
        for (const s of p.settle) s.reject(event);
      } else {
        bus.publish(p.questionId, { type: 'event', event });
        for (const s of p.settle) s.resolve?.(event);
      }
      settled(p);
    });
  }

  /** The answer's events are no longer kept here; log rows before the oldest answer still kept are spent. */
  const release = (questionId: string) => {
    lastIds.delete(questionId);
    if (!live.delete(questionId)) return;
    let oldest = Infinity;
    for (const entry of live.values()) oldest = Math.min(oldest, entry.rows[0]!);
    spentBelow = oldest === Infinity ? lastRow + 1 : oldest;
    // No answer is being written, so no batch may come for a while: the log is emptied now
    // (SQLite; on PostgreSQL an answer's rows left the log with its end).
    if (sqliteFast && !live.size && !trimming) {
      trimming = true;
      setImmediate(() => {
        const trim = withSqlite(db, (sqlite) => {
          if (live.size || spentBelow <= trimmed) return;
          (statements ??= prepare(sqlite)).trim.run(spentBelow);
          trimmed = spentBelow;
        });
        void trim
          .catch(() => undefined) // left for the next batch
          .finally(() => (trimming = false));
      });
    }
  };

  function push(questionId: string, event: NewAnswerEvent, settle: Settle) {
    const w = waiting.get(questionId);
    if (w) w.count++;
    else waiting.set(questionId, { count: 1, drained: [] });
    // Joined with the question's latest waiting event when both are text of the same kind.
    const p = latest.get(questionId);
    if (p && ((p.event.event === 'delta' && event.event === 'delta') || (p.event.event === 'thinking' && event.event === 'thinking'))) {
      p.event = { event: p.event.event, data: { text: p.event.data.text + event.data.text } };
      p.settle.push(settle);
    } else {
      const pending: Pending = { questionId, event, settle: [settle] };
      queue.push(pending);
      latest.set(questionId, pending);
    }
    schedule();
  }

  return {
    /** Stores the event (with the next id of its question) and then publishes it. */
    append(questionId: string, event: NewAnswerEvent): Promise<AnswerEvent> {
      return new Promise<AnswerEvent>((resolve, reject) => push(questionId, event, { resolve, reject }));
    },

    /** As `append`, without a promise per event (an answer streams thousands): `failed` hears of an event not stored. */
    push(questionId: string, event: NewAnswerEvent, failed: (err: unknown) => void) {
      push(questionId, event, { reject: failed });
    },

    /** Resolves once every event of the question handed in so far is stored (or failed). */
    drained(questionId: string): Promise<void> {
      const w = waiting.get(questionId);
      return w ? new Promise((resolve) => w.drained.push(resolve)) : Promise.resolve();
    },

    /** The log rows of the question's events (LiveEvents, for the store's reads). */
    rows(questionId: string): readonly number[] {
      return live.get(questionId)?.rows ?? [];
    },

    lastId(questionId: string): number {
      return live.get(questionId)?.lastId ?? 0;
    },

    /** PostgreSQL: reads find log rows by question (LiveEvents.shared). */
    shared: !sqliteFast,

    /** Before events of the question are written elsewhere (its end): the next batch looks its last id up. */
    forget(questionId: string) {
      lastIds.delete(questionId);
    },

    /** In the transaction that writes the answer's end: its live events are copied to question_events. */
    async moveTo(tx: Executor, questionId: string): Promise<void> {
      if (!sqliteFast) return sharedLog.moveOut(tx, questionId);
      await answerEventStore(tx).moveFromLog(live.get(questionId)?.rows ?? []);
    },

    /** After that transaction committed, or once the question is deleted: its live events are let go. */
    moved: release,
  };
}

/** Who hears how an event handed to the writer ended. */
interface Settle {
  resolve?: (e: AnswerEvent) => void;
  reject: (err: unknown) => void;
}

type SQLiteHandle = Parameters<Parameters<typeof withSqlite>[1]>[0];

export type AnswerEventWriter = ReturnType<typeof answerEventWriter>;
