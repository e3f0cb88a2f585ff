import { EventEmitter } from 'node:events';
import pg from 'pg';
import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { traceStatement } from '../db/sql-trace';
import type { AnswerEvent } from '../../contract/channel';
import { answerEventStore, type AnswerEventBus, type BusMessage } from './events';

/** The application name of the listening connections (pg_stat_activity). */
export const LISTENER_NAME = 'csai-answer-events';
/** The PostgreSQL channel every node listens on. */
export const CHANNEL = 'csai_answer_events';
/** NOTIFY payloads must stay under 8000 bytes. */
const PAYLOAD_BYTES = 7000;
/** How often the listening connection is checked, and the longest wait before it is opened again. */
const PING_MS = 15_000;
const RECONNECT_MAX_MS = 10_000;

/** What one node tells the others. `e`: [question, first id, last id] of events stored, or [question] when it was deleted. */
const notice = z.object({
  n: z.string(),
  e: z.array(z.union([z.tuple([z.string(), z.number().int(), z.number().int()]), z.tuple([z.string()])])).optional(),
  /** Stop or cancel the answers of these questions, wherever they run. */
  c: z.enum(['stop', 'cancel']).optional(),
  q: z.array(z.string()).optional(),
});
type Notice = z.infer<typeof notice>;
type Entry = NonNullable<Notice['e']>[number];

export type ControlKind = 'stop' | 'cancel';

export interface SharedEventBus extends AnswerEventBus {
  /** Asks every node to stop (keeping what was written) or cancel the answers of these questions. */
  control(kind: ControlKind, questionIds: string[]): Promise<void>;
  /** Hears control messages from the other nodes. */
  onControl(listener: (kind: ControlKind, questionIds: string[]) => void): void;
  close(): Promise<void>;
}

/**
 * Answer events across nodes over PostgreSQL LISTEN/NOTIFY. A publish reaches this
 * node's streams at once (as memoryEventBus) and, batched per turn of the event loop, the other
 * nodes as one NOTIFY naming the questions and the ids stored (the events themselves are already in
 * the database: every event is stored before it is published). A node with streams of a named
 * question reads the stored events from the database, in order, and hands them to those streams.
 * The listening connection is a dedicated client; when it fails it is opened again (with a
 * growing pause) and every question with streams here is read again from the last id seen, so a
 * notice lost meanwhile leaves no gap.
 */
export function pgEventBus({ url, db, nodeId, log }: { url: string; db: Db; nodeId: string; log: FastifyBaseLogger }): SharedEventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const store = answerEventStore(db, { rows: () => [], lastId: () => 0, shared: true });
  /** The last event id handed to this node's streams, per question with streams here (0: none yet). */
  const seen = new Map<string, number>();
  /** Questions being read from the database after a notice: read again up to `upTo` when it grows meanwhile. */
  const reading = new Map<string, { upTo: number; deleted: boolean }>();
  const controlListeners: Array<(kind: ControlKind, ids: string[]) => void> = [];
  let outgoing: Entry[] = [];
  let flushing = false;
  let closed = false;
  let client: pg.Client | undefined;
  let ping: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let retryMs = 250;

  const deliver = (questionId: string, message: BusMessage) => {
    if (message.type === 'event' && seen.has(questionId)) seen.set(questionId, Math.max(seen.get(questionId)!, message.event.id));
    emitter.emit(questionId, message);
  };

  const notify = async (payload: Notice) => {
    await sql`select pg_notify(${CHANNEL}, ${JSON.stringify(payload)})`.execute(db);
  };

  /**
   * Sends what was published this turn, in as few notices as fit. One flush at a time: two running
   * at once on two pooled connections could commit their notices in the other order.
   */
  const flush = async () => {
    const entries = outgoing;
    outgoing = [];
    let chunk: Entry[] = [];
    let size = 0;
    const send = async () => {
      if (!chunk.length) return;
      const payload = { n: nodeId, e: chunk };
      chunk = [];
      size = 0;
      await notify(payload).catch((err: unknown) => log.warn({ err }, 'answer event notice not sent'));
    };
    for (const entry of entries) {
      const bytes = JSON.stringify(entry).length + 1;
      if (size + bytes > PAYLOAD_BYTES) await send();
      chunk.push(entry);
      size += bytes;
    }
    await send();
    if (outgoing.length) setImmediate(() => void flush());
    else flushing = false;
  };

  const queue = (entry: Entry) => {
    // Consecutive events of one question in one turn become one entry.
    const last = outgoing.at(-1);
    if (entry.length === 3 && last?.length === 3 && last[0] === entry[0] && last[2] < entry[1]) last[2] = entry[2];
    else outgoing.push(entry);
    if (!flushing) {
      flushing = true;
      setImmediate(() => void flush());
    }
  };

  /** Reads the question's events after what its streams here have seen, until past `upTo`. */
  const read = async (questionId: string, after: number) => {
    const state = reading.get(questionId)!;
    try {
      let from = after;
      while (from < state.upTo && emitter.listenerCount(questionId)) {
        const events: AnswerEvent[] = await store.after(questionId, from);
        if (!events.length) break; // deleted meanwhile, or nothing new: the next notice reads again
        for (const event of events) deliver(questionId, { type: 'event', event });
        from = events.at(-1)!.id;
      }
    } catch (err) {
      log.warn({ err, questionId }, 'answer events of another node not read');
    } finally {
      reading.delete(questionId);
      if (state.deleted) deliver(questionId, { type: 'deleted' });
    }
  };

  const heard = (questionId: string, from: number, to: number, deleted: boolean) => {
    if (!emitter.listenerCount(questionId)) return;
    const state = reading.get(questionId);
    if (state) {
      state.upTo = Math.max(state.upTo, to);
      state.deleted ||= deleted;
      return;
    }
    if (deleted && !to) return deliver(questionId, { type: 'deleted' });
    reading.set(questionId, { upTo: to, deleted });
    // From the notice's first id, or from what the streams here already saw when that is earlier.
    const last = seen.get(questionId) || from - 1;
    void read(questionId, Math.min(last, from - 1));
  };

  const onNotification = (msg: pg.Notification) => {
    if (msg.channel !== CHANNEL || !msg.payload) return;
    let parsed: Notice;
    try {
      parsed = notice.parse(JSON.parse(msg.payload));
    } catch {
      return; // not ours
    }
    if (parsed.n === nodeId) return;
    for (const entry of parsed.e ?? []) {
      if (entry.length === 3) heard(entry[0], entry[1], entry[2], false);
      else heard(entry[0], 0, 0, true);
    }
    if (parsed.c && parsed.q?.length) for (const listener of controlListeners) listener(parsed.c, parsed.q);
  };

  /** After the listening connection was (re)opened: every question with streams here is read from its last id seen. */
  const catchUp = () => {
    for (const [questionId, last] of seen) if (!reading.has(questionId)) {
      reading.set(questionId, { upTo: Number.MAX_SAFE_INTEGER, deleted: false });
      void read(questionId, last);
    }
  };

  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({ connectionString: url, keepAlive: true, application_name: LISTENER_NAME });
    const failed = (err: unknown) => {
      if (client !== c) return;
      client = undefined;
      clearInterval(ping);
      log.warn({ err }, 'answer event listener lost its connection; opening it again');
      c.removeAllListeners('notification');
      void c.end().catch(() => undefined);
      retry = setTimeout(() => void connect(), retryMs);
      retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
    };
    c.on('error', failed);
    c.on('end', () => failed(new Error('connection ended')));
    c.on('notification', onNotification);
    client = c;
    try {
      await c.connect();
      traceStatement(`LISTEN ${CHANNEL}`);
      await c.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      failed(err);
      return;
    }
    retryMs = 250;
    ping = setInterval(() => void c.query('select 1').catch(failed), PING_MS);
    ping.unref();
    catchUp();
  };

  const ready = connect();

  return {
    publish(questionId, message) {
      deliver(questionId, message);
      queue(message.type === 'event' ? [questionId, message.event.id, message.event.id] : [questionId]);
    },
    subscribe(questionId, listener) {
      if (!seen.has(questionId)) seen.set(questionId, 0);
      emitter.on(questionId, listener);
      return () => {
        emitter.off(questionId, listener);
        if (!emitter.listenerCount(questionId)) seen.delete(questionId);
      };
    },
    async control(kind, questionIds) {
      for (let i = 0; i < questionIds.length; i += 100) await notify({ n: nodeId, c: kind, q: questionIds.slice(i, i + 100) });
    },
    onControl(listener) {
      controlListeners.push(listener);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(ping);
      await ready;
      const c = client;
      client = undefined;
      if (c) await c.end().catch(() => undefined);
    },
  };
}
