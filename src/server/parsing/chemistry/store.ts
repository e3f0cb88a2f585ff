import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import type { ParsedStructure } from '../protocol';

type Box = [number, number, number, number];

const overlaps = (a: Box, b: Box) => {
  const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const small = Math.min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]));
  return small > 0 && (ix * iy) / small > 0.5;
};

/**
 * Replaces a document's recognised structures (inside the parse result's transaction). Corrected
 * rows are kept, readers' work outlives a re-parse; a new reading of the same drawing (same page,
 * overlapping box) gives way to the correction. `undefined` (a parser that reads no drawings) leaves
 * the rows alone.
 */
export async function writeStructures(tx: Executor, docId: string, structures: ParsedStructure[] | undefined): Promise<void> {
  if (!structures) return;
  await tx.deleteFrom('doc_structures').where('doc_id', '=', docId).where('corrected_smiles', 'is', null).execute();
  const kept = await tx.selectFrom('doc_structures').select(['page', 'bbox']).where('doc_id', '=', docId).execute();
  const corrected = kept.map((k) => ({ page: k.page, bbox: JSON.parse(k.bbox) as Box }));
  const rows = structures
    .filter((s) => !corrected.some((c) => c.page === s.page && overlaps(c.bbox, s.bbox)))
    .map((s) => ({ doc_id: docId, page: s.page, bbox: JSON.stringify(s.bbox), smiles: s.smiles, confidence: s.confidence, method: s.method, label: s.label }));
  for (let i = 0; i < rows.length; i += 200) await tx.insertInto('doc_structures').values(rows.slice(i, i + 200)).execute();
}

/** A twin's structures copied to a document with the same bytes (its recognition, not its readers' corrections). */
export async function copyStructures(tx: Executor, docId: string, fromId: string): Promise<void> {
  await tx.deleteFrom('doc_structures').where('doc_id', '=', docId).execute();
  await sql`insert into doc_structures (doc_id, page, bbox, smiles, confidence, method, label)
    select ${docId}, page, bbox, smiles, confidence, method, label from doc_structures where doc_id = ${fromId} order by id`.execute(tx);
}
