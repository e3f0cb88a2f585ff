import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  Migrator,
  OperationNodeTransformer,
  PostgresDialect,
  SqliteDialect,
  type KyselyPlugin,
  type PrimitiveValueListNode,
  type SqliteDatabase,
  type Transaction,
  type ValueNode,
} from 'kysely';
import type { Database } from './schema';
import { migrations } from './migrations';
import { sqlTraceLog } from './sql-trace';

export type Db = Kysely<Database>;
/** A database handle or an open transaction: repositories accept either. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** The database could not be opened (unreachable server, refused login, failed migration): said in one line at start-up. */
export class DatabaseOpenError extends Error {}

/**
 * Opens the database and brings the schema up to date: PostgreSQL when `databaseUrl` is given
 * (DATABASE_URL), else (creating if needed) the SQLite file under dataDir with WAL, foreign keys
 * and a busy timeout.
 */
export async function openDatabase(dataDir: string, databaseUrl?: string): Promise<Db> {
  const db = databaseUrl ? await openPostgres(databaseUrl) : openSqliteFile(dataDir);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new DatabaseOpenError(`Database migration ${failed} failed: ${String(error)}`);
  }
  return db;
}

/** How long connecting to PostgreSQL may take before the start is given up. */
const CONNECT_TIMEOUT_MS = 10_000;

// int8 (count(*), sum) and numeric come back as numbers, booleans (exists …) as 1/0, as on SQLite.
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    if (oid === 16) return (v: string) => (v === 't' ? 1 : 0);
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  }) as typeof pg.types.getTypeParser,
};

/** Where a DATABASE_URL points, without its password (for messages). */
function describe(url: string) {
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

async function openPostgres(url: string): Promise<Db> {
  if (!/^postgres(ql)?:\/\//.test(url)) throw new DatabaseOpenError('DATABASE_URL must start with postgres:// or postgresql://');
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, types: pgTypes });
  // An idle client that loses its server is dropped by the pool; the error must not end the process.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    client.release();
  } catch (err) {
    await pool.end().catch(() => undefined);
    const why = err instanceof Error ? err.message || ('code' in err ? String(err.code) : err.name) : String(err);
    throw new DatabaseOpenError(`Cannot connect to PostgreSQL at ${describe(url)}: ${why}`);
  }
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [withoutNul], log: sqlTraceLog() });
}

/** PostgreSQL text cannot hold U+0000 (SQLite's can): text a PDF or upload brought with it is stored without. */
const noNul = (v: unknown) => (typeof v === 'string' && v.includes('\0') ? v.replaceAll('\0', '') : v);
class StripNul extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    return typeof node.value === 'string' && node.value.includes('\0') ? { ...node, value: noNul(node.value) } : node;
  }
  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return node.values.some((v) => typeof v === 'string' && v.includes('\0')) ? { ...node, values: node.values.map(noNul) } : node;
  }
}
const stripNul = new StripNul();
const withoutNul: KyselyPlugin = {
  transformQuery: (args) => stripNul.transformNode(args.node),
  transformResult: async (args) => args.result,
};

/** The most of the database file SQLite maps into memory (retrieval reads its index through it). */
const MMAP_BYTES = 2 * 1024 * 1024 * 1024;

function openSqliteFile(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'csai.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Reads of the database file go through a memory map instead of a read() and a copy per page:
  // a search at a million passages walks long FTS5 doclists (bm25() counts every passage holding
  // a ranked word), and with the map it reads them in place (bench/retrieval-scale.bench.ts).
  // Only address space: the pages are the kernel's file cache, shared and given back under
  // pressure. Capped by SQLite at its compile-time limit (2 GB in better-sqlite3).
  sqlite.pragma(`mmap_size = ${MMAP_BYTES}`);
  checkpointElsewhere(sqlite, file);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: keepingStatements(sqlite) }) });
  handles.set(db, sqlite);
  openFiles.set(file, sqlite);
  const close = sqlite.close.bind(sqlite);
  sqlite.close = () => {
    if (openFiles.get(file) === sqlite) openFiles.delete(file);
    return close();
  };
  return db;
}

/** The SQLite connections this process has open, by file. */
const openFiles = new Map<string, SQLite.Database>();

/**
 * The connection this process holds on a data folder's SQLite file, if any. Code in the same
 * process that writes beside the server (tests of an in-process server) goes through it: a second
 * connection's busy wait is synchronous and would block the very thread whose open transaction
 * it waits for, until "database is locked".
 */
export const openSqliteConnection = (dataDir: string): SQLite.Database | undefined => openFiles.get(path.join(dataDir, 'csai.sqlite'));

/** How many prepared statements the SQLite connection keeps (by SQL text, least recently used out). */
const STATEMENT_CACHE = 500;

/**
 * The connection as Kysely sees it, with a prepare that keeps its statements. Kysely prepares
 * every query it runs afresh, and compiling the SQL was the largest single cost of a request in
 * the server's main thread (a profile while documents parse and their status is polled: about a
 * fifth of the thread's busy time). A kept statement is reset after each run by better-sqlite3,
 * so it holds no read lock; SQLite re-prepares it by itself after a schema change.
 */
function keepingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = kept.get(sql);
      // Map order is use order: the first key is the least recently used.
      if (stmt) kept.delete(sql);
      else stmt = sqlite.prepare(sql);
      kept.set(sql, stmt);
      if (kept.size > STATEMENT_CACHE) kept.delete(kept.keys().next().value!);
      return stmt;
    },
  };
}

/** How often the checkpoint thread copies the write-ahead log into the database file. */
const CHECKPOINT_EVERY_MS = 1000;

// The checkpoint thread's code: its own connection, a passive checkpoint now and then (it waits
// for no reader or writer, and writers go on meanwhile).
const checkpointer = `
const { workerData } = require('node:worker_threads');
const SQLite = require(workerData.module);
const db = new SQLite(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}, workerData.everyMs);
`;

/**
 * Checkpoints run on a thread of their own instead of in the commit that fills the log: a
 * checkpoint copies pages and waits for the disk (fsync) for tens to hundreds of milliseconds,
 * which on the event loop held up every streaming answer (1500 streams: p95 lag 278 ms → 29 ms).
 * The thread ends when the connection closes; if it cannot start, SQLite checkpoints as before.
 */
function checkpointElsewhere(sqlite: SQLite.Database, file: string) {
  let worker: Worker;
  try {
    worker = new Worker(checkpointer, { eval: true, workerData: { file, module: createRequire(import.meta.url).resolve('better-sqlite3'), everyMs: CHECKPOINT_EVERY_MS } });
  } catch {
    return;
  }
  worker.unref();
  worker.on('error', () => sqlite.open && sqlite.pragma('wal_autocheckpoint = 1000'));
  sqlite.pragma('wal_autocheckpoint = 0');
  // A log that grew under load is cut back to this size once it has been checkpointed.
  sqlite.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  const close = sqlite.close.bind(sqlite);
  sqlite.close = () => {
    void worker.terminate();
    return close();
  };
}

const handles = new WeakMap<Db, SQLite.Database>();

/**
 * Runs `work` on the SQLite connection itself, with prepared statements kept by the caller, for
 * the few paths where building and preparing a query each time costs too much (answer events).
 * It holds Kysely's connection lock, so no Kysely transaction is open meanwhile and `work` may
 * open its own; `work` is synchronous (better-sqlite3 is), so nothing else runs in between.
 */
export async function withSqlite<T>(db: Db, work: (sqlite: SQLite.Database) => T): Promise<T> {
  const sqlite = handles.get(db);
  if (!sqlite) throw new Error('withSqlite needs a SQLite database opened by openDatabase');
  return db.connection().execute(async () => work(sqlite));
}

/** Whether `withSqlite` can be used (a SQLite database); PostgreSQL callers take their Kysely path. */
export const hasSqliteHandle = (db: Db) => handles.has(db);

/** The current time as the ISO string every timestamp column holds. */
export const now = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();
