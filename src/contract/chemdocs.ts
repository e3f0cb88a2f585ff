import { z } from 'zod';

/**
 * Chemistry read from documents: activities (IC50, Ki, Kd, EC50, % inhibition) read
 * from a paper's tables and sentences, linked to its structures and to SDF records by compound
 * label, the activity filter of molecule search and `intelligence_search`, and the per-document
 * structure–activity (SAR) table.
 */

export const ACTIVITY_MEASURES = ['IC50', 'Ki', 'Kd', 'EC50', 'inhibition'] as const;
export const ACTIVITY_RELATIONS = ['=', '<', '>', '~', '<=', '>='] as const;
/** Relations a filter may ask for (`~` is a reading of the paper, not a question). */
export const FILTER_RELATIONS = ['<', '<=', '>', '>=', '='] as const;

const measureMessage = '活性指标必须是 IC50、Ki、Kd、EC50 或 inhibition（抑制率）之一';
const relationMessage = '比较关系必须是 <、<=、>、>= 或 = 之一';
const valueMessage = '活性数值必须是不小于 0 的数字（IC50、Ki、Kd、EC50 以 nM 计，抑制率以 % 计）';

/**
 * The activity filter of a molecule search: molecules linked (by compound label) to an activity
 * of this target and measure whose value satisfies `relation value`. `value` is in nM for IC50,
 * Ki, Kd and EC50 and in % for inhibition.
 * @example { target: 'CDK2', measure: 'IC50', relation: '<', value: 100 }
 */
export const activityFilter = z
  .object(
    {
      target: z.string({ error: '靶点必须是字符串' }).trim().min(1, '靶点不能为空').max(100, '靶点不能超过100个字符').optional(),
      measure: z.enum(ACTIVITY_MEASURES, { error: measureMessage }).optional(),
      relation: z.enum(FILTER_RELATIONS, { error: relationMessage }).optional(),
      value: z.number({ error: valueMessage }).min(0, valueMessage).max(1e12, valueMessage).optional(),
    },
    { error: '活性条件必须是对象，例如 {"target":"CDK2","measure":"IC50","relation":"<","value":100}' },
  )
  .strict()
  .refine((f) => (f.relation === undefined) === (f.value === undefined), { message: '比较关系和活性数值必须同时给出', path: ['value'] })
  .refine((f) => f.target !== undefined || f.measure !== undefined || f.value !== undefined, { message: '活性条件至少要给出靶点、活性指标或数值之一' });
export type ActivityFilter = z.infer<typeof activityFilter>;

/** An activity linked to a molecule or a SAR row, with the document, page and box it was read from. */
export const linkedActivity = z.object({
  id: z.number().int(),
  doc_id: z.string(),
  doc_title: z.string(),
  page: z.number().int().nullable(),
  /** [x0, y0, x1, y1] in PDF points on the page (origin bottom-left): the table row or the passage. */
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  label: z.string().nullable(),
  target: z.string().nullable(),
  measure: z.enum(ACTIVITY_MEASURES),
  relation: z.enum(ACTIVITY_RELATIONS),
  /** The value as printed (a pIC50 stays a pIC50). */
  value: z.number(),
  unit: z.string(),
  /** The value in nM where the unit allows; null for % inhibition or an unknown unit. */
  value_nm: z.number().nullable(),
  concentration: z.string().nullable(),
  source: z.enum(['table', 'text']),
  /** The table row (header and cells) or the sentence. */
  text: z.string(),
  /** With an activity filter: whether this activity satisfies it. */
  matches: z.boolean().optional(),
});
export type LinkedActivity = z.infer<typeof linkedActivity>;

/** One compound of a document's SAR table: a label with its structure (when known) and activities. */
export const sarRow = z.object({
  label: z.string(),
  /** The figure structure (doc_structures.id) or null (no drawing recognised, or an SDF record). */
  structure_id: z.number().int().nullable(),
  /** The molecule database row the structure is (a figure of this document, or an SDF record named by the label in the same knowledge base). */
  molecule_id: z.number().int().nullable(),
  smiles: z.string().nullable(),
  /** Where the structure is: its page and box (figure), or null (SDF record). */
  page: z.number().int().nullable(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  /** The SDF record (`${docId}:${idx}`) the structure comes from, else null. */
  mol_key: z.string().nullable(),
  activities: z.array(linkedActivity),
});
export type SarRow = z.infer<typeof sarRow>;

/** GET /api/v1/knowledge_base/doc/:id/sar. */
export const sarResult = z.object({
  doc_id: z.string(),
  /** The document's kind (kb_documents.type): an image (3) opens in the viewer as a picture. */
  doc_type: z.number().int(),
  title: z.string(),
  /** The measure columns of the table: measure, target and concentration (or unit for %), in order of first appearance. */
  columns: z.array(z.object({ key: z.string(), measure: z.enum(ACTIVITY_MEASURES), target: z.string().nullable(), concentration: z.string().nullable() })),
  rows: z.array(sarRow),
  /** Activities that name no compound (a sentence about "the series"). */
  unlabelled: z.number().int(),
});
export type SarResult = z.infer<typeof sarResult>;

export const SAR_EXPORT_FORMATS = ['csv', 'sdf'] as const;
/** GET /api/v1/knowledge_base/doc/:id/sar/export?format=csv|sdf. */
export const sarExportQuery = z
  .object({ format: z.enum(SAR_EXPORT_FORMATS, { error: '导出格式必须是 csv 或 sdf' }) }, { error: '请指定导出格式（csv 或 sdf）' })
  .strict();
