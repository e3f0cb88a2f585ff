import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db, Executor } from '../db/database';
import { lockForTransaction } from '../db/dialect';
import { now } from '../db/database';
import type { AnswerStatus } from '../db/schema';
import { AnswerError, type AnswerEngine, type AnswerSink, type NumberedPassage } from './engine';
import { answerEventStore, answerEventWriter, recoverEventLog, type AnswerEventBus, type AnswerEventWriter, type LiveEvents, type NewAnswerEvent } from './events';
import type { KnowledgePort } from '../retrieval/knowledge-port';
import type { ToolRegistry } from '../tools/registry';
import { TOOL_NAMES } from '../../contract/tools';
import { storedRequest, sourcesOf } from './request';
import { foldAnswerEvents } from '../../contract/answer-fold';
import { deepResearch, requeueInterruptedResearch } from './deep-research';
import { NOT_CONFIGURED, notConfiguredNotice, type OnlineSources } from '../online/sources';
import { searchBeforeAnswer, type ReadPage } from './online-search';
import type { SharedEventBus } from './pg-bus';
import { nodeLease } from './node-lease';
import { userLanguage } from '../i18n';

/** Passages retrieved for one answer. */
export const PASSAGES_PER_ANSWER = 8;
/** Earlier turns of the channel given to the model. */
const HISTORY_TURNS = 4;

export const RESTART_MESSAGE = '服务重启，回答被中断，请重新提问';
/** Online search on, nothing configured for 全部 (the per-type wording: NOT_CONFIGURED in online/sources.ts). */
export const NO_WEB_SEARCH = NOT_CONFIGURED.all;
export const NO_TOOLS = '所选工具暂未提供，本次回答没有使用工具';
export const queuedMessage = (limit: number) => `排队中：每人同时最多进行${limit}个回答，前面的回答结束后自动开始`;

/** Rolls back an answer's end whose row changed between reading and writing it (another node claimed or ended it). */
class ChangedMeanwhile extends Error {}

type Outcome = { status: 'done' | 'stopped' } | { status: 'failed'; message: string };

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
  /** The configured online sources (issue 15): searched when 联网搜索 is on, by the question's search type. */
  online?: OnlineSources;
  /** Reads a web page in full (page crawl); deep research falls back to the snippets without it. */
  readPage?: ReadPage;
  /**
   * PostgreSQL (issue 14 §3): this process is one of possibly several nodes. Answers it runs carry
   * its id; its lease (node-lease.ts) lets the others finish them if it dies; stops and deletes of
   * answers running elsewhere travel on the shared bus.
   */
  node?: { id: string; leaseMs: number; bus: SharedEventBus };
}

/** One answer being written: events go out in order; once closed (finished, stopped, deleted) nothing more is written. */
class AnswerRun {
  closed = false;
  readonly controller = new AbortController();
  private ended: Promise<unknown> | undefined;

  constructor(
    readonly questionId: string,
    readonly userId: string,
    private readonly writer: AnswerEventWriter,
    private readonly log: FastifyBaseLogger,
  ) {}

  emit(event: NewAnswerEvent) {
    if (this.closed) return;
    // Handed to the writer at once (it keeps each question's order and stores events waiting
    // together in one batch); `close` waits until it has stored them all.
    this.writer.push(this.questionId, event, (err) => this.log.warn({ err, questionId: this.questionId }, 'answer event not stored'));
  }

  /** Closes the run (no event after this one is written) and runs `last` after the events already sent. */
  close(last?: () => Promise<void>): Promise<unknown> {
    if (this.ended) return this.ended;
    this.closed = true;
    this.controller.abort();
    const drained = this.writer.drained(this.questionId);
    this.ended = last ? drained.then(last).catch((err: unknown) => this.log.error({ err, questionId: this.questionId }, 'answer not finalised')) : drained;
    return this.ended;
  }
}

/**
 * Answer jobs (DESIGN §4): a question row is its own durable job. Queued answers start in order
 * while their user has fewer than `maxPerUser` running. Events are stored, then published.
 * After a crash, answers that were running are marked failed with RESTART_MESSAGE (not retried:
 * part of the answer was already streamed, and a second run would write a different one);
 * queued answers start normally. Deep-research answers are the exception: they go back to the
 * queue and resume from their last finished step (deep-research.ts).
 */
export function answerService({ db, log, engine, tools, knowledge, bus, maxPerUser, researchBudgetMs, online = {}, readPage, node }: AnswerServiceDeps) {
  // Events go out through one group-commit writer: stored in batches, published after each commit.
  const writer = answerEventWriter(db, bus, node?.id ?? null);
  const research = deepResearch({ db, engine, knowledge, live: writer, online, ...(researchBudgetMs === undefined ? {} : { budgetMs: researchBudgetMs }), ...(readPage ? { readPage } : {}) });
  const running = new Map<string, AnswerRun>();
  const toldQueued = new Set<string>();
  let closing = false;
  let pumping = false;
  let pumpAgain = false;

  /**
   * The 排队中 notice of an answer waiting for its user's slot, once per wait. One process: this
   * node's memory says whether it was written. Several nodes: the memory only spares queries; the
   * notice is written with a conditional UPDATE of the question's `queued_notice_at`, in the
   * transaction that stores it, so of nodes finding the answer waiting at once only one writes it
   * (outside the writer, whose memory of a question's last id holds only for answers it writes).
   */
  async function tellQueued(questionId: string) {
    if (toldQueued.has(questionId)) return;
    toldQueued.add(questionId);
    const event: NewAnswerEvent = { event: 'status', data: { status: 'queued', message: queuedMessage(maxPerUser) } };
    if (!node) {
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
  }

  /**
   * Claims a queued answer for this node. Several nodes: the count of the user's running answers
   * (on every node) and the claim are one transaction under a per-user lock, so two nodes claiming
   * answers of one user at the same moment never run more than `maxPerUser`. One process: the
   * caller counted this process's runs, which are all there are.
   */
  async function claim(questionId: string, userId: string): Promise<'claimed' | 'full' | 'gone'> {
    const started = (ex: Executor) =>
      ex
        .updateTable('questions')
        .set({ status: 'running', started_at: now(), ...(node ? { node_id: node.id, queued_notice_at: null } : {}) })
        .where('id', '=', questionId)
        .where('status', '=', 'queued')
        .executeTakeFirst()
        .then((r) => (Number(r.numUpdatedRows) === 1 ? ('claimed' as const) : ('gone' as const)));
    if (!node) return started(db);
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
  }

  /** Writes the end of an answer: the folded answer on the row and the terminal event, in one transaction. */
  async function finalise(questionId: string, outcome: Outcome, onlyFrom?: AnswerStatus[]): Promise<boolean> {
    await writer.drained(questionId); // the end comes after every event handed in before it
    writer.forget(questionId);
    const stored = await db
      .transaction()
      .execute(async (tx) => {
        const row = await tx.selectFrom('questions').select(['status', 'node_id']).where('id', '=', questionId).executeTakeFirst();
        if (!row) writer.moved(questionId); // deleted meanwhile: what it wrote is gone with it
        if (!row || (onlyFrom && !onlyFrom.includes(row.status))) return null;
        if (node && (row.status === 'running' ? row.node_id !== node.id : !onlyFrom)) {
          // Several nodes: taken over by another node (this one was taken for dead) or already ended
          // there; that node wrote the end, and whatever this one wrote since is dropped.
          await tx.deleteFrom('answer_event_log').where('question_id', '=', questionId).where('node_id', '=', node.id).execute();
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
  }

  async function execute(run: AnswerRun) {
    const sink: AnswerSink = {
      notice: (message) => run.emit({ event: 'status', data: { status: 'running', message } }),
      thinking: (text) => text && run.emit({ event: 'thinking', data: { text } }),
      delta: (text) => text && run.emit({ event: 'delta', data: { text } }),
      toolCall: (call) => run.emit({ event: 'tool_call', data: call }),
      toolResult: (result) => run.emit({ event: 'tool_result', data: result }),
      citation: (citation) => run.emit({ event: 'citation', data: citation }),
      researchStep: (step) => run.emit({ event: 'research_step', data: step }),
    };
    try {
      run.emit({ event: 'status', data: { status: 'running' } });
      const q = await db.selectFrom('questions').selectAll().where('id', '=', run.questionId).executeTakeFirstOrThrow();
      const stored = storedRequest.parse(JSON.parse(q.request));
      // SPEC §6: tools disabled for directory users are never offered to the model or run for them.
      const request = { ...stored, tools_name: tools.allowedFor(stored.tools_name, await tools.audience(q.user_id)) };
      if (request.deepresearch) {
        // A durable multi-step job of its own (deep-research.ts), resumed after a restart.
        await research.run({ questionId: q.id, userId: q.user_id, question: q.question, request }, sink, run.controller.signal);
        await run.close(() => finalise(run.questionId, { status: 'done' }).then(() => undefined));
        return;
      }
      // Tools write their refusals and notes in the language the asker reads.
      const viewer = { userId: q.user_id, lang: await userLanguage(db, q.user_id) };
      const sources = sourcesOf(request);
      const hasSources = sources.docIds.length + sources.kbIds.length + sources.kbDocIds.length > 0;
      // 联网搜索 on and nothing configured for the search type: said once, first.
      const onlineMissing = request.if_search_online ? notConfiguredNotice(online, request.search_type) : undefined;
      if (onlineMissing) sink.notice(onlineMissing);
      // Said only when the asker picked tools (not when all are on and none is usable here: GET /tools says why).
      const pickedAll = TOOL_NAMES.every((n) => request.tools_name.includes(n));
      if (request.tools_name.length && !pickedAll && !tools.select(request.tools_name).length) sink.notice(NO_TOOLS);
      const docIds = hasSources ? await knowledge.documentsOf(viewer, sources) : [];
      const passages: NumberedPassage[] = docIds.length
        ? (await knowledge.search(docIds, q.question, PASSAGES_PER_ANSWER)).map((p, i) => ({ ...p, n: i + 1 }))
        : [];
      const history = (
        await db
          .selectFrom('questions')
          .select(['question', 'answer'])
          .where('channel_id', '=', q.channel_id)
          .where('id', '!=', q.id)
          .where('created_at', '<=', q.created_at)
          .where('status', 'in', ['done', 'stopped'])
          .where('answer', 'is not', null)
          .orderBy('created_at', 'desc')
          .limit(HISTORY_TURNS)
          .execute()
      )
        .reverse()
        .map((h) => ({ question: h.question, answer: h.answer ?? '' }));
      if (run.closed) return;
      // 联网搜索: the sources of the search type, cited after the passages.
      const onlineHits = request.if_search_online && !onlineMissing
        ? await searchBeforeAnswer({ online, searchType: request.search_type, question: q.question, firstN: passages.length + 1, signal: run.controller.signal }, sink)
        : [];
      if (run.closed) return;
      await engine.answer(
        { question: q.question, history, hasSources, passages, online: onlineHits, options: request, viewer, docIds, signal: run.controller.signal, questionId: q.id },
        sink,
        tools,
      );
      await run.close(() => finalise(run.questionId, { status: 'done' }).then(() => undefined));
    } catch (err) {
      if (run.closed) return; // stopped or deleted meanwhile: whoever closed it wrote the end
      if (!(err instanceof AnswerError)) log.error({ err, questionId: run.questionId }, 'answer failed');
      const message = err instanceof AnswerError ? err.message : '回答生成失败，请稍后重试';
      await run.close(() => finalise(run.questionId, { status: 'failed', message }).then(() => undefined));
    }
  }

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
            await tellQueued(q.id);
            continue;
          }
          // Registered before the claim so that a stop arriving meanwhile finds it.
          const run = new AnswerRun(q.id, q.user_id, writer, log);
          running.set(q.id, run);
          const claimed = await claim(q.id, q.user_id).catch((err: unknown) => {
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
              await tellQueued(q.id);
            }
            continue;
          }
          toldQueued.delete(q.id);
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

  /** Several nodes: answers taken over from a dead node end failed (deep research goes back to the queue to resume). */
  async function adopt(questionIds: string[]) {
    // One not ended (the database failed meanwhile) is let go of, so that the next sweep — here or
    // on another node — takes it again, rather than leaving it running under this live node.
    const letGo = async (ids: string[], err: unknown) => {
      log.warn({ err, questionIds: ids }, 'answers taken over from a stopped node not ended; taken again at the next sweep');
      await db.updateTable('questions').set({ node_id: null }).where('id', 'in', ids).where('status', '=', 'running').where('node_id', '=', node!.id).execute()
        .catch((e: unknown) => log.warn({ err: e }, 'answers taken over not let go'));
    };
    try {
      const resumed = await requeueInterruptedResearch(db, questionIds);
      if (resumed) log.warn({ count: resumed }, 'deep-research answers of a node that stopped resume here');
    } catch (err) {
      return letGo(questionIds, err);
    }
    for (const id of questionIds) await finalise(id, { status: 'failed', message: RESTART_MESSAGE }, ['running']).catch((err: unknown) => letGo([id], err));
  }
  // After each sweep the queue is looked at too: answers queued on a node that died (or whose
  // user's slot freed on another node) start here.
  const lease = node ? nodeLease({ db, nodeId: node.id, leaseMs: node.leaseMs, log, adopt, afterSweep: () => void pump() }) : undefined;
  node?.bus.onControl((kind, ids) => {
    for (const id of ids) {
      const run = running.get(id);
      if (!run) continue;
      if (kind === 'stop') void run.close(() => finalise(id, { status: 'stopped' }).then(() => undefined));
      else void run.close().then(() => writer.moved(id));
    }
  });

  /** Several nodes: asks the node running the answer to stop it, and waits (up to a lease) until it has ended. */
  async function stopElsewhere(questionId: string) {
    if (!node) return;
    await node.bus.control('stop', [questionId]);
    const until = Date.now() + node.leaseMs * 2;
    while (Date.now() < until) {
      const row = await db.selectFrom('questions').select('finished_at').where('id', '=', questionId).executeTakeFirst();
      if (!row || row.finished_at !== null) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

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
      toldQueued.delete(questionId);
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
          if (node) return stopElsewhere(questionId);
          // A row left `running` with no run in this process (cannot normally happen) is stopped too.
          await finalise(questionId, { status: 'stopped' }, ['running']);
          return;
        }
      }
    },

    /** Before questions are deleted: their runs stop writing at once. */
    async cancel(questionIds: string[]) {
      for (const id of questionIds) toldQueued.delete(id);
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
      await Promise.race([Promise.allSettled([...running.values()].map((r) => r.close())), new Promise((r) => setTimeout(r, 2000))]);
      // Several nodes: the lease goes, so another node finishes what this one leaves at once.
      await lease?.stop();
      await node?.bus.close();
    },
  };
}

export type AnswerService = ReturnType<typeof answerService>;
