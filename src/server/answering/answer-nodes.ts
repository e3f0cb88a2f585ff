import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import type { Runs } from './answer-run';
import { RESTART_MESSAGE, type Finalise } from './answer-end';
import { requeueInterruptedResearch } from './research-state';
import type { AnswerEventWriter } from './events';
import { nodeLease } from './node-lease';
import type { SharedEventBus } from './pg-bus';

export interface NodeDeps {
  db: Db;
  log: FastifyBaseLogger;
  node: { id: string; leaseMs: number; bus: SharedEventBus };
  running: Runs;
  writer: AnswerEventWriter;
  finalise: Finalise;
  /** Looks at the queue again. */
  pump: () => void;
}

/**
 * Several nodes over one database: this node's lease, the answers it takes over from a node that
 * died, the stops and deletes other nodes send for answers running here, and a stop sent to the
 * node running an answer.
 */
export function answerNodes({ db, log, node, running, writer, finalise, pump }: NodeDeps) {
  /** Answers taken over from a dead node end failed (deep research goes back to the queue to resume). */
  async function adopt(questionIds: string[]) {
    // One not ended (the database failed meanwhile) is let go of, so that the next sweep — here or
    // on another node — takes it again, rather than leaving it running under this live node.
    const letGo = async (ids: string[], err: unknown) => {
      log.warn({ err, questionIds: ids }, 'answers taken over from a stopped node not ended; taken again at the next sweep');
      await db.updateTable('questions').set({ node_id: null }).where('id', 'in', ids).where('status', '=', 'running').where('node_id', '=', node.id).execute()
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
  const lease = nodeLease({ db, nodeId: node.id, leaseMs: node.leaseMs, log, adopt, afterSweep: pump });
  node.bus.onControl((kind, ids) => {
    for (const id of ids) {
      const run = running.get(id);
      if (!run) continue;
      if (kind === 'stop') void run.close(() => finalise(id, { status: 'stopped' }).then(() => undefined));
      else void run.close().then(() => writer.moved(id));
    }
  });

  return {
    lease,
    /** Asks the node running the answer to stop it, and waits (up to a lease) until it has ended. */
    async stopElsewhere(questionId: string) {
      await node.bus.control('stop', [questionId]);
      const until = Date.now() + node.leaseMs * 2;
      while (Date.now() < until) {
        const row = await db.selectFrom('questions').select('finished_at').where('id', '=', questionId).executeTakeFirst();
        if (!row || row.finished_at !== null) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
