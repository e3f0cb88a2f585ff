import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { now } from '../db/database';

/**
 * Leases of app nodes over one PostgreSQL. Each process is a node: it writes its row
 * in `nodes` at start and renews `expires_at` every third of the lease. Every node sweeps as often:
 * answers left `running` by a node whose lease ran out (killed, frozen, cut off) are taken over —
 * claimed in one UPDATE, so two sweeping nodes never both take one — and handed to `adopt`, which
 * finishes them (failed, or back to the queue for deep research). Log rows of such nodes move to
 * question_events first (as `recoverEventLog` does for a single process), rows of deleted
 * questions go, and so do counters of shared rate limits whose window is over.
 */
export function nodeLease({
  db,
  nodeId,
  leaseMs,
  log,
  adopt,
  afterSweep,
}: {
  db: Db;
  nodeId: string;
  leaseMs: number;
  log: FastifyBaseLogger;
  /** Finishes answers this node just took over from a dead one. */
  adopt: (questionIds: string[]) => Promise<void>;
  /** Called after every periodic sweep. */
  afterSweep?: () => void;
}) {
  let timer: NodeJS.Timeout | undefined;
  let renewTimer: NodeJS.Timeout | undefined;
  let renewing: Promise<void> | undefined;
  let sweeping: Promise<void> | undefined;
  let stopped = false;

  const renew = async () => {
    const t = now();
    const res = await db.updateTable('nodes').set({ expires_at: now(leaseMs) }).where('id', '=', nodeId).executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) {
      // Swept as dead (this process stalled past its lease): its answers were taken over; it lives on.
      log.error({ nodeId }, 'this node was taken for dead by another node; its answers were finished there');
      await db.insertInto('nodes').values({ id: nodeId, started_at: t, expires_at: now(leaseMs) }).onConflict((oc) => oc.column('id').doNothing()).execute();
    }
  };

  /** Nodes whose lease has not run out. */
  const alive = () => db.selectFrom('nodes').select('id').where('expires_at', '>', now());

  const sweep = async () => {
    const t = now();
    // Events of dead nodes' answers (and of single-node servers before, node_id null) join question_events.
    await db.transaction().execute(async (tx) => {
      const dead = sql<boolean>`(l.node_id is null or l.node_id not in (select id from nodes where expires_at > ${t}))`;
      await sql`insert into question_events (question_id, seq, type, data, created_at)
        select question_id, seq, type, data, created_at from answer_event_log l
        where ${dead} and exists (select 1 from questions q where q.id = l.question_id)
        order by id on conflict do nothing`.execute(tx);
      await sql`delete from answer_event_log l where ${dead} or not exists (select 1 from questions q where q.id = l.question_id)`.execute(tx);
    });
    const taken = await db
      .updateTable('questions')
      .set({ node_id: nodeId })
      .where('status', '=', 'running')
      .where((eb) => eb.or([eb('node_id', 'is', null), eb('node_id', 'not in', alive())]))
      .returning('id')
      .execute();
    if (taken.length) {
      log.warn({ count: taken.length }, 'answers of a node that stopped answering taken over');
      await adopt(taken.map((r) => r.id));
    }
    // Dead nodes are forgotten once their answers are settled; a lease long gone is not coming back.
    await db.deleteFrom('nodes').where('expires_at', '<', now(-10 * leaseMs)).execute();
    await db.deleteFrom('rate_limits').where('reset_at', '<', Date.now()).execute();
  };

  // Renewal has its own timer, so a long sweep never lets this node's lease run out.
  const renewTick = () => {
    if (stopped || renewing) return;
    renewing = renew()
      .catch((err: unknown) => log.warn({ err }, 'node lease not renewed; tried again shortly'))
      .finally(() => (renewing = undefined));
  };

  const tick = () => {
    if (stopped || sweeping) return;
    sweeping = (async () => {
      try {
        await sweep();
        afterSweep?.();
      } catch (err) {
        log.warn({ err }, 'sweep of dead nodes failed; tried again shortly');
      } finally {
        sweeping = undefined;
      }
    })();
  };

  return {
    /** Registers this node, takes over what dead nodes left, then renews and sweeps every third of the lease. */
    async start() {
      // A row under this id is this node before a restart (host and port): what it left is taken over now.
      await db.deleteFrom('nodes').where('id', '=', nodeId).execute();
      await sweep();
      await db.insertInto('nodes').values({ id: nodeId, started_at: now(), expires_at: now(leaseMs) }).onConflict((oc) => oc.column('id').doNothing()).execute();
      const every = Math.max(100, Math.floor(leaseMs / 3));
      renewTimer = setInterval(renewTick, every);
      renewTimer.unref();
      timer = setInterval(tick, every);
      timer.unref();
    },

    /** Shutdown: no more renewals; the row goes, so other nodes take over what is left at once. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(renewTimer);
      await sweeping;
      await renewing;
      await db.deleteFrom('nodes').where('id', '=', nodeId).execute().catch(() => undefined);
    },
  };
}
