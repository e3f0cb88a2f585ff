import type { FastifyBaseLogger } from 'fastify';
import type { AnswerEvent } from '../../contract/channel';
import type { Db } from '../db/database';
import { isTerminal, type answerEventStore, type AnswerEventBus, type BusMessage } from '../answering/events';

/** Where a followed answer's events go: the route writes them as SSE frames. */
export interface AnswerSink {
  /** One event, in id order, each once, never over a gap. */
  event(e: AnswerEvent): void;
  /** The answer ended (its end event was sent, it was deleted, or it had ended before): nothing more comes. */
  end(): void;
}

export interface FollowOptions {
  db: Db;
  store: Pick<ReturnType<typeof answerEventStore>, 'after'>;
  bus: Pick<AnswerEventBus, 'subscribe'>;
  log: Pick<FastifyBaseLogger, 'error'>;
  questionId: string;
  /** The last event id the reader has (Last-Event-ID); the events after it are sent. */
  after: number;
}

/**
 * Follows one answer for a reader: the stored events after `after` (a resumed stream), then the
 * live ones from the bus, in order and without gaps. Returns the stop (the reader left); the
 * sink's `end` is called once, however the following ends.
 *
 * An event past the next id (the one between still on its way from another node, or notices of
 * two nodes crossing) is not sent over the gap: the store holds every event published, so what is
 * missing is read from it, in order, and the stream stays numbered without gaps.
 */
export function followAnswer({ db, store, bus, log, questionId, after }: FollowOptions, sink: AnswerSink): () => void {
  let sent = after;
  let ended = false;
  let replaying = true;
  const pending: BusMessage[] = [];
  const end = () => {
    if (ended) return;
    ended = true;
    unsubscribe();
    sink.end();
  };
  const send = (e: AnswerEvent) => {
    if (ended || e.id <= sent) return;
    sent = e.id;
    sink.event(e);
    if (isTerminal(e)) end();
  };
  const failed = (err: unknown) => {
    log.error({ err }, 'answer stream failed');
    end();
  };
  let filling: Promise<void> | undefined;
  let fillAgain = false;
  const fill = () => {
    if (filling) {
      fillAgain = true;
      return;
    }
    filling = (async () => {
      do {
        fillAgain = false;
        for (const e of await store.after(questionId, sent)) send(e);
      } while (fillAgain && !ended);
    })()
      .catch(failed)
      .finally(() => (filling = undefined));
  };
  const onMessage = (m: BusMessage) => {
    if (m.type === 'deleted') return end();
    if (m.event.id === sent + 1) return send(m.event);
    if (m.event.id > sent) fill();
  };
  // Subscribed before reading the stored events, so nothing falls between the two.
  const unsubscribe = bus.subscribe(questionId, (m) => (replaying ? pending.push(m) : onMessage(m)));
  void (async () => {
    for (const e of await store.after(questionId, sent)) send(e);
    replaying = false;
    for (const m of pending.splice(0)) onMessage(m);
    if (ended) return;
    // Ended before this reader asked past its end event (e.g. Last-Event-ID beyond it): nothing more will come.
    const row = await db.selectFrom('questions').select('finished_at').where('id', '=', questionId).executeTakeFirst();
    if (!row || row.finished_at !== null) {
      for (const e of await store.after(questionId, sent)) send(e);
      end();
    }
  })().catch(failed);
  return end;
}
