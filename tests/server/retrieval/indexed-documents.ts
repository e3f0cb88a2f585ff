import { now, type Db } from '../../../src/server/db/database';
import { storeParseResult } from '../../../src/server/parsing/index-store';
import { segmentForIndex } from '../../../src/server/text/segment';

/** A parsed document of `ownerId` whose passages are indexed as the parse stores them (one box each). */
export async function addIndexedDocument(db: Db, ownerId: string, id: string, passages: Array<{ page: number; text: string }>) {
  await db
    .insertInto('kb_documents')
    .values({ id, owner_id: ownerId, folder_id: null, title: id, type: 1, mime: 'application/pdf', size: 0, sha256: id, storage_name: id, parse_status: 1, parse_progress: 0, progress_texts: '[]', page_count: null, markdown: null, created_at: now(), updated_at: now() })
    .execute();
  await storeParseResult(db, id, {
    markdown: '',
    pageCount: passages.length ? Math.max(...passages.map((p) => p.page)) : 0,
    chunks: passages.map((p) => ({ page: p.page, bbox: [10, 20, 300, 40], text: p.text, segmented: segmentForIndex(p.text) })),
    molecules: [],
    notes: [],
  });
}
