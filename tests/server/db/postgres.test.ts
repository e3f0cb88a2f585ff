import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config';
import { DatabaseOpenError, now, openDatabase, type Db } from '../../../src/server/db/database';
import { SQL_TRACE_ENV } from '../../../src/server/db/sql-trace';
import { jobQueue, LEASE_MS } from '../../../src/server/jobs/queue';
import { STACK_FRAME } from '../helpers';
import { fileDatabase, hasPostgres } from '../postgres-harness';
import { freePort } from '../process-helpers';
import { fromSources } from '../server-process';

// postgres: itself — every test here opens its own PostgreSQL (postgres-harness.ts fileDatabase) or none.
// DATABASE_URL=postgres://… runs the server on PostgreSQL. What a wrong URL gets at
// start-up, and the job queue's claims on PostgreSQL (locks, lease expiry).
const ROOT = path.resolve(__dirname, '../../..');

describe('DATABASE_URL', () => {
  it('must be a postgres:// URL: anything else is a configuration error naming the variable', () => {
    for (const bad of ['mysql://u@h/db', 'sqlite:///tmp/x.db', 'postgres:/no-host', 'localhost:5432']) {
      expect(() => loadConfig({ DATABASE_URL: bad }), bad).toThrow(/DATABASE_URL: must be a postgres:\/\//);
    }
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: 'postgresql://csai:secret@db.example.com:5432/csai' }).DATABASE_URL).toBe('postgresql://csai:secret@db.example.com:5432/csai');
  });

  it('an unreachable server or unknown host is one clear error, without the password', async () => {
    const port = await freePort();
    const refused = await openDatabase('/nonexistent', `postgres://csai:hunter2@127.0.0.1:${port}/csai`).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DatabaseOpenError);
    expect((refused as Error).message).toMatch(new RegExp(`^Cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port}/csai: .*ECONNREFUSED`));
    expect((refused as Error).message).not.toContain('hunter2');
    const unknown = await openDatabase('/nonexistent', 'postgres://csai@no-such-host.invalid/csai').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(DatabaseOpenError);
    expect((unknown as Error).message).toMatch(/^Cannot connect to PostgreSQL at no-such-host\.invalid:5432\/csai: .*(ENOTFOUND|EAI_AGAIN)/);
  });

  it('the server stops at start-up with one line and exit code 2 (no stack trace, no hang) when PostgreSQL cannot be reached', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, fromSources('main'), {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', CSAI_DATA_DIR: path.join(os.tmpdir(), `csai-pg-unreachable-${process.pid}`), DATABASE_URL: `postgres://csai@127.0.0.1:${port}/csai` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.trim()).toMatch(new RegExp(`^CSAI failed to start: Cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port}/csai: .*ECONNREFUSED [\\d.:]+$`));
    expect(stderr).not.toMatch(STACK_FRAME);
  }, 60_000);
});

describe.skipIf(!hasPostgres())('on a real PostgreSQL', () => {
  let db: Db;
  let url = '';
  let close = () => {};
  beforeAll(async () => {
    const pg = await fileDatabase('basics');
    url = pg.url;
    close = pg.close;
    db = await openDatabase('/nonexistent', url);
  }, 120_000);
  afterAll(async () => {
    await db?.destroy();
    close();
  });

  it('a database whose schema is up to date opens again (migrations are recorded), and a missing database is a clear error', async () => {
    const again = await openDatabase('/nonexistent', url);
    await again.destroy();
    const missing = await openDatabase('/nonexistent', url.replace(/\/[^/]+$/, '/no_such_db')).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(DatabaseOpenError);
    expect((missing as Error).message).toMatch(/no_such_db.*does not exist/);
  });

  it('gives several claimers at once different jobs (FOR UPDATE SKIP LOCKED), each once', async () => {
    const queue = jobQueue(db);
    const ids = new Set<number>();
    for (let i = 0; i < 12; i++) ids.add(await queue.enqueue('pg-test', { i }));
    const claimed = await Promise.all(Array.from({ length: 16 }, () => queue.claim(['pg-test'])));
    const taken = claimed.filter((j) => j !== undefined).map((j) => j.id);
    expect(new Set(taken).size).toBe(taken.length);
    // Claims that found every candidate locked by another claim take the rest afterwards.
    for (let j = await queue.claim(['pg-test']); j; j = await queue.claim(['pg-test'])) taken.push(j.id);
    expect(new Set(taken)).toEqual(ids);
    const rows = await db.selectFrom('jobs').select(['state', 'attempts']).where('kind', '=', 'pg-test').execute();
    expect(rows.every((r) => r.state === 'running' && r.attempts === 1)).toBe(true);
  });

  it('takes a job again once its lease ran out (its node died), and fails it for good after the last attempt', async () => {
    const queue = jobQueue(db);
    const id = await queue.enqueue('pg-lease', { doc: 'x' }, { maxAttempts: 2 });
    const first = await queue.claim(['pg-lease']);
    expect(first?.id).toBe(id);
    // The node holding it stops sending heartbeats: nothing happens before the lease runs out …
    expect(await queue.claim(['pg-lease'])).toBeUndefined();
    const expire = () => db.updateTable('jobs').set({ lease_until: now(-1000), heartbeat_at: now(-LEASE_MS - 1000) }).where('id', '=', id).execute();
    await expire();
    // … then the next claim (any node's) takes it for its second attempt.
    const second = await queue.claim(['pg-lease']);
    expect(second).toMatchObject({ id, state: 'running', attempts: 2 });
    expect(second!.error).toMatch(/重新排队/);
    await expire();
    expect(await queue.claim(['pg-lease'])).toBeUndefined();
    const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'failed', attempts: 2 });
  });

  it('stores text with U+0000 (which PostgreSQL text cannot hold) without it, and counts and flags come back as numbers', async () => {
    const t = now();
    await db.insertInto('departments').values({ id: 'd-nul', name: 'a\u0000b', created_at: t }).execute();
    const row = await db.selectFrom('departments').select(['name']).where('id', '=', 'd-nul').executeTakeFirstOrThrow();
    expect(row.name).toBe('ab');
    const n = await db.selectFrom('departments').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(typeof n.n).toBe('number');
  });

  it('a traced run notes each statement shape once, with how it ended (the record scripts/postgres-files.mjs chooses files by)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-sql-trace-'));
    const trace = path.join(dir, 'file.txt');
    const before = process.env[SQL_TRACE_ENV];
    process.env[SQL_TRACE_ENV] = trace;
    try {
      const traced = await openDatabase('/nonexistent', url);
      try {
        const t = now();
        // Two inserts that differ only in their values and row count are one statement …
        await traced.insertInto('departments').values({ id: 'd-t1', name: 'one', created_at: t }).execute();
        await traced.insertInto('departments').values([{ id: 'd-t2', name: 'two', created_at: t }, { id: 'd-t3', name: 'three', created_at: t }]).execute();
        // … and the same insert refused by the primary key is another (SQLSTATE 23505).
        await expect(traced.insertInto('departments').values({ id: 'd-t1', name: 'again', created_at: t }).execute()).rejects.toThrow();
      } finally {
        await traced.destroy();
      }
      const lines = fs.readFileSync(trace, 'utf8').trim().split('\n').map((l) => l.split('\t')[1]!);
      const inserts = lines.filter((l) => l.startsWith('insert into "departments"'));
      expect(inserts).toEqual(['insert into "departments" ("id", "name", "created_at") values (?…)', 'insert into "departments" ("id", "name", "created_at") values (?…) !23505']);
    } finally {
      if (before === undefined) delete process.env[SQL_TRACE_ENV];
      else process.env[SQL_TRACE_ENV] = before;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
