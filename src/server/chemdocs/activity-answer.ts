/**
 * Questions about compounds' activities ("哪些化合物对 CDK2 的 IC50 小于 100 nM 且含磺酰胺") read
 * into an `intelligence_search` call (activity filter + substructure), and its compounds written
 * as answer lines that cite each compound's drawing or record and the table row (or sentence) of
 * its activity — for the answer without a model (local-engine.ts) and for a model's tool results
 * (tool-citations.ts).
 */
import type { ActivityFilter, LinkedActivity } from '../../contract/chemdocs';
import { intelligenceSearchOutput, type IntelligenceSearchOutput, type MoleculeHit } from '../../contract/molecules';
import type { RetrievedPassage } from '../retrieval/knowledge-port';
import { activityText } from '../molecules/activity-filter';
import { concentrationUnit, targetIn, toNanomolar } from '../parsing/chemistry/activities';
import { FUNCTIONAL_GROUPS } from '../chem/functional-groups';

/** A record or table row numbered as the answer cites it (answering/engine.ts `NumberedPassage`, same shape). */
type NumberedPassage = RetrievedPassage & { n: number };


const RELATION_WORDS: Array<[RegExp, NonNullable<ActivityFilter['relation']>]> = [
  [/不超过|不高于|不大于|小于等于|低于或等于|≤|<=|at most/i, '<='],
  [/不低于|不小于|大于等于|高于或等于|≥|>=|at least/i, '>='],
  [/小于|低于|少于|不到|<|below|less than|under|lower than/i, '<'],
  [/大于|高于|超过|>|above|greater than|more than|over|higher than/i, '>'],
  [/等于|为|=|equal/i, '='],
];

/**
 * The activity filter and functional group a question asks about, or null when it names no
 * measure with a value or target: "哪些化合物对 CDK2 的 IC50 小于 100 nM 且含磺酰胺" →
 * { activity: { target: 'CDK2', measure: 'IC50', relation: '<', value: 100 }, group: 磺酰胺 }.
 */
export function activityQuestion(question: string): { activity: ActivityFilter; group: (typeof FUNCTIONAL_GROUPS)[number] | null } | null {
  const q = question.normalize('NFKC');
  const m = /(p?IC\s?50|p?EC\s?50|\bK[id]\b|抑制率|inhibition)/i.exec(q);
  if (!m) return null;
  const word = m[1]!.replace(/\s/g, '');
  const measure: ActivityFilter['measure'] = /抑制率|inhibition/i.test(word) ? 'inhibition' : /IC50/i.test(word) ? 'IC50' : /EC50/i.test(word) ? 'EC50' : /Ki/i.test(word) ? 'Ki' : 'Kd';
  const filter: ActivityFilter = { measure };
  const target = targetIn(q);
  if (target) filter.target = target;
  const after = q.slice(m.index + m[0].length);
  const value = /(\d+(?:\.\d+)?)\s*(pM|nM|μM|µM|uM|mM|M|%)?/u.exec(after);
  if (value) {
    const between = after.slice(0, value.index);
    const relation = RELATION_WORDS.find(([re]) => re.test(between))?.[1];
    const unit = value[2] === '%' ? '%' : value[2] ? concentrationUnit(value[2]) : measure === 'inhibition' ? '%' : 'nM';
    const nm = unit === '%' ? Number(value[1]) : unit ? toNanomolar(Number(value[1]), unit) : null;
    if (relation && nm !== null) {
      filter.relation = relation;
      filter.value = nm;
    }
  }
  if (!filter.target && filter.value === undefined) return null;
  const group = FUNCTIONAL_GROUPS.find((g) => g.words.test(q.replace(m[0], ''))) ?? null;
  return { activity: filter, group };
}

/** A hit's name for the answer: its compound label, else its record name, else its SMILES. */
const compoundName = (h: Pick<MoleculeHit, 'name' | 'smiles'> & { label?: string | null | undefined }) => (h.label ? `化合物 ${h.label}` : h.name ?? h.smiles);

/** The box of a hit from a figure (chemrec's `bbox`), when the hit carries one. */
function hitBox(h: object): [number, number, number, number] | null {
  const box: unknown = 'bbox' in h ? h.bbox : null;
  return Array.isArray(box) && box.length === 4 && box.every((v) => typeof v === 'number') ? [Number(box[0]), Number(box[1]), Number(box[2]), Number(box[3])] : null;
}

/** The lines under a hit in `intelligence_search`'s text for a model: its label and linked activities with their pages. */
export function activityLines(h: MoleculeHit): string[] {
  const acts = h.activities ?? [];
  if (!acts.length) return h.label ? [`  标签：${h.label}（文档中未读到它的活性数据）`] : [];
  return [
    `  标签：${h.label ?? '无'}，活性：`,
    ...acts.slice(0, 8).map((a) => `  · ${activityText(a)}（《${a.doc_title}》${a.page ? `第 ${a.page} 页` : ''}${a.source === 'table' ? '表格' : '正文'}）${a.matches === false ? '' : a.matches ? ' ✓' : ''}`),
  ];
}

/** The text a citation of an activity shows: the compound, the activity and the row or sentence. */
const rowText = (a: LinkedActivity) => `化合物 ${a.label ?? ''}：${activityText(a)}\n${a.text}`;
/** The text a citation of a compound's record or drawing shows. */
const recordText = (h: MoleculeHit & { label?: string | null }) => `${compoundName(h)}${h.name && h.label && h.name !== h.label ? `（${h.name}）` : ''}\nSMILES: ${h.smiles}`;

/**
 * The compounds an `intelligence_search` found through an activity filter, as answer lines citing
 * `[n]` (numbers from `firstN`): each compound's drawing or record, then each activity that meets
 * the filter with its table row or sentence. Compounds without such an activity are left out.
 */
export function compoundCitations(output: IntelligenceSearchOutput, firstN: number, title: (t: string) => string = (t) => t.replace(/[[\]]/g, '')): { lines: string[]; citable: NumberedPassage[] } {
  const hits = (output.molecules?.hits ?? []).filter((h) => (h.activities ?? []).some((a) => a.matches !== false));
  const citable: NumberedPassage[] = [];
  const lines: string[] = [];
  let n = firstN;
  for (const h of hits) {
    const record: NumberedPassage = { n: n++, docId: h.doc_id, title: h.doc_title, page: h.page, bbox: hitBox(h), text: recordText(h), score: 1 };
    citable.push(record);
    const acts = (h.activities ?? []).filter((a) => a.matches !== false).slice(0, 4);
    const parts = acts.map((a) => {
      const row: NumberedPassage = { n: n++, docId: a.doc_id, title: a.doc_title, page: a.page, bbox: a.bbox, text: rowText(a), score: 1 };
      citable.push(row);
      const where = `《${title(a.doc_title)}》${a.page ? `第${a.page}页` : ''}${a.source === 'table' ? '表格' : '正文'}`;
      return `${activityText(a)}（${where}）[${row.n}]`;
    });
    lines.push(`- **${compoundName(h)}** \`${h.smiles}\`（结构来源：《${title(h.doc_title)}》${h.page ? `第${h.page}页` : ''}）[${record.n}]：${parts.join('；')}`);
  }
  return { lines, citable };
}

/** Lines for a question asked by activity (the local engine's answer), or null when no run searched by activity. */
export function activityAnswerLines(runs: ReadonlyArray<{ name: string; result: { ok: boolean; data?: unknown } }>, title: (t: string) => string): { lines: string[]; citable: NumberedPassage[] } | null {
  for (const run of runs) {
    if (run.name !== 'intelligence_search' || !run.result.ok) continue;
    const parsed = intelligenceSearchOutput.safeParse(run.result.data);
    if (!parsed.success || !parsed.data.activity) continue;
    const { lines, citable } = compoundCitations(parsed.data, 1, title);
    const asked = activityFilterText(parsed.data.activity);
    const group = parsed.data.molecules?.mode === 'substructure' ? `，且含子结构 ${parsed.data.molecules.query.text}` : '';
    if (!lines.length) return { lines: [`在用户可读的文档中没有找到满足 ${asked}${group} 的化合物。`, ''], citable: [] };
    return { lines: [`**满足 ${asked}${group} 的化合物（${lines.length} 个）**`, ...lines, ''], citable };
  }
  return null;
}

/** A filter in words: "CDK2 IC50 < 100 nM". */
export function activityFilterText(f: Partial<ActivityFilter>): string {
  const measure = f.measure === 'inhibition' ? '抑制率' : f.measure ?? '活性';
  const value = f.relation && f.value !== undefined ? ` ${f.relation} ${f.value}${f.measure === 'inhibition' ? '%' : ' nM'}` : '';
  return `${f.target ? `${f.target} ` : ''}${measure}${value}`;
}
