import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './server-process';

/** Debian's PostgreSQL 15 (package postgresql-15); the PostgreSQL tests need it. */
export const PG_BIN = '/usr/lib/postgresql/15/bin';
export const hasPostgres = () => fs.existsSync(path.join(PG_BIN, 'pg_ctl'));

/** Set (to postgres://…@127.0.0.1:port) while the server suite runs on PostgreSQL (CSAI_TEST_DB=postgres). */
export const SUITE_SERVER_ENV = 'CSAI_TEST_PG_SERVER';

/** Runs a PostgreSQL program as the postgres user (it refuses root) when we are root. */
function asPostgres(program: string, args: string[]) {
  const bin = path.join(PG_BIN, program);
  const asRoot = process.getuid?.() === 0;
  const r = spawnSync(asRoot ? 'runuser' : bin, asRoot ? ['-u', 'postgres', '--', bin, ...args] : args, { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`${program} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:port (no database). */
  base: string;
  /** The URL of a database on this server. */
  url(database: string): string;
  /** Creates a fresh, empty database (UTF-8, C collation) and returns its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): void;
}

/**
 * A real PostgreSQL 15 in a temp folder: initdb and pg_ctl as the postgres user, listening on a
 * free port of 127.0.0.1 only (and a socket in the folder), trusting local connections, with
 * fsync off (test data need not survive a power cut). `stop()` stops it and removes the folder.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-pg-'));
  const data = path.join(dir, 'data');
  fs.mkdirSync(data);
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresIds();
    fs.chownSync(dir, uid, gid);
    fs.chownSync(data, uid, gid);
  }
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c shared_buffers=32MB`;
  asPostgres('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', '-t', '60', 'start']);
  const base = `postgres://postgres@127.0.0.1:${port}`;
  let stopped = false;
  const server: PostgresServer = {
    base,
    url: (database) => `${base}/${database}`,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: `${base}/postgres` });
      await client.connect();
      try {
        await client.query(`create database "${name.replace(/"/g, '')}" template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`);
      } finally {
        await client.end();
      }
      return `${base}/${name}`;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  return server;
}

function postgresIds() {
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user (install postgresql-15)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

const made = new Map<string, Promise<string>>();

/**
 * While the suite runs on PostgreSQL: the URL of the database of a data folder, created empty the
 * first time the folder is asked for (so a restart test that reopens a folder finds its data,
 * and two servers of one test file with two folders have two databases). Undefined on SQLite.
 */
export function testDatabaseUrl(dataDir: string): Promise<string | undefined> {
  const server = process.env[SUITE_SERVER_ENV];
  if (!server) return Promise.resolve(undefined);
  const name = `t_${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 24)}`;
  let url = made.get(name);
  if (!url) {
    url = (async () => {
      const client = new pg.Client({ connectionString: `${server}/postgres` });
      await client.connect();
      try {
        const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
        if (!exists.rowCount) await client.query(`create database ${name} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`);
      } finally {
        await client.end();
      }
      return `${server}/${name}`;
    })();
    made.set(name, url);
  }
  return url;
}

/** openDatabase for a test's data folder: its PostgreSQL database while the suite runs on PostgreSQL. */
export async function openTestDatabase(dataDir: string) {
  const { openDatabase } = await import('../../src/server/db/database');
  return openDatabase(dataDir, await testDatabaseUrl(dataDir));
}

/**
 * A fresh PostgreSQL database for a test file that needs PostgreSQL whatever the suite runs on:
 * on the suite's server when there is one, else on a server started for this file. `close()`
 * stops that server (call it in afterAll).
 */
export async function fileDatabase(name: string): Promise<{ url: string; server: PostgresServer | undefined; close: () => void }> {
  const shared = process.env[SUITE_SERVER_ENV];
  if (shared) {
    const client = new pg.Client({ connectionString: `${shared}/postgres` });
    await client.connect();
    const unique = `${name}_${process.pid}_${Date.now().toString(36)}`;
    try {
      await client.query(`create database ${unique} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`);
    } finally {
      await client.end();
    }
    return { url: `${shared}/${unique}`, server: undefined, close: () => undefined };
  }
  const server = await startPostgres();
  try {
    return { url: await server.createDatabase(name), server, close: () => server.stop() };
  } catch (err) {
    server.stop();
    throw err;
  }
}

/** One query on the PostgreSQL database of a data folder (while the suite runs on PostgreSQL). */
export async function queryTestDatabase<T>(dataDir: string, text: string, params: unknown[] = []): Promise<T[]> {
  const url = await testDatabaseUrl(dataDir);
  if (!url) throw new Error('the suite does not run on PostgreSQL');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** What tests use of a database handle: better-sqlite3's, or syncTestDatabase's on PostgreSQL. */
export interface TestSqlDb {
  prepare(text: string): {
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): { changes: number | bigint };
  };
  exec(text: string): unknown;
  pragma(text: string, options?: { simple?: boolean }): unknown;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): unknown;
}

/** A value of a test's statement as a PostgreSQL literal (SQLite's 1/0 for booleans). */
function literal(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (v instanceof Uint8Array) return `'\\x${Buffer.from(v).toString('hex')}'::bytea`;
  return `'${String(v).replace(/'/g, "''")}'`;
}

/** The statement with each `?` outside quotes replaced by the next value, or `@name` by the named one (an object of values). */
function bind(text: string, params: unknown[]): string {
  const named = params.length === 1 && typeof params[0] === 'object' && params[0] !== null && !(params[0] instanceof Uint8Array) ? (params[0] as Record<string, unknown>) : undefined;
  if (named) return text.replace(/'(?:[^']|'')*'|[@:$]([A-Za-z_]\w*)/g, (m, name: string | undefined) => (name !== undefined && name in named ? literal(named[name]) : m));
  let i = 0;
  let out = '';
  let quote: string | undefined;
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = undefined;
      out += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      out += c;
    } else if (c === '?') out += literal(params[i++]);
    else out += c;
  }
  return out;
}

/** SQLite's json_extract(col, '$.key') in a test's statement, as PostgreSQL's (col::jsonb ->> 'key'). */
const translateSqlite = (text: string) => text.replace(/json_extract\(([\w.]+),\s*'\$\.(\w+)'\)/g, "($1::jsonb ->> '$2')");

const asSqliteValue = (v: unknown): unknown => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

/**
 * While the suite runs on PostgreSQL, tests that read or write a data folder's database directly
 * (helpers.openSqlite, server.sqlite()) get this instead of a better-sqlite3 handle: the same
 * synchronous prepare(…).get/all/run, exec and close, each statement run by psql on the folder's
 * database (so `?` parameters and plain SQL work; SQLite-only SQL does not).
 */
export function syncTestDatabase(dataDir: string): TestSqlDb {
  const server = process.env[SUITE_SERVER_ENV];
  if (!server) throw new Error('the suite does not run on PostgreSQL');
  const name = `t_${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 24)}`;
  const psql = (command: string) => {
    const r = spawnSync(path.join(PG_BIN, 'psql'), ['-X', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', `${server}/${name}`, '-c', command], { encoding: 'utf8', timeout: 30_000 });
    if (r.status !== 0) throw new Error(`psql: ${r.stderr.trim() || r.error?.message}\n${command}`);
    return r.stdout;
  };
  const rows = (text: string, params: unknown[]) => {
    const json = psql(`with t as (${translateSqlite(bind(text, params)).trim().replace(/;$/, '')}) select coalesce(json_agg(t), '[]'::json) from t`);
    return (JSON.parse(json.trim() || '[]') as Array<Record<string, unknown>>).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, asSqliteValue(v)])));
  };
  return {
    prepare: (text: string) => ({
      get: (...params: unknown[]) => rows(text, params)[0],
      all: (...params: unknown[]) => rows(text, params),
      run: (...params: unknown[]) => {
        const out = psql(translateSqlite(bind(text, params))).trim().split('\n');
        return { changes: Number(/(\d+)$/.exec(out[out.length - 1] ?? '')?.[1] ?? 0), lastInsertRowid: 0 };
      },
    }),
    exec: (text: string) => void psql(text),
    /** SQLite settings mean nothing here. */
    pragma: () => [],
    transaction: (fn) => fn,
    close: () => undefined,
  };
}

/** Whether the suite runs on PostgreSQL (for the few tests of SQLite itself: FTS5, WAL, the file). */
export const suiteOnPostgres = () => !!process.env[SUITE_SERVER_ENV];
