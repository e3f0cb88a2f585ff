import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docPath, evaluate, loadHardSet, type HardFigures } from '../../../bench/retrieval-eval';
import { usersRepo } from '../../../src/server/auth/accounts';
import { now, openDatabase, type Db } from '../../../src/server/db/database';
import { storeParseResult } from '../../../src/server/parsing/index-store';
import { parseImage } from '../../../src/server/parsing/image';
import { parsePdf } from '../../../src/server/parsing/pdf';
import { parseSdf } from '../../../src/server/parsing/sdf';
import { looksLikeNavigation } from '../../../src/server/parsing/navigation';
import { hybridSearch, RERANK_DEPTH } from '../../../src/server/retrieval/fusion';
import { nothingRelevant, citedPassages } from '../../../src/server/retrieval/rerank';
import { search, type Passage } from '../../../src/server/retrieval/search';
import { fileDatabase, hasPostgres } from '../postgres-harness';

// postgres: itself — it compares SQLite with the PostgreSQL it opens itself (postgres-harness.ts fileDatabase).
// Full-text retrieval on PostgreSQL gives the same passages, in the same order and
// with the same BM25 scores, as FTS5 on SQLite, over issue 17's evaluation set
// (bench/data/retrieval-hard.json): every document parsed once and stored in both databases.
const ROOT = path.resolve(__dirname, '../../..');
const set = loadHardSet(ROOT);
const docIds = Object.keys(set.docs);

let sqlite: Db;
let postgres: Db;
let closePg = () => {};

beforeAll(async () => {
  const pg = await fileDatabase('retrieval');
  closePg = pg.close;
  sqlite = await openDatabase(fs.mkdtempSync(path.join(os.tmpdir(), 'csai-pg-retrieval-')));
  postgres = await openDatabase('/nonexistent', pg.url);
  const owners = await Promise.all(
    [sqlite, postgres].map((db) => usersRepo(db).create({ email: 'hard@example.com', phone: null, name: '评测', password_hash: 'x', department_id: null, status: 'active' })),
  );
  for (const [id, doc] of Object.entries(set.docs)) {
    const file = docPath(ROOT, doc);
    const title = path.basename(file);
    const parsed = doc.kind === 'sdf' ? await parseSdf(file, title, () => {}) : doc.kind === 'ocr-image' ? await parseImage(file, title, () => {}) : await parsePdf(file, () => {});
    for (const [i, db] of [sqlite, postgres].entries()) {
      await db
        .insertInto('kb_documents')
        .values({ id, owner_id: owners[i]!.id, folder_id: null, title, type: 1, mime: 'application/octet-stream', size: 0, sha256: id, storage_name: id, parse_status: 1, parse_progress: 0, progress_texts: '[]', page_count: null, markdown: null, created_at: now(), updated_at: now() })
        .execute();
      await storeParseResult(db, id, parsed);
    }
  }
}, 600_000);

afterAll(async () => {
  await sqlite?.destroy();
  await postgres?.destroy();
  closePg();
});

const shown = (ps: Passage[]) => ps.map((p) => `${p.docId} p.${p.page} ${p.text.slice(0, 60)}`);

describe.skipIf(!hasPostgres())('retrieval on PostgreSQL and on SQLite', () => {
  it('stores the same passages with the same ids in both', async () => {
    const a = await sqlite.selectFrom('kb_chunks').select(['id', 'doc_id', 'segmented']).orderBy('id').execute();
    const b = await postgres.selectFrom('kb_chunks').select(['id', 'doc_id', 'segmented']).orderBy('id').execute();
    expect(b.length).toBeGreaterThan(500);
    // PostgreSQL text holds no U+0000 (database.ts drops it); the segmented words never had it.
    expect(b).toEqual(a);
  });

  const runs: Array<{ budget?: number; expand?: boolean }> = [{}, { budget: 60 }, { budget: 20 }, { expand: true }, { budget: 20, expand: true }];
  for (const { budget, expand } of runs) {
    it(`finds the same passages in the same order with the same scores for every question of the set${budget ? ` (ranking budget ${budget}: counted, capped and re-scored terms)` : ''}${expand ? ' (with the lexicon’s equivalents)' : ''}`, async () => {
      const differ: string[] = [];
      for (const q of set.questions) {
        const a = await search(sqlite, docIds, q.question, 8, { budget, expand });
        const b = await search(postgres, docIds, q.question, 8, { budget, expand });
        const same = a.length === b.length && a.every((p, i) => p.docId === b[i]!.docId && p.text.replaceAll('\0', '') === b[i]!.text && Math.abs(p.score - b[i]!.score) <= 1e-9 * Math.max(1, Math.abs(p.score)));
        if (!same) differ.push(`${q.question}\n  sqlite:   ${shown(a).join(' | ')}\n  postgres: ${shown(b).join(' | ')}`);
      }
      expect(differ, differ.slice(0, 5).join('\n')).toEqual([]);
    }, 300_000);
  }

  it('scores the evaluation on PostgreSQL at least as well as on SQLite (BM25 alone and with the second stage)', async () => {
    const figures = async (db: Db): Promise<[HardFigures, HardFigures]> => [
      await evaluate(set, (q, ids) => search(db, ids, q, 5), (_q, ps) => ps.length === 0, (ps) => ps.slice(0, 3), looksLikeNavigation),
      await evaluate(set, (q, ids) => hybridSearch(db, ids, q, RERANK_DEPTH), (_q, ps) => nothingRelevant(ps), (ps) => citedPassages(ps), looksLikeNavigation),
    ];
    const [onSqlite, onPostgres] = [await figures(sqlite), await figures(postgres)];
    for (const i of [0, 1]) {
      expect(onPostgres[i]!.recall5).toBeGreaterThanOrEqual(onSqlite[i]!.recall5);
      expect(onPostgres[i]!.mrr).toBeGreaterThanOrEqual(onSqlite[i]!.mrr - 1e-12);
      expect(onPostgres[i]!.abstainRight).toBeGreaterThanOrEqual(onSqlite[i]!.abstainRight);
    }
    expect(onSqlite[1]!.recall5).toBeGreaterThan(0.8);
  }, 300_000);
});
