import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/server/db/database';

// postgres: sqlite-only — the statements kept by the SQLite connection (database.ts); the pg driver prepares nothing itself.
// The SQLite connection keeps the statements Kysely prepares (by SQL text). What a user of the
// database must never notice: a kept statement returning old rows, staying stuck in a stream left
// early, missing a column added since, or running out when many queries are made.
let dir: string;
let db: Db;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-statements-'));
  db = await openDatabase(dir);
  await sql`create table notes (id integer primary key, body text not null)`.execute(db);
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

// The table is not in the schema type: the queries go through Kysely's untyped form.
const notes = () => db.withTables<{ notes: { id: number; body: string } }>();

describe('the SQLite connection keeps its prepared statements', () => {
  it('and the same query run again sees what was written in between', async () => {
    const read = () => notes().selectFrom('notes').select(['id', 'body']).orderBy('id').execute();
    expect(await read()).toEqual([]);
    await notes().insertInto('notes').values({ id: 1, body: '苯' }).execute();
    expect(await read()).toEqual([{ id: 1, body: '苯' }]);
    await notes().insertInto('notes').values({ id: 2, body: '吡啶' }).execute();
    await notes().updateTable('notes').set({ body: '甲苯' }).where('id', '=', 1).execute();
    expect(await read()).toEqual([
      { id: 1, body: '甲苯' },
      { id: 2, body: '吡啶' },
    ]);
  });

  it('and a query streamed row by row and left after its first row runs again in full', async () => {
    const query = () => notes().selectFrom('notes').select(['id', 'body']).orderBy('id');
    for await (const row of query().stream()) {
      expect(row).toEqual({ id: 1, body: '甲苯' });
      break;
    }
    expect(await query().execute()).toHaveLength(2);
    const streamed = [];
    for await (const row of query().stream()) streamed.push(row.id);
    expect(streamed).toEqual([1, 2]);
  });

  it('and a column added after a query was kept shows in that query', async () => {
    const all = () => notes().selectFrom('notes').selectAll().where('id', '=', 2).execute();
    expect(await all()).toEqual([{ id: 2, body: '吡啶' }]);
    await sql`alter table notes add column smiles text`.execute(db);
    await sql`update notes set smiles = 'c1ccncc1' where id = 2`.execute(db);
    expect(await all()).toEqual([{ id: 2, body: '吡啶', smiles: 'c1ccncc1' }]);
  });

  it('and many different queries (more than are kept) all answer rightly, the first ones again too', async () => {
    // Each i makes a different SQL text (its literal), so 1,200 statements pass through the cache.
    const byId = (id: number, i: number) => sql<{ body: string }>`select body from notes where id = ${id} and ${sql.lit(i)} >= 0`.execute(db);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 1200; i++) {
        const rows = (await byId(1 + (i % 2), i)).rows;
        expect(rows).toEqual([{ body: i % 2 ? '吡啶' : '甲苯' }]);
      }
    }
  });
});
