import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Transaction } from 'kysely';
import type { Database } from './schema';
import { migrations } from './migrations';

export type Db = Kysely<Database>;
/** A database handle or an open transaction: repositories accept either. */
export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Opens (creating if needed) the SQLite file under dataDir with WAL, foreign keys and a busy
 * timeout, and brings the schema up to date.
 */
export async function openDatabase(dataDir: string): Promise<Db> {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'csai.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  handles.set(db, sqlite);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${String(error)}`);
  }
  return db;
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
  if (!sqlite) throw new Error('withSqlite needs a database opened by openDatabase');
  return db.connection().execute(async () => work(sqlite));
}

/** The current time as the ISO string every timestamp column holds. */
export const now = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();
