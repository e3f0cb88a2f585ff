import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { type Db } from '../../../src/server/db/database';
import { jobQueue } from '../../../src/server/jobs/queue';
import { jobRunner } from '../../../src/server/jobs/runner';
import { openTestDatabase } from '../postgres-harness';
import { until } from '../until';

// The job runner keeps polling when a claim fails (the database busy or unreachable for a moment):
// it used to stop polling for good, and its queue then waited for the next enqueue's wake-up.
let db: Db;
beforeAll(async () => {
  db = await openTestDatabase(fs.mkdtempSync(path.join(os.tmpdir(), 'csai-runner-')));
});
afterAll(() => db.destroy());

const errors: unknown[] = [];
const log = { error: (o: unknown) => errors.push(o), warn: () => {}, info: () => {} } as unknown as FastifyBaseLogger;

describe('the job runner', () => {
  it('goes on polling after a claim failed, and runs a job queued later without a wake-up', async () => {
    const done: number[] = [];
    const runner = jobRunner(db, log, { probe: async (job) => void done.push(job.id) }, { concurrency: 1, pollMs: 100 });
    // The jobs table is away for a moment: the claims in between fail.
    await sql`alter table jobs rename to jobs_away`.execute(db);
    runner.start();
    await until(() => errors.length > 0, 10_000);
    expect(errors.length).toBeGreaterThan(0);
    await sql`alter table jobs_away rename to jobs`.execute(db);
    // Queued straight in the table (no wake): only the runner's polling can find it.
    const id = await jobQueue(db).enqueue('probe', {});
    await until(() => done.includes(id), 10_000);
    await runner.stop();
    expect(done).toEqual([id]);
  }, 30_000);
});
