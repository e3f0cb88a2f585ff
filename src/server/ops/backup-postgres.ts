/**
 * The PostgreSQL half of backups (DATABASE_URL): pg_dump in its custom format from one snapshot,
 * pg_restore back. The snapshot is exported by a read-only repeatable-read transaction that also
 * reads the stored-file names and counts, and pg_dump runs on that same snapshot, so the files
 * taken are exactly those the dump refers to. The programs come from Debian's postgresql-client
 * (the newest /usr/lib/postgresql/<version>/bin, else the PATH); pg_dump must be at least as new as
 * the server.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { traceStatement } from '../db/sql-trace';

export const DUMP_FILE = 'csai.pgdump';

/** A PostgreSQL program: the newest Debian version's, else whatever the PATH finds. */
function program(name: 'pg_dump' | 'pg_restore'): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => path.join(root, v, 'bin', name)).find((p) => fs.existsSync(p));
  return found ?? name;
}

/** Runs a program; rejects with its last stderr lines when it fails or cannot start. */
function run(name: 'pg_dump' | 'pg_restore', args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(program(name), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e) => reject(new Error(`${name} could not start (${e.message}): install postgresql-client`)));
    child.on('exit', (code, signal) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${name} failed (${code ?? signal}): ${err.trim().split('\n').slice(-3).join(' ')}`));
    });
  });
}

export interface DumpResult {
  /** Storage names of the files the dumped documents refer to. */
  referenced: string[];
  users: number;
  documents: number;
}

/** Dumps the database to `file` (custom format) from one snapshot; returns what that snapshot holds. */
export async function dumpPostgres(url: string, file: string): Promise<DumpResult> {
  traceStatement('pg_dump from an exported snapshot');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin transaction isolation level repeatable read read only');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]!.id;
    const referenced = (await client.query<{ name: string }>('select distinct storage_name as name from kb_documents')).rows.map((r) => r.name);
    const users = Number((await client.query<{ n: string }>('select count(*) as n from users')).rows[0]!.n);
    const documents = Number((await client.query<{ n: string }>('select count(*) as n from kb_documents')).rows[0]!.n);
    // The snapshot lives as long as this transaction: pg_dump reads exactly what was counted above.
    await run('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${url}`]);
    await client.query('commit');
    return { referenced, users, documents };
  } finally {
    await client.end();
  }
}

/** Whether a dump file is a readable pg_dump archive (pg_restore can list it). */
export async function readableDump(file: string): Promise<boolean> {
  try {
    await run('pg_restore', ['--list', file]);
    return true;
  } catch {
    return false;
  }
}

/** Whether the database already holds CSAI's tables. */
export async function holdsTables(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ t: string | null }>(`select to_regclass('public.users')::text as t`)).rows[0]?.t != null;
  } finally {
    await client.end();
  }
}

/** Restores a dump into the database in one transaction; `replace` drops what is there first. */
export async function restorePostgres(url: string, file: string, replace: boolean): Promise<void> {
  traceStatement(`pg_restore${replace ? ' --clean' : ''}`);
  await run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', ...(replace ? ['--clean', '--if-exists'] : []), `--dbname=${url}`, file]);
}
