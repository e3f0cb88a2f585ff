import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/server/db/database';

// postgres: sqlite-only — SQLite's write-ahead log and its checkpoint thread; PostgreSQL has neither.
// Checkpoints run on their own thread: the connection the server writes through never copies
// the write-ahead log itself, yet what it wrote reaches the database file.
let dir: string | undefined;
let db: Db | undefined;
afterAll(async () => {
  await db?.destroy();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the database file', () => {
  it('receives what was written through a checkpoint thread, the writing connection never checkpointing', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-checkpoint-'));
    db = await openDatabase(dir);
    const file = path.join(dir, 'csai.sqlite');
    expect((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]?.wal_autocheckpoint).toBe(0);
    await sql`create table filler (x text)`.execute(db);
    const before = fs.statSync(file).size;
    await db.transaction().execute(async (tx) => {
      for (let i = 0; i < 200; i++) await sql`insert into filler values (${'药'.repeat(2000)})`.execute(tx);
    });
    // ~1.2 MB went to the log; the thread copies it into the file within a second or so.
    await expect.poll(() => fs.statSync(file).size, { timeout: 10_000, interval: 100 }).toBeGreaterThan(before + 1_000_000);
    expect((await sql<{ n: number }>`select count(*) as n from filler`.execute(db)).rows[0]?.n).toBe(200);
  });
});
