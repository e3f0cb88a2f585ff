import type { FastifyBaseLogger } from 'fastify';
import { lockForTransaction } from '../db/dialect';
import { now, type Db, type Executor } from '../db/database';
import { answerEventStore, type AnswerEventBus, type AnswerEventWriter, type NewAnswerEvent } from './events';

export const queuedMessage = (limit: number) => `排队中：每人同时最多进行${limit}个回答，前面的回答结束后自动开始`;

export interface AdmissionDeps {
  db: Db;
  log: FastifyBaseLogger;
  writer: AnswerEventWriter;
  bus: AnswerEventBus;
  maxPerUser: number;
  /** Several nodes: this node's id (the claim and the 排队中 notice are then decided in the database). */
  nodeId?: string;
}

/** Who may start: the claim of a queued answer under its user's limit, and the 排队中 notice of one that waits. */
export function answerAdmission({ db, log, writer, bus, maxPerUser, nodeId }: AdmissionDeps) {
  const toldQueued = new Set<string>();

  return {
    /**
     * The 排队中 notice of an answer waiting for its user's slot, once per wait. One process: this
     * node's memory says whether it was written. Several nodes: the memory only spares queries; the
     * notice is written with a conditional UPDATE of the question's `queued_notice_at`, in the
     * transaction that stores it, so of nodes finding the answer waiting at once only one writes it
     * (outside the writer, whose memory of a question's last id holds only for answers it writes).
     */
    async tellQueued(questionId: string) {
      if (toldQueued.has(questionId)) return;
      toldQueued.add(questionId);
      const event: NewAnswerEvent = { event: 'status', data: { status: 'queued', message: queuedMessage(maxPerUser) } };
      if (nodeId === undefined) {
        await writer.append(questionId, event).catch(() => undefined);
        return;
      }
      try {
        const stored = await db.transaction().execute(async (tx) => {
          const first = await tx
            .updateTable('questions')
            .set({ queued_notice_at: now() })
            .where('id', '=', questionId)
            .where('status', '=', 'queued')
            .where('queued_notice_at', 'is', null)
            .executeTakeFirst();
          return Number(first.numUpdatedRows) === 1 ? answerEventStore(tx, writer).append(questionId, event) : undefined;
        });
        if (stored) bus.publish(questionId, { type: 'event', event: stored });
      } catch (err) {
        toldQueued.delete(questionId); // tried again at the next look at the queue
        log.warn({ err, questionId }, 'queue notice not stored');
      }
    },

    /** The answer no longer waits (started, stopped or deleted): a later wait is told again. */
    forget(questionId: string) {
      toldQueued.delete(questionId);
    },

    /**
     * Claims a queued answer for this node. Several nodes: the count of the user's running answers
     * (on every node) and the claim are one transaction under a per-user lock, so two nodes claiming
     * answers of one user at the same moment never run more than `maxPerUser`. One process: the
     * caller counted this process's runs, which are all there are.
     */
    async claim(questionId: string, userId: string): Promise<'claimed' | 'full' | 'gone'> {
      const started = (ex: Executor) =>
        ex
          .updateTable('questions')
          .set({ status: 'running', started_at: now(), ...(nodeId !== undefined ? { node_id: nodeId, queued_notice_at: null } : {}) })
          .where('id', '=', questionId)
          .where('status', '=', 'queued')
          .executeTakeFirst()
          .then((r) => (Number(r.numUpdatedRows) === 1 ? ('claimed' as const) : ('gone' as const)));
      if (nodeId === undefined) return started(db);
      return db.transaction().execute(async (tx) => {
        await lockForTransaction(tx, 'answers-of-user', userId);
        const { n } = await tx
          .selectFrom('questions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .where('status', '=', 'running')
          .executeTakeFirstOrThrow();
        return Number(n) >= maxPerUser ? 'full' : started(tx);
      });
    },
  };
}

export type AnswerAdmission = ReturnType<typeof answerAdmission>;
