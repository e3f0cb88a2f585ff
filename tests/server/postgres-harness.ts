import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** Debian's PostgreSQL 15 (package postgresql-15); the PostgreSQL tests need it. */
export const PG_BIN = '/usr/lib/postgresql/15/bin';
export const hasPostgres = () => fs.existsSync(path.join(PG_BIN, 'pg_ctl'));

/** Set (to postgres://…@127.0.0.1:port) while the server suite runs on PostgreSQL (CSAI_TEST_DB=postgres). */
export const SUITE_SERVER_ENV = 'CSAI_TEST_PG_SERVER';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

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
