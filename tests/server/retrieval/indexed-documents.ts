import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { usersRepo } from '../../../src/server/auth/accounts';
import { now, type Db } from '../../../src/server/db/database';
import { storeParseResult } from '../../../src/server/parsing/index-store';
import type { PassageKind } from '../../../src/server/parsing/navigation';
import { segmentForIndex } from '../../../src/server/text/segment';
import { openTestDatabase } from '../postgres-harness';

/** A parsed document of `ownerId` whose passages are indexed as the parse stores them (one box each). */
export async function addIndexedDocument(db: Db, ownerId: string, id: string, passages: Array<{ page: number; text: string; kind?: PassageKind }>) {
  await db
    .insertInto('kb_documents')
    .values({ id, owner_id: ownerId, folder_id: null, title: id, type: 1, mime: 'application/pdf', size: 0, sha256: id, storage_name: id, parse_status: 1, parse_progress: 0, progress_texts: '[]', page_count: null, markdown: null, created_at: now(), updated_at: now() })
    .execute();
  await storeParseResult(db, id, {
    markdown: '',
    pageCount: passages.length ? Math.max(...passages.map((p) => p.page)) : 0,
    chunks: passages.map((p) => ({ page: p.page, bbox: [10, 20, 300, 40], text: p.text, segmented: segmentForIndex(p.text), kind: p.kind })),
    molecules: [],
    notes: [],
  });
}

/**
 * A test database in a folder of its own holding one owner's parsed documents, indexed in the order
 * given (document id → passages); `close` destroys the database and removes the folder.
 */
export async function indexedDatabase(name: string, documents: Record<string, Array<{ page: number; text: string; kind?: PassageKind }>>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `csai-${name}-`));
  const db = await openTestDatabase(dir);
  const owner = await usersRepo(db).create({ email: `${name}@example.com`, phone: null, name: '检索', password_hash: 'x', department_id: null, status: 'active' });
  for (const [id, passages] of Object.entries(documents)) await addIndexedDocument(db, owner.id, id, passages);
  return {
    db,
    close: async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
