/**
 * Backups while the server runs; the commands are in src/server/cli/backup.ts.
 *
 * A backup is a folder `csai-backup-<time>` holding a consistent copy of the database (SQLite's
 * online backup: one snapshot, writers keep going), the stored files its documents refer to, the
 * secret key and `manifest.json`. Stored files are content-addressed and never change, so they are
 * hard-linked when the backup is on the same disk (copied otherwise). Files are taken once before
 * the snapshot and again after it, so a document deleted meanwhile still has its file. The folder
 * is written as `.partial` and renamed when complete.
 *
 * Restore copies a backup into an empty data folder (stop the server first); `--force` moves an
 * existing data folder aside to `<folder>.before-restore-<time>` instead of refusing.
 *
 * With DATABASE_URL (PostgreSQL) the database part is `csai.pgdump` (pg_dump's custom format, from
 * one snapshot: backup-postgres.ts) instead of the SQLite file; restore loads it with pg_restore
 * into a database without CSAI's tables, or with `--force` replaces the tables there.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { z } from 'zod';
import { dumpPostgres, DUMP_FILE, holdsTables, readableDump, restorePostgres } from './backup-postgres';

const DB_FILE = 'csai.sqlite';
const SECRET_FILE = 'secret.key';
const STORAGE_NAME = /^[0-9a-f]{64}$/;

const manifest = z.object({
  format: z.literal(1),
  created_at: z.string(),
  users: z.number().int(),
  documents: z.number().int(),
  files: z.number().int(),
  missing_files: z.array(z.string()),
  /** The engine the backup is of (backups from before PostgreSQL have none: SQLite). */
  database: z.enum(['sqlite', 'postgres']).default('sqlite'),
});
export type Manifest = z.infer<typeof manifest>;

/** A backup or restore that cannot be done as asked (the message says why). */
export class BackupUsageError extends Error {}

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');
const filePath = (root: string, name: string) => path.join(root, 'files', name.slice(0, 2), name);

/** Hard-links (or, across disks, copies) one stored file; false when it is gone. */
function takeFile(dataDir: string, target: string, name: string): boolean {
  const from = filePath(dataDir, name);
  const to = filePath(target, name);
  if (fs.existsSync(to)) return true;
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.linkSync(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code !== 'EXDEV' && code !== 'EPERM') throw err;
    try {
      fs.copyFileSync(from, to);
    } catch (copyErr) {
      if ((copyErr as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw copyErr;
    }
  }
  return true;
}

/** Every stored file present in the data folder now. */
function storedFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'files');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .filter((d) => /^[0-9a-f]{2}$/.test(d))
    .flatMap((d) => fs.readdirSync(path.join(root, d)).filter((f) => STORAGE_NAME.test(f)));
}

const count = (db: SQLite.Database, table: string) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;

function integrity(file: string): string {
  const db = new SQLite(file, { readonly: true });
  try {
    return (db.pragma('integrity_check', { simple: true }) as string) ?? 'unknown';
  } finally {
    db.close();
  }
}

/** Keeps the files of `referenced` in the backup folder (taken again now) and drops the others; returns those not found. */
function settleFiles(dataDir: string, partial: string, referenced: string[]): string[] {
  const missing = referenced.filter((name) => !takeFile(dataDir, partial, name));
  // Files no document of the snapshot refers to (uploaded after it) are not part of this backup.
  const wanted = new Set(referenced);
  for (const name of storedFiles(partial)) if (!wanted.has(name)) fs.rmSync(filePath(partial, name));
  return missing;
}

/** Writes the secret and the manifest and makes the folder final. */
function finish(dataDir: string, partial: string, final: string, result: Manifest) {
  if (fs.existsSync(path.join(dataDir, SECRET_FILE))) fs.copyFileSync(path.join(dataDir, SECRET_FILE), path.join(partial, SECRET_FILE));
  fs.writeFileSync(path.join(partial, 'manifest.json'), `${JSON.stringify(result, null, 2)}\n`);
  fs.renameSync(partial, final);
}

/**
 * One backup folder under `toDir`, built as `<name>.partial` and renamed when whole: the stored
 * files are copied first (a document deleted after the snapshot keeps its file), then `snapshot`
 * copies the database into the folder and returns the manifest; on any failure the folder goes.
 */
async function backupFolder(dataDir: string, toDir: string, snapshot: (partial: string) => Promise<Manifest>): Promise<{ dir: string; manifest: Manifest }> {
  fs.mkdirSync(toDir, { recursive: true });
  const final = path.join(toDir, `csai-backup-${stamp()}`);
  const partial = `${final}.partial`;
  fs.mkdirSync(partial);
  try {
    for (const name of storedFiles(dataDir)) takeFile(dataDir, partial, name);
    const result = await snapshot(partial);
    finish(dataDir, partial, final, result);
    return { dir: final, manifest: result };
  } catch (err) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}

/** Makes one backup of `dataDir` (and of the PostgreSQL database at `databaseUrl`, if given) under `toDir`; returns its folder. */
export async function backup(dataDir: string, toDir: string, databaseUrl?: string): Promise<{ dir: string; manifest: Manifest }> {
  if (databaseUrl) return backupFolder(dataDir, toDir, (partial) => snapshotPostgres(dataDir, partial, databaseUrl));
  const source = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(source)) throw new BackupUsageError(`no database at ${source}`);
  return backupFolder(dataDir, toDir, async (partial) => {
    const live = new SQLite(source, { fileMustExist: true });
    try {
      live.pragma('busy_timeout = 10000');
      await live.backup(path.join(partial, DB_FILE));
    } finally {
      live.close();
    }
    const copy = new SQLite(path.join(partial, DB_FILE));
    let result: Manifest;
    try {
      const referenced = (copy.prepare('select distinct storage_name as name from kb_documents').all() as { name: string }[]).map((r) => r.name);
      const missing = settleFiles(dataDir, partial, referenced);
      result = { format: 1, created_at: new Date().toISOString(), users: count(copy, 'users'), documents: count(copy, 'kb_documents'), files: referenced.length - missing.length, missing_files: missing, database: 'sqlite' };
    } finally {
      copy.close();
    }
    const check = integrity(path.join(partial, DB_FILE));
    if (check !== 'ok') throw new Error(`the copied database fails its integrity check: ${check}`);
    return result;
  });
}

/** The PostgreSQL database dumped into a backup folder (pg_dump on the snapshot that names the files taken). */
async function snapshotPostgres(dataDir: string, partial: string, url: string): Promise<Manifest> {
  const dumped = await dumpPostgres(url, path.join(partial, DUMP_FILE));
  const missing = settleFiles(dataDir, partial, dumped.referenced);
  if (!(await readableDump(path.join(partial, DUMP_FILE)))) throw new Error('pg_restore cannot read the dump just written');
  return { format: 1, created_at: new Date().toISOString(), users: dumped.users, documents: dumped.documents, files: dumped.referenced.length - missing.length, missing_files: missing, database: 'postgres' };
}

/**
 * Puts a backup back into `dataDir` (which must be empty of a database unless `force`), and its
 * database into the PostgreSQL database at `databaseUrl` for a backup of PostgreSQL.
 */
export async function restore(backupDir: string, dataDir: string, force = false, databaseUrl?: string): Promise<Manifest> {
  const manifestFile = path.join(backupDir, 'manifest.json');
  if (!fs.existsSync(manifestFile)) throw new BackupUsageError(`not a CSAI backup (no manifest.json): ${backupDir}`);
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  } catch {
    throw new BackupUsageError(`unreadable manifest.json in ${backupDir}`);
  }
  const parsed = manifest.safeParse(json);
  if (!parsed.success) throw new BackupUsageError(`unreadable manifest.json in ${backupDir}`);
  const onPostgres = parsed.data.database === 'postgres';
  if (onPostgres !== !!databaseUrl) {
    throw new BackupUsageError(onPostgres ? 'this backup is of a PostgreSQL database: set DATABASE_URL to the database to restore into' : 'this backup is of a SQLite database: unset DATABASE_URL to restore it');
  }
  const setAside = () => fs.renameSync(dataDir, `${dataDir.replace(/[\\/]+$/, '')}.before-restore-${stamp()}`);
  if (databaseUrl) {
    const dump = path.join(backupDir, DUMP_FILE);
    if (!(await readableDump(dump))) throw new BackupUsageError(`the backup's database dump cannot be read: ${dump}`);
    const holds = await holdsTables(databaseUrl);
    if (holds && !force) throw new BackupUsageError(`the database of DATABASE_URL already holds a database: stop the server and pass --force to replace its tables`);
    if (holds && fs.existsSync(dataDir)) setAside();
    await restorePostgres(databaseUrl, dump, holds);
    fs.mkdirSync(dataDir, { recursive: true });
  } else {
    const check = integrity(path.join(backupDir, DB_FILE));
    if (check !== 'ok') throw new BackupUsageError(`the backup's database fails its integrity check: ${check}`);
    if (fs.existsSync(path.join(dataDir, DB_FILE))) {
      if (!force) throw new BackupUsageError(`${dataDir} already holds a database: stop the server and pass --force to move it aside`);
      setAside();
    }
    fs.mkdirSync(dataDir, { recursive: true });
    fs.copyFileSync(path.join(backupDir, DB_FILE), path.join(dataDir, DB_FILE));
  }
  for (const name of storedFiles(backupDir)) {
    const to = filePath(dataDir, name);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(filePath(backupDir, name), to);
  }
  if (fs.existsSync(path.join(backupDir, SECRET_FILE))) fs.copyFileSync(path.join(backupDir, SECRET_FILE), path.join(dataDir, SECRET_FILE));
  return parsed.data;
}
