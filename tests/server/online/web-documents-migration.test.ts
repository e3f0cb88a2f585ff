import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/server/db/database';
import { migrations } from '../../../src/server/db/migrations';

// postgres: sqlite-only — the table rebuild of 0014 is SQLite's (PostgreSQL alters the check in place, migrations.ts).
// 0014_web_documents rebuilds kb_documents to allow type 7: a database with documents, passages and
// shares from before must come through whole, with its foreign keys and indexes working.
describe('migration 0014_web_documents', () => {
  it('keeps every document, passage and index, and cascades deletes as before', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-0014-'));
    const file = path.join(dir, 'csai.sqlite');
    const sqlite = new SQLite(file);
    sqlite.pragma('foreign_keys = ON');
    const before = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const earlier = Object.keys(migrations).filter((name) => name < '0014_web_documents').sort().at(-1)!;
    const migrated = await new Migrator({ db: before, provider: { getMigrations: async () => migrations } }).migrateTo(earlier);
    expect(migrated.error).toBeUndefined();
    const t = new Date().toISOString();
    sqlite.prepare(`insert into users (id, email, password_hash, name, status, created_at) values ('u1', 'a@b.c', 'x', 'A', 'active', ?)`).run(t);
    const doc = sqlite.prepare(`insert into kb_documents (id, owner_id, folder_id, title, type, mime, size, sha256, storage_name, parse_status, parse_progress, progress_texts, page_count, markdown, created_at, updated_at)
      values (?, 'u1', null, ?, 1, 'application/pdf', 10, 'h', 'h', 2, 100, '[]', 1, '# x', ?, ?)`);
    doc.run('d1', 'one.pdf', t, t);
    doc.run('d2', 'two.pdf', t, t);
    const chunk = sqlite.prepare(`insert into kb_chunks (doc_id, ordinal, page, bbox, text, segmented) values (?, ?, 1, null, ?, ?)`);
    chunk.run('d1', 0, 'aspirin text', 'aspirin text');
    chunk.run('d2', 0, 'ibuprofen text', 'ibuprofen text');
    const indexesBefore = sqlite.prepare(`select name from sqlite_schema where type = 'index' and tbl_name = 'kb_documents' and sql is not null order by name`).all();
    await before.destroy();

    const db = await openDatabase(dir);
    try {
      const raw = new SQLite(file);
      try {
        expect(raw.prepare(`select id, title, type, source_url, fetched_at from kb_documents order by id`).all()).toEqual([
          { id: 'd1', title: 'one.pdf', type: 1, source_url: null, fetched_at: null },
          { id: 'd2', title: 'two.pdf', type: 1, source_url: null, fetched_at: null },
        ]);
        expect(raw.prepare(`select count(*) as n from kb_chunks`).get()).toEqual({ n: 2 });
        expect(raw.prepare(`select name from sqlite_schema where type = 'index' and tbl_name = 'kb_documents' and sql is not null order by name`).all()).toEqual(indexesBefore);
        expect(raw.pragma('foreign_key_check')).toEqual([]);
        raw.pragma('foreign_keys = ON');
        // Type 7 is accepted now; other types still are not.
        raw.prepare(`insert into kb_documents (id, owner_id, folder_id, title, type, mime, size, sha256, storage_name, parse_status, parse_progress, progress_texts, created_at, updated_at, source_url, fetched_at)
          values ('d3', 'u1', null, 'page.md', 7, 'text/markdown', 5, 'm', 'm', 1, 0, '[]', ?, ?, 'https://example.com/', ?)`).run(t, t, t);
        expect(() => raw.prepare(`update kb_documents set type = 4 where id = 'd3'`).run()).toThrow(/CHECK/);
        // Passages still belong to their document: deleting it deletes them.
        raw.prepare(`delete from kb_documents where id = 'd1'`).run();
        expect(raw.prepare(`select doc_id from kb_chunks`).all()).toEqual([{ doc_id: 'd2' }]);
        expect(raw.pragma('foreign_keys', { simple: true })).toBe(1);
      } finally {
        raw.close();
      }
    } finally {
      await db.destroy();
    }
  });
});
