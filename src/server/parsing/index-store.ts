import { sql } from 'kysely';
import { engineOf, jsonAppend } from '../db/dialect';
import type { Db, Executor } from '../db/database';
import { now } from '../db/database';
import { INDEX_VERSION } from './index-version';
import type { ParseResult } from './protocol';
import { copyActivities, replaceActivities } from './chemistry/activity-store';
import { copyStructures, writeStructures } from './chemistry/store';

const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What made a document's passages: the chunking/indexing version and the title whose words they carry. */
export interface IndexStamp {
  version: number;
  title: string;
}

/** Replaces a document's passages (with their FTS5 rows, by trigger; their vectors go by cascade) and molecules. */
async function writePassages(tx: Executor, docId: string, result: ParseResult) {
  await tx.deleteFrom('kb_chunks').where('doc_id', '=', docId).execute();
  await tx.deleteFrom('kb_outline').where('doc_id', '=', docId).execute();
  await tx.deleteFrom('kb_molecules').where('doc_id', '=', docId).execute();
  // Tables of contents and indexes (parsing/navigation.ts) answer no ordinary question: they stay in
  // the markdown but out of the index. They are kept apart in kb_outline, for the questions about
  // the document's outline or its index (retrieval/outline.ts). Reference lists are indexed like
  // any passage: a question about the works a paper cites is answered from them, and an annotated
  // list answers more.
  const rowOf = (c: ParseResult['chunks'][number], ordinal: number) => ({
    doc_id: docId,
    ordinal,
    page: c.page,
    bbox: c.bbox ? JSON.stringify(c.bbox.map((v) => Math.round(v * 100) / 100)) : null,
    text: c.text,
    segmented: c.segmented,
  });
  const chunks = result.chunks.filter((c) => (c.kind ?? 'content') === 'content' || c.kind === 'references').map(rowOf);
  const outline = result.chunks.filter((c) => c.kind === 'toc' || c.kind === 'index').map((c, i) => ({ ...rowOf(c, i), kind: c.kind === 'index' ? ('index' as const) : ('toc' as const) }));
  // better-sqlite3 is synchronous: yield to the event loop between batches so a document with
  // tens of thousands of passages or molecules does not hold up other requests.
  for (let i = 0; i < chunks.length; i += 200) {
    await tx.insertInto('kb_chunks').values(chunks.slice(i, i + 200)).execute();
    await breathe();
  }
  for (let i = 0; i < outline.length; i += 200) await tx.insertInto('kb_outline').values(outline.slice(i, i + 200)).execute();
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
  await replaceActivities(tx, docId, result.activities ?? []);
  await writeStructures(tx, docId, result.structures);
}

/**
 * Writes a parse result in one transaction: chunks (with their FTS5 rows, by trigger),
 * molecules, the markdown, the index stamp and parseStatus 2, then `then` (its progress lines after
 * 解析完成 and its writes). A document deleted meanwhile is left alone.
 * Without a stamp the result counts as made by the current version under the document's current title.
 */
export async function storeParseResult(db: Db, docId: string, result: ParseResult, stamp?: IndexStamp, then?: { texts: string[]; inTransaction: (tx: Executor) => Promise<void> }) {
  await db.transaction().execute(async (tx) => {
    const doc = await tx.selectFrom('kb_documents').select('id').where('id', '=', docId).executeTakeFirst();
    if (!doc) return;
    await writePassages(tx, docId, result);
    let texts = sql<string>`progress_texts`;
    for (const note of [...result.notes, '解析完成', ...(then?.texts ?? [])]) texts = jsonAppend(engineOf(tx), texts, note);
    await tx
      .updateTable('kb_documents')
      .set({
        markdown: result.markdown,
        page_count: result.pageCount,
        parse_status: 2,
        parse_progress: 100,
        progress_texts: texts,
        index_version: stamp?.version ?? INDEX_VERSION,
        indexed_title: stamp ? stamp.title : sql<string>`title`,
        updated_at: now(),
      })
      .where('id', '=', docId)
      .execute();
    // What goes with the stored text (the structure step's job: parse-job.ts).
    await then?.inTransaction(tx);
  });
}

/**
 * A re-index (parsing/reindex.ts): swaps a parsed document's passages, molecules and markdown for
 * new ones in one transaction, so a search sees either all the old passages or all the new ones,
 * never none. Returns false (nothing written) when the document was deleted meanwhile or is no
 * longer parsed. parseStatus, progress and progress_texts are not touched: the document stays
 * parsed and searchable throughout.
 */
export async function replacePassages(db: Db, docId: string, result: ParseResult, stamp: IndexStamp): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const doc = await tx.selectFrom('kb_documents').select('id').where('id', '=', docId).where('parse_status', '=', 2).executeTakeFirst();
    if (!doc) return false;
    await writePassages(tx, docId, result);
    await tx
      .updateTable('kb_documents')
      .set({ markdown: result.markdown, page_count: result.pageCount, index_version: stamp.version, indexed_title: stamp.title, updated_at: now() })
      .where('id', '=', docId)
      .execute();
    return true;
  });
}

/** Replaces the document's passages and molecules with copies of another document's (its twin). */
export async function copyPassages(tx: Executor, docId: string, fromId: string): Promise<void> {
  await tx.deleteFrom('kb_chunks').where('doc_id', '=', docId).execute();
  await tx.deleteFrom('kb_outline').where('doc_id', '=', docId).execute();
  await tx.deleteFrom('kb_molecules').where('doc_id', '=', docId).execute();
  await sql`insert into kb_chunks (doc_id, ordinal, page, bbox, text, segmented)
    select ${docId}, ordinal, page, bbox, text, segmented from kb_chunks where doc_id = ${fromId} order by ordinal`.execute(tx);
  await sql`insert into kb_outline (doc_id, ordinal, page, bbox, text, segmented, kind)
    select ${docId}, ordinal, page, bbox, text, segmented, kind from kb_outline where doc_id = ${fromId} order by ordinal`.execute(tx);
  await sql`insert into kb_molecules (doc_id, idx, name, smiles, molfile, properties)
    select ${docId}, idx, name, smiles, molfile, properties from kb_molecules where doc_id = ${fromId} order by idx`.execute(tx);
  await copyActivities(tx, fromId, docId);
  await copyStructures(tx, docId, fromId);
}

/**
 * A re-index that can reuse the passages of a twin (the same bytes under the same title, already
 * at the current version): they are copied over in one transaction instead of parsing again.
 * Returns false when the document or the twin is gone or no longer parsed.
 */
export async function replacePassagesFromTwin(db: Db, docId: string, twinId: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const doc = await tx.selectFrom('kb_documents').select('id').where('id', '=', docId).where('parse_status', '=', 2).executeTakeFirst();
    const twin = await tx
      .selectFrom('kb_documents')
      .select(['markdown', 'page_count', 'index_version', 'indexed_title'])
      .where('id', '=', twinId)
      .where('parse_status', '=', 2)
      .executeTakeFirst();
    if (!doc || !twin) return false;
    await copyPassages(tx, docId, twinId);
    await tx
      .updateTable('kb_documents')
      .set({ markdown: twin.markdown, page_count: twin.page_count, index_version: twin.index_version, indexed_title: twin.indexed_title, updated_at: now() })
      .where('id', '=', docId)
      .execute();
    return true;
  });
}
