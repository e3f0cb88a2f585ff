import { sql, type RawBuilder } from 'kysely';
import { engineOf, jsonText } from '../db/dialect';
import type { Executor } from '../db/database';
import { now } from '../db/database';
import type { JobTable } from '../db/schema';
import type { Selectable } from 'kysely';

export type Job = Selectable<JobTable>;

/** How long a claimed job stays leased without a heartbeat before it counts as abandoned. */
export const LEASE_MS = 60_000;
/** The error a job gets when its lease ran out on PostgreSQL (its node stopped sending heartbeats). */
const LEASE_EXPIRED = '任务所在节点长时间无响应，任务已重新排队';

/**
 * The durable job queue in the database: a job is a row, so it survives a restart. Enqueue in
 * the same transaction as the rows it works on, and nothing is ever half-queued.
 */
export function jobQueue(db: Executor) {
  return {
    async enqueue(kind: string, payload: unknown, opts: { maxAttempts?: number } = {}) {
      const t = now();
      const row = await db
        .insertInto('jobs')
        .values({ kind, payload: JSON.stringify(payload), state: 'queued', attempts: 0, max_attempts: opts.maxAttempts ?? 3, run_after: t, created_at: t, updated_at: t })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /**
     * Enqueues unless a job of `kind` whose payload field `key` equals `value` is already waiting;
     * returns whether one was added.
     */
    async enqueueOnce(kind: string, key: string, value: string, payload: unknown, opts: { maxAttempts?: number } = {}): Promise<boolean> {
      const waiting = await db
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', kind)
        .where('state', '=', 'queued')
        .where(jsonText(engineOf(db), 'payload', key), '=', value)
        .limit(1)
        .executeTakeFirst();
      if (waiting) return false;
      await this.enqueue(kind, payload, opts);
      return true;
    },

    /**
     * Takes a due job of the given kinds, marking it running with a lease. Fair across users (issue
     * 16 #2): jobs about a document are taken round-robin by its owner — every owner's oldest job
     * before anyone's second, counting the jobs of theirs already running — so one user's backlog
     * never holds up another's first document. Jobs of no document have the payload's `owner`
     * (docking), else share one owner; inside a turn
     * the oldest goes first. With `newOwnersOnly`, only the first job of an owner with none running
     * (on any node) is taken: the runner's claims beyond its capacity.
     */
    async claim(kinds: string[], opts: { newOwnersOnly?: boolean } = {}): Promise<Job | undefined> {
      const t = now();
      const engine = engineOf(db);
      const docId = jsonText(engine, 'jobs.payload', 'docId');
      // Jobs of no document may name their owner in the payload (docking).
      const owner = sql`coalesce(d.owner_id, ${jsonText(engine, 'jobs.payload', 'owner')}, '')`;
      // An owner's turn counts the jobs of theirs already running, then their queued ones oldest first.
      const fair = (limit: number) => sql<number>`(select id from (
          select q.id, coalesce(r.n, 0) + row_number() over (partition by q.owner order by q.id) as turn
          from (select jobs.id, ${owner} as owner from jobs left join kb_documents d on d.id = ${docId}
                where jobs.state = 'queued' and jobs.kind in (${sql.join(kinds)}) and jobs.run_after <= ${t}) q
          left join (select ${owner} as owner, count(*) as n from jobs left join kb_documents d on d.id = ${docId}
                where jobs.state = 'running' and jobs.kind in (${sql.join(kinds)}) group by 1) r on r.owner = q.owner
        ) as f ${opts.newOwnersOnly ? sql`where turn = 1` : sql``} order by turn, id limit ${sql.lit(limit)})`;
      if (engine === 'postgres') return claimLocked(db, fair(CLAIM_CANDIDATES), kinds, t);
      const next = fair(1);
      const job = await db
        .updateTable('jobs')
        .set({ state: 'running', attempts: sql`attempts + 1`, lease_until: now(LEASE_MS), heartbeat_at: t, updated_at: t })
        .where('id', '=', next)
        .where('state', '=', 'queued')
        .returningAll()
        .executeTakeFirst();
      return job;
    },

    heartbeat: (id: number) =>
      db.updateTable('jobs').set({ heartbeat_at: now(), lease_until: now(LEASE_MS) }).where('id', '=', id).where('state', '=', 'running').execute(),

    complete: (id: number) => db.updateTable('jobs').set({ state: 'done', lease_until: null, error: null, updated_at: now() }).where('id', '=', id).execute(),

    /** A failed attempt: queued again after a back-off while attempts remain, else failed for good. Returns the new state. */
    async fail(job: Job, error: string): Promise<'queued' | 'failed'> {
      const state = job.attempts < job.max_attempts ? 'queued' : 'failed';
      await db
        .updateTable('jobs')
        .set({ state, error: error.slice(0, 2000), lease_until: null, run_after: now(state === 'queued' ? 2000 * job.attempts : 0), updated_at: now() })
        .where('id', '=', job.id)
        .execute();
      return state;
    },

    /**
     * After a crash: jobs left running (this process is the only runner, so at start-up none is
     * really running) go back to the queue, or fail when their attempts are used up.
     * Returns the jobs that failed for good, so their owners can be told.
     */
    async recover(): Promise<Job[]> {
      const stale = await db.selectFrom('jobs').selectAll().where('state', '=', 'running').execute();
      const failed: Job[] = [];
      for (const job of stale) {
        const state = job.attempts < job.max_attempts ? 'queued' : 'failed';
        await db
          .updateTable('jobs')
          .set({ state, error: '服务重启时任务被中断', lease_until: null, run_after: now(), updated_at: now() })
          .where('id', '=', job.id)
          .execute();
        if (state === 'failed') failed.push(job);
      }
      return failed;
    },

    /** Jobs whose lease ran out without a heartbeat (a stuck worker), for the runner to fail. */
    expired: () => db.selectFrom('jobs').selectAll().where('state', '=', 'running').where('lease_until', '<', now()).execute(),

    /** Removes finished jobs older than the given age. */
    prune: (olderThanMs: number) =>
      db.deleteFrom('jobs').where('state', 'in', ['done', 'failed']).where('updated_at', '<', now(-olderThanMs)).execute(),
  };
}

export type JobQueue = ReturnType<typeof jobQueue>;

/** PostgreSQL: how many jobs, best turn first, a claim tries to lock (others may hold some). */
const CLAIM_CANDIDATES = 16;

/**
 * The claim on PostgreSQL, where several connections (and nodes) claim at once: in one
 * transaction, jobs whose lease ran out (their node died or hung: no heartbeat for LEASE_MS) go
 * back to the queue or fail for good, then the fairest candidates not locked by another claim
 * are locked (FOR UPDATE SKIP LOCKED) and the first of them is taken.
 */
async function claimLocked(db: Executor, candidates: RawBuilder<number>, kinds: string[], t: string): Promise<Job | undefined> {
  const inTransaction = <T>(work: (tx: Executor) => Promise<T>) => (db.isTransaction ? work(db) : db.transaction().execute(work));
  return inTransaction(async (tx) => {
    await sql`update jobs set state = case when attempts < max_attempts then 'queued' else 'failed' end,
        error = ${LEASE_EXPIRED}, lease_until = null, run_after = ${t}, updated_at = ${t}
      where id in (select id from jobs where state = 'running' and kind in (${sql.join(kinds)}) and lease_until < ${t} for update skip locked)`.execute(tx);
    const order = (await sql<{ id: number }>`select id from ${candidates} as c(id)`.execute(tx)).rows.map((r) => r.id);
    if (!order.length) return undefined;
    const free = new Set(
      (await sql<{ id: number }>`select id from jobs where id in (${sql.join(order)}) and state = 'queued' for update skip locked`.execute(tx)).rows.map((r) => r.id),
    );
    const id = order.find((i) => free.has(i));
    if (id === undefined) return undefined;
    return tx
      .updateTable('jobs')
      .set({ state: 'running', attempts: sql`attempts + 1`, lease_until: now(LEASE_MS), heartbeat_at: t, updated_at: t })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  });
}
