import { sql } from 'kysely';
import type { Db } from '../db/database';
import { now } from '../db/database';
import type { ParseResult } from '../parsing/protocol';

const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes a parse result in one transaction: chunks (with their FTS5 rows, by trigger),
 * molecules, the markdown, and parseStatus 2. A document deleted meanwhile is left alone.
 */
export async function storeParseResult(db: Db, docId: string, result: ParseResult) {
  await db.transaction().execute(async (tx) => {
    const doc = await tx.selectFrom('kb_documents').select('id').where('id', '=', docId).executeTakeFirst();
    if (!doc) return;
    await tx.deleteFrom('kb_chunks').where('doc_id', '=', docId).execute();
    await tx.deleteFrom('kb_molecules').where('doc_id', '=', docId).execute();
    const chunks = result.chunks.map((c, ordinal) => ({
      doc_id: docId,
      ordinal,
      page: c.page,
      bbox: c.bbox ? JSON.stringify(c.bbox.map((v) => Math.round(v * 100) / 100)) : null,
      text: c.text,
      segmented: c.segmented,
    }));
    // better-sqlite3 is synchronous: yield to the event loop between batches so a document with
    // tens of thousands of passages or molecules does not hold up other requests.
    for (let i = 0; i < chunks.length; i += 200) {
      await tx.insertInto('kb_chunks').values(chunks.slice(i, i + 200)).execute();
      await breathe();
    }
    const molecules = result.molecules.map((m) => ({
      doc_id: docId,
      idx: m.idx,
      name: m.name,
      smiles: m.smiles,
      molfile: m.molfile,
      properties: JSON.stringify(m.properties),
    }));
    for (let i = 0; i < molecules.length; i += 200) {
      await tx.insertInto('kb_molecules').values(molecules.slice(i, i + 200)).execute();
      await breathe();
    }
    let texts = sql<string>`progress_texts`;
    for (const note of [...result.notes, '解析完成']) texts = sql<string>`json_insert(${texts}, '$[#]', ${note})`;
    await tx
      .updateTable('kb_documents')
      .set({ markdown: result.markdown, page_count: result.pageCount, parse_status: 2, parse_progress: 100, progress_texts: texts, updated_at: now() })
      .where('id', '=', docId)
      .execute();
  });
}
