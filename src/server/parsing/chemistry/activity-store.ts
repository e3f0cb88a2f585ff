/**
 * The `doc_activities` table (migration 0028): a document's activities as the parse worker read
 * them (activities.ts), replaced whenever its passages are (parse, re-index, a twin's copy).
 */
import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import type { ParsedActivity } from './activities';

const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));
const roundBox = (b: readonly number[]) => JSON.stringify(b.map((v) => Math.round(v * 100) / 100));

/** Replaces the document's activities with `activities`. */
export async function replaceActivities(tx: Executor, docId: string, activities: readonly ParsedActivity[]): Promise<void> {
  await tx.deleteFrom('doc_activities').where('doc_id', '=', docId).execute();
  const rows = activities.map((a) => ({
    doc_id: docId,
    page: a.page,
    bbox: a.bbox ? roundBox(a.bbox) : null,
    label: a.label,
    target: a.target,
    measure: a.measure,
    relation: a.relation,
    value: a.value,
    unit: a.unit,
    value_nm: a.valueNm,
    concentration: a.concentration,
    source: a.source,
    text: a.text,
  }));
  for (let i = 0; i < rows.length; i += 200) {
    await tx.insertInto('doc_activities').values(rows.slice(i, i + 200)).execute();
    await breathe();
  }
}

/** Gives document `toId` copies of document `fromId`'s activities (a copy, a twin of the same bytes). */
export async function copyActivities(tx: Executor, fromId: string, toId: string): Promise<void> {
  await tx.deleteFrom('doc_activities').where('doc_id', '=', toId).execute();
  await sql`insert into doc_activities (doc_id, page, bbox, label, target, measure, relation, value, unit, value_nm, concentration, source, text)
    select ${toId}, page, bbox, label, target, measure, relation, value, unit, value_nm, concentration, source, text from doc_activities where doc_id = ${fromId} order by id`.execute(tx);
}
