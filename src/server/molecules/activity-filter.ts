/**
 * Links molecules to the activities read from documents and filters molecule search
 * by them.
 *
 * A molecule's compound label is `normaliseLabel` of its name: an SDF record named (or with an ID
 * field) "12a", a figure structure whose name is the label read beside its drawing. A molecule and
 * an activity are linked when their labels are equal and they are in the same document set:
 * - the same document (a figure of the paper and a row of its activity table), or
 * - documents of the same knowledge base (folder): an SDF of the compounds uploaded beside the
 *   paper whose table lists them; documents outside any folder (question files) link within one
 *   owner's question files.
 * Only documents the viewer may read take part.
 *
 * A filter `{ target, measure, relation, value }` keeps molecules linked to at least one activity
 * of that target (gene symbols compared without case, spaces or hyphens; "CDK2" also matches a
 * table's "CDK2/cyclin A") and measure whose value surely satisfies the comparison: IC50 < 100 nM
 * is met by "= 45 nM", "< 10 nM" and "~ 90 nM", not by "< 500 nM" nor "> 10 nM". IC50, Ki, Kd and
 * EC50 compare their nM values (activities without one never match a value); inhibition compares %.
 */
import { sql } from 'kysely';
import type { ActivityFilter, LinkedActivity } from '../../contract/chemdocs';
import type { MoleculeHit } from '../../contract/molecules';
import { docReadable, type Viewer } from '../access/access';
import type { Db } from '../db/database';
import type { DocActivityTable } from '../db/schema';
import { normaliseLabel } from '../text/compound-label';

/** Molecules a filter may keep at most (the structure search then runs within them). */
export const MAX_LINKED = 20_000;
/** Activities attached to one hit at most. */
const MAX_PER_HIT = 50;

type ActivityRow = Omit<DocActivityTable, 'id'> & { id: number; doc_title: string; folder_id: string | null; owner_id: string };

/** A target as compared: upper case, without spaces, hyphens and the words kinase/激酶. */
export function targetKey(target: string): string {
  return target
    .normalize('NFKC')
    .replace(/(?:激酶|酶|受体|蛋白|kinase|receptor|protein)/giu, '')
    .replace(/[\s\-_]/g, '')
    .toUpperCase();
}

/** Whether an activity's target is the filter's: equal, or one of its parts ("CDK2/cyclin A", "EGFR (T790M)"). */
export function sameTarget(activityTarget: string | null, wanted: string): boolean {
  if (!activityTarget) return false;
  const want = targetKey(wanted);
  if (!want) return false;
  if (targetKey(activityTarget) === want) return true;
  return activityTarget.split(/[/,;()（）]|\s+/).some((part) => part.trim() && targetKey(part) === want);
}

/** Whether the true value behind `relation x` surely satisfies `want v`. */
export function satisfies(relation: string, x: number, want: NonNullable<ActivityFilter['relation']>, v: number): boolean {
  const exact = relation === '=' || relation === '~';
  switch (want) {
    case '<':
      return (exact || relation === '<=') ? x < v : relation === '<' ? x <= v : false;
    case '<=':
      return exact || relation === '<' || relation === '<=' ? x <= v : false;
    case '>':
      return (exact || relation === '>=') ? x > v : relation === '>' ? x >= v : false;
    case '>=':
      return exact || relation === '>' || relation === '>=' ? x >= v : false;
    case '=':
      return exact && Math.abs(x - v) <= 1e-6 * Math.max(1, Math.abs(v));
  }
}

/** Whether one activity satisfies the filter. */
export function activityMatches(a: Pick<DocActivityTable, 'target' | 'measure' | 'relation' | 'value' | 'value_nm'>, f: ActivityFilter): boolean {
  if (f.measure && a.measure !== f.measure) return false;
  if (f.target && !sameTarget(a.target, f.target)) return false;
  if (f.relation !== undefined && f.value !== undefined) {
    const x = a.measure === 'inhibition' ? a.value : a.value_nm;
    if (x === null || !satisfies(a.relation, x, f.relation, f.value)) return false;
  }
  return true;
}

/** The key of a document set: its folder, or its owner's question files. */
const setKey = (doc: { folder_id: string | null; owner_id: string }) => (doc.folder_id ? `f:${doc.folder_id}` : `o:${doc.owner_id}`);

const parseBox = (text: string | null): LinkedActivity['bbox'] => {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) && v.length === 4 && v.every((n) => typeof n === 'number') ? [Number(v[0]), Number(v[1]), Number(v[2]), Number(v[3])] : null;
  } catch {
    return null;
  }
};

function toLinked(r: ActivityRow, filter?: ActivityFilter): LinkedActivity {
  return {
    id: r.id,
    doc_id: r.doc_id,
    doc_title: r.doc_title,
    page: r.page,
    bbox: parseBox(r.bbox),
    label: r.label,
    target: r.target,
    measure: r.measure,
    relation: r.relation,
    value: r.value,
    unit: r.unit,
    value_nm: r.value_nm,
    concentration: r.concentration,
    source: r.source,
    text: r.text,
    ...(filter ? { matches: activityMatches(r, filter) } : {}),
  };
}

const activityColumns = [
  'doc_activities.id',
  'doc_activities.doc_id',
  'doc_activities.page',
  'doc_activities.bbox',
  'doc_activities.label',
  'doc_activities.target',
  'doc_activities.measure',
  'doc_activities.relation',
  'doc_activities.value',
  'doc_activities.unit',
  'doc_activities.value_nm',
  'doc_activities.concentration',
  'doc_activities.source',
  'doc_activities.text',
  'kb_documents.title as doc_title',
  'kb_documents.folder_id',
  'kb_documents.owner_id',
] as const;

/** Readable activities, optionally of the given labels or filtered in SQL by measure. */
async function readableActivities(db: Db, viewer: Viewer, where: { labels?: string[]; measure?: string }): Promise<ActivityRow[]> {
  let q = db
    .selectFrom('doc_activities')
    .innerJoin('kb_documents', 'kb_documents.id', 'doc_activities.doc_id')
    .select(activityColumns)
    .where('doc_activities.label', 'is not', null)
    .where(docReadable(viewer.userId));
  if (where.labels) q = q.where('doc_activities.label', 'in', where.labels.length ? where.labels : ['']);
  if (where.measure) q = q.where('doc_activities.measure', '=', where.measure as DocActivityTable['measure']);
  return (await q.orderBy('doc_activities.doc_id').orderBy('doc_activities.id').execute()) as ActivityRow[];
}

/**
 * The ids of readable molecules linked to an activity satisfying the filter, with those activities
 * by molecule; `truncated` when more than MAX_LINKED were linked.
 */
export async function linkedMolecules(db: Db, viewer: Viewer, filter: ActivityFilter): Promise<{ ids: Set<number>; truncated: boolean }> {
  const matching = (await readableActivities(db, viewer, { measure: filter.measure })).filter((a) => activityMatches(a, filter));
  if (!matching.length) return { ids: new Set(), truncated: false };
  const byDoc = new Set(matching.map((a) => `${a.doc_id}\u0000${a.label}`));
  const bySet = new Set(matching.map((a) => `${setKey(a)}\u0000${a.label}`));
  const docIds = [...new Set(matching.map((a) => a.doc_id))];
  const folders = [...new Set(matching.flatMap((a) => (a.folder_id ? [a.folder_id] : [])))];
  const owners = [...new Set(matching.flatMap((a) => (a.folder_id ? [] : [a.owner_id])))];
  const rows = await db
    .selectFrom('molecules')
    .innerJoin('kb_documents', 'kb_documents.id', 'molecules.doc_id')
    .select(['molecules.id', 'molecules.doc_id', 'molecules.name', 'kb_documents.folder_id', 'kb_documents.owner_id'])
    .where('molecules.name', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('molecules.doc_id', 'in', docIds),
        ...(folders.length ? [eb('kb_documents.folder_id', 'in', folders)] : []),
        ...(owners.length ? [eb.and([eb('kb_documents.folder_id', 'is', null), eb('kb_documents.owner_id', 'in', owners)])] : []),
      ]),
    )
    .where(docReadable(viewer.userId))
    .orderBy('molecules.id')
    .execute();
  const ids = new Set<number>();
  let truncated = false;
  for (const r of rows) {
    const label = normaliseLabel(r.name ?? '');
    if (!label) continue;
    if (!byDoc.has(`${r.doc_id}\u0000${label}`) && !bySet.has(`${setKey(r)}\u0000${label}`)) continue;
    if (ids.size >= MAX_LINKED) {
      truncated = true;
      break;
    }
    ids.add(r.id);
  }
  return { ids, truncated };
}

/** Hits with their compound label and the readable activities linked to them (matching ones first under a filter). */
export async function withActivities<H extends Pick<MoleculeHit, 'doc_id' | 'name'> & { label?: string | null | undefined }>(
  db: Db,
  viewer: Viewer,
  hits: H[],
  filter?: ActivityFilter,
): Promise<Array<H & { label: string | null; activities: LinkedActivity[] }>> {
  const labelled = hits.map((h) => ({ hit: h, label: h.label ?? normaliseLabel(h.name ?? '') }));
  const labels = [...new Set(labelled.flatMap((l) => (l.label ? [l.label] : [])))];
  if (!labels.length) return labelled.map(({ hit, label }) => ({ ...hit, label, activities: [] }));
  const docs = await db
    .selectFrom('kb_documents')
    .select(['id', 'folder_id', 'owner_id'])
    .where('id', 'in', [...new Set(hits.map((h) => h.doc_id))])
    .execute();
  const docSet = new Map(docs.map((d) => [d.id, setKey(d)]));
  const acts = await readableActivities(db, viewer, { labels });
  const byLabel = new Map<string, ActivityRow[]>();
  for (const a of acts) {
    const list = byLabel.get(a.label!) ?? [];
    list.push(a);
    byLabel.set(a.label!, list);
  }
  return labelled.map(({ hit, label }) => {
    if (!label) return { ...hit, label, activities: [] };
    const set = docSet.get(hit.doc_id);
    const linked = (byLabel.get(label) ?? []).filter((a) => a.doc_id === hit.doc_id || setKey(a) === set).map((a) => toLinked(a, filter));
    if (filter) linked.sort((a, b) => Number(b.matches) - Number(a.matches));
    return { ...hit, label, activities: linked.slice(0, MAX_PER_HIT) };
  });
}

/** A document's activities (for its SAR table), in reading order. */
export async function documentActivities(db: Db, docId: string): Promise<LinkedActivity[]> {
  const rows = await db
    .selectFrom('doc_activities')
    .innerJoin('kb_documents', 'kb_documents.id', 'doc_activities.doc_id')
    .select(activityColumns)
    .where('doc_activities.doc_id', '=', docId)
    .orderBy(sql`coalesce(doc_activities.page, 0)`)
    .orderBy('doc_activities.id')
    .execute();
  return (rows as ActivityRow[]).map((r) => toLinked(r));
}

const SHOWN_RELATION: Record<string, string> = { '<=': '≤', '>=': '≥', '<': '<', '>': '>', '~': '~', '=': '=' };
const FLIP: Record<string, string> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=', '=': '=', '~': '~' };

/** One line of an activity for a model or a plain answer: "CDK2 IC50 = 45 nM", "BRD4 IC50 < 10 nM（pIC50 > 8）". */
export function activityText(a: Pick<LinkedActivity, 'target' | 'measure' | 'relation' | 'value' | 'unit' | 'value_nm' | 'concentration'>): string {
  const target = a.target ? `${a.target} ` : '';
  const rel = SHOWN_RELATION[a.relation] ?? a.relation;
  if (a.measure === 'inhibition') return `${target}抑制率${a.concentration ? `（${a.concentration}）` : ''} ${rel} ${a.value}%`;
  if (/^p(?:IC50|Ki|Kd|EC50)$/.test(a.unit)) {
    return `${target}${a.measure} ${rel} ${a.value_nm ?? '?'} nM（${a.unit} ${SHOWN_RELATION[FLIP[a.relation]!]} ${a.value}）`;
  }
  const nm = a.value_nm !== null && a.unit !== 'nM' ? `（${a.value_nm} nM）` : '';
  return `${target}${a.measure} ${rel} ${a.value}${a.unit ? ` ${a.unit}` : ''}${nm}`;
}
