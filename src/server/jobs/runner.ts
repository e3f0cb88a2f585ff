import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { settleWithin } from '../settle-within';
import { jobQueue, type Job } from './queue';

/** Does one job; throws to fail the attempt. `isFinal` tells whether a failure is the last try. */
export type JobHandler = (job: Job, ctx: { heartbeat: () => Promise<void>; isFinal: boolean }) => Promise<void>;

/**
 * Runs queued jobs of the given kinds, `concurrency` at a time, in this process. Polls the table
 * (a wake-up after enqueue avoids the wait) and keeps each running job's lease fresh. With
 * `newOwnerExtra`, up to that many more jobs are taken when full, each the first job of an owner
 * with nothing running (the parse pool then shares its processes between owners).
 */
export function jobRunner(db: Db, log: FastifyBaseLogger, handlers: Record<string, JobHandler>, opts: { concurrency: number; pollMs?: number; newOwnerExtra?: number }) {
  const queue = jobQueue(db);
  const kinds = Object.keys(handlers);
  let running = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const active = new Set<Promise<void>>();

  const runOne = async (job: Job) => {
    const handler = handlers[job.kind];
    const beat = setInterval(() => void queue.heartbeat(job.id).catch(() => undefined), 15_000);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job, { heartbeat: async () => void (await queue.heartbeat(job.id)), isFinal: job.attempts >= job.max_attempts });
      await queue.complete(job.id);
    } catch (err) {
      if (stopped) return; // closing: the job stays running and is recovered at the next start
      const state = await queue.fail(job, err instanceof Error ? err.message : String(err));
      log.warn({ jobId: job.id, kind: job.kind, attempt: job.attempts, state, err }, 'job attempt failed');
    } finally {
      clearInterval(beat);
    }
  };

  const tick = async () => {
    timer = undefined;
    try {
      while (!stopped && running < opts.concurrency + (opts.newOwnerExtra ?? 0)) {
        const job = await queue.claim(kinds, { newOwnersOnly: running >= opts.concurrency });
        if (!job) break;
        running++;
        const p = runOne(job)
          .catch((err: unknown) => log.error({ err, jobId: job.id, kind: job.kind }, 'job state could not be recorded'))
          .finally(() => {
            running--;
            active.delete(p);
            wake();
          });
        active.add(p);
      }
    } finally {
      // A failed claim (the database busy or gone for a moment) is tried again at the next poll:
      // without this the runner stopped polling for good and its queue waited for the next wake.
      if (!stopped && !timer) timer = setTimeout(() => void tick().catch((err: unknown) => log.error({ err }, 'job poll failed')), opts.pollMs ?? 1000);
    }
  };

  function wake() {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void tick().catch((err: unknown) => log.error({ err }, 'job poll failed')), 0);
  }

  return {
    start: wake,
    /** Call after enqueueing so the job starts without waiting for the next poll. */
    wake,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      // Running jobs get 2 s to finish.
      await settleWithin(Promise.allSettled([...active]), 2000);
    },
  };
}
