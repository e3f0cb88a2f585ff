import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { KnowledgePort } from '../retrieval/knowledge-port';
import type { ToolRegistry } from '../tools/registry';
import type { OnlineSources } from '../online/sources';
import { answerAdmission } from './answer-admission';
import { answerEnd, RESTART_MESSAGE } from './answer-end';
import { answerExecution } from './answer-execute';
import { answerNodes } from './answer-nodes';
import { AnswerRun, type Runs } from './answer-run';
import { deepResearch } from './deep-research';
import { requeueInterruptedResearch } from './research-state';
import type { AnswerEngine } from './engine';
import { answerEventWriter, recoverEventLog, type AnswerEventBus, type LiveEvents } from './events';
import type { ReadPage } from './online-search';
import type { SharedEventBus } from './pg-bus';
import { settleWithin } from '../settle-within';

export { queuedMessage } from './answer-admission';
export { RESTART_MESSAGE } from './answer-end';
export { NO_TOOLS, NO_WEB_SEARCH, PASSAGES_PER_ANSWER } from './answer-execute';

export interface AnswerServiceDeps {
  db: Db;
  log: FastifyBaseLogger;
  engine: AnswerEngine;
  tools: ToolRegistry;
  knowledge: KnowledgePort;
  bus: AnswerEventBus;
  /** CSAI_MAX_ANSWERS_PER_USER: answers of one user running at once; the rest wait as `queued`. */
  maxPerUser: number;
  /** The time a deep-research run may take (CSAI_DEEP_RESEARCH_MINUTES). */
  researchBudgetMs?: number;
  /** The configured online sources: searched when 联网搜索 is on, by the question's search type. */
  online?: OnlineSources;
  /** Reads a web page in full (page crawl); deep research falls back to the snippets without it. */
  readPage?: ReadPage;
  /**
   * PostgreSQL: this process is one of possibly several nodes. Answers it runs carry
   * its id; its lease (node-lease.ts) lets the others finish them if it dies; stops and deletes of
   * answers running elsewhere travel on the shared bus.
   */
  node?: { id: string; leaseMs: number; bus: SharedEventBus };
}

/**
 * Answer jobs (DESIGN §4): a question row is its own durable job. Queued answers start in order
 * while their user has fewer than `maxPerUser` running. Events are stored, then published.
 * After a crash, answers that were running are marked failed with RESTART_MESSAGE (not retried:
 * part of the answer was already streamed, and a second run would write a different one);
 * queued answers start normally. Deep-research answers are the exception: they go back to the
 * queue and resume from their last finished step (deep-research.ts).
 *
 * This is the queue and the service's face; who may start (answer-admission.ts), writing one
 * answer (answer-execute.ts), its end (answer-end.ts) and several nodes (answer-nodes.ts) are
 * modules of their own.
 */
export function answerService({ db, log, engine, tools, knowledge, bus, maxPerUser, researchBudgetMs, online = {}, readPage, node }: AnswerServiceDeps) {
  // Events go out through one group-commit writer: stored in batches, published after each commit.
  const writer = answerEventWriter(db, bus, node?.id ?? null);
  const research = deepResearch({ db, engine, knowledge, live: writer, online, ...(researchBudgetMs === undefined ? {} : { budgetMs: researchBudgetMs }), ...(readPage ? { readPage } : {}) });
  const nodeId = node?.id;
  const finalise = answerEnd({ db, writer, bus, ...(nodeId !== undefined ? { nodeId } : {}) });
  const admission = answerAdmission({ db, log, writer, bus, maxPerUser, ...(nodeId !== undefined ? { nodeId } : {}) });
  const execute = answerExecution({ db, log, engine, tools, knowledge, online, research, finalise });
  const running: Runs = new Map();
  let closing = false;
  let pumping = false;
  let pumpAgain = false;

  /** Starts queued answers in order while their users are under the limit. */
  async function pump() {
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    try {
      do {
        pumpAgain = false;
        if (closing) return;
        const queued = await db
          .selectFrom('questions')
          .select(['id', 'user_id'])
          .where('status', '=', 'queued')
          .orderBy('created_at')
          .orderBy(sql`rowid`)
          .limit(500)
          .execute();
        const perUser = new Map<string, number>();
        if (node) {
          // Answers running on every node count.
          const counts = await db.selectFrom('questions').select(['user_id', (eb) => eb.fn.countAll<number>().as('n')]).where('status', '=', 'running').groupBy('user_id').execute();
          for (const c of counts) perUser.set(c.user_id, Number(c.n));
          for (const r of running.values()) if (!perUser.has(r.userId)) perUser.set(r.userId, 1);
        } else {
          for (const r of running.values()) perUser.set(r.userId, (perUser.get(r.userId) ?? 0) + 1);
        }
        for (const q of queued) {
          if (closing) return;
          const n = perUser.get(q.user_id) ?? 0;
          if (n >= maxPerUser) {
            await admission.tellQueued(q.id);
            continue;
          }
          // Registered before the claim so that a stop arriving meanwhile finds it.
          const run = new AnswerRun(q.id, q.user_id, writer, log);
          running.set(q.id, run);
          const claimed = await admission.claim(q.id, q.user_id).catch((err: unknown) => {
            if (running.get(q.id) === run) running.delete(q.id);
            throw err;
          });
          if (claimed !== 'claimed' || run.closed) {
            if (running.get(q.id) === run) running.delete(q.id);
            // Several nodes: another node filled the user's slots since the count above.
            if (claimed === 'full') perUser.set(q.user_id, maxPerUser);
            if (node && run.closed && !closing) {
              // Several nodes: a stop (or delete) came during the claim. Its end, written before the
              // claim was decided, may have found the row still queued and ended nothing, so the
              // answer ends here, in whatever state the claim left it (a no-op if that end was
              // written). Ended elsewhere meanwhile, or taken by another node: that node is told.
              // (At shutdown a run closes without an end; `closing` leaves it to the restart.)
              await run.close();
              const ended = claimed !== 'gone' && (await finalise(q.id, { status: 'stopped' }, [claimed === 'claimed' ? 'running' : 'queued']));
              if (!ended) await node.bus.control('stop', [q.id]).catch((err: unknown) => log.warn({ err }, 'stop not sent to the other nodes'));
            } else if (claimed === 'full') {
              await admission.tellQueued(q.id);
            }
            continue;
          }
          admission.forget(q.id);
          perUser.set(q.user_id, n + 1);
          void execute(run).finally(() => {
            running.delete(q.id);
            void pump();
          });
        }
      } while (pumpAgain);
    } catch (err) {
      log.error({ err }, 'answer queue failed');
    } finally {
      pumping = false;
    }
  }

  const nodes = node ? answerNodes({ db, log, node, running, writer, finalise, pump: () => void pump() }) : undefined;
  const lease = nodes?.lease;

  return {
    /** Crash recovery, then start what is queued. */
    async start() {
      if (lease) {
        // Several nodes: only what dead nodes left is recovered (node-lease.ts); live nodes' answers are theirs.
        await lease.start();
        void pump();
        return;
      }
      const recovered = await recoverEventLog(db);
      if (recovered) log.warn({ count: recovered }, 'answer events left in the log by the previous process kept');
      const resumed = await requeueInterruptedResearch(db);
      if (resumed) log.warn({ count: resumed }, 'deep-research answers interrupted by a restart resume');
      const stale = await db.selectFrom('questions').select('id').where('status', '=', 'running').execute();
      for (const q of stale) await finalise(q.id, { status: 'failed', message: RESTART_MESSAGE }, ['running']);
      if (stale.length) log.warn({ count: stale.length }, 'answers interrupted by a restart marked failed');
      void pump();
    },

    /** Call after a question is stored as queued. */
    enqueued: () => void pump(),

    /**
     * Stops an answer, keeping what was written. When this resolves the answer is `stopped`
     * (or had already ended) and no further event will be written for it.
     */
    async stop(questionId: string): Promise<void> {
      admission.forget(questionId);
      for (let attempt = 0; attempt < 3; attempt++) {
        const run = running.get(questionId);
        if (run) {
          await run.close(() => finalise(questionId, { status: 'stopped' }).then(() => undefined));
          return;
        }
        if (await finalise(questionId, { status: 'stopped' }, ['queued'])) return;
        // Not queued and not running here: already ended, or claimed just now (then the run exists).
        if (!running.has(questionId)) {
          // Several nodes: running on another node, which stops it.
          if (nodes) return nodes.stopElsewhere(questionId);
          // A row left `running` with no run in this process (cannot normally happen) is stopped too.
          await finalise(questionId, { status: 'stopped' }, ['running']);
          return;
        }
      }
    },

    /** Before questions are deleted: their runs stop writing at once. */
    async cancel(questionIds: string[]) {
      for (const id of questionIds) admission.forget(id);
      if (node) await node.bus.control('cancel', questionIds).catch((err: unknown) => log.warn({ err }, 'cancel not sent to the other nodes'));
      await Promise.all(questionIds.map((id) => running.get(id)?.close()));
    },

    /** After questions are deleted: open streams of them end. */
    deleted(questionIds: string[]) {
      for (const id of questionIds) {
        writer.moved(id);
        bus.publish(id, { type: 'deleted' });
      }
    },

    /** Stored events of answers being written, for every read of the answer event store. */
    events: writer as LiveEvents,

    get runningCount() {
      return running.size;
    },

    /** Server shutdown: runs stop without writing an end; the next start marks them failed (deep research resumes). */
    async close() {
      closing = true;
      await settleWithin(Promise.allSettled([...running.values()].map((r) => r.close())), 2000);
      // Several nodes: the lease goes, so another node finishes what this one leaves at once.
      await lease?.stop();
      await node?.bus.close();
    },
  };
}

export type AnswerService = ReturnType<typeof answerService>;
