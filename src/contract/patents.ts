import { z } from 'zod';

/** Longest SMILES the patent search accepts. */
export const PATENT_SMILES_MAX = 2000;
/** Longest text query. */
export const PATENT_TEXT_MAX = 300;
/** Most hits one search returns. */
export const PATENT_LIMIT_MAX = 50;

const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const trimmed = (label: string, max: number) =>
  z
    .string({ error: `${label}必须是字符串` })
    .max(max * 4, `${label}不能超过${max}个字符`)
    .refine((s) => !CONTROL_CHARS.test(s), `${label}包含不允许的控制字符`)
    .transform((s) => s.normalize('NFKC').replace(/\s+/g, ' ').trim())
    .pipe(z.string().max(max, `${label}不能超过${max}个字符`));

/**
 * Input of the patent_search tool: a structure (SMILES or InChIKey) or a text query,
 * exactly one of them.
 * @example { structure: 'CC(=O)Oc1ccccc1C(=O)O' } // or { structure: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N' }, { text: 'imatinib' }
 */
export const patentSearchInput = z
  .object(
    {
      structure: trimmed('结构', PATENT_SMILES_MAX).optional().describe('要检索的分子：SMILES 或标准 InChIKey'),
      text: trimmed('检索词', PATENT_TEXT_MAX).optional().describe('文本检索词：化合物名称、靶点或关键词'),
      limit: z.number({ error: '数量必须是数字' }).int('数量必须是整数').min(1, '数量至少为 1').max(PATENT_LIMIT_MAX, `数量不能超过${PATENT_LIMIT_MAX}`).default(10),
    },
    { error: '请求体必须是 JSON 对象' },
  )
  .strict()
  .refine((v) => !!v.structure !== !!v.text, { message: '请提供结构（SMILES 或 InChIKey）或检索词其中之一' });
export type PatentSearchInput = z.infer<typeof patentSearchInput>;

/** Which configured service found a patent. */
export const patentSource = z.enum(['surechembl', 'pubchem']);
export type PatentSource = z.infer<typeof patentSource>;

/** One patent as the card and the model see it; unknown fields are null (never invented). */
export const patentHit = z.object({
  /** Publication number as the source writes it (`US-10000000-B2`). */
  number: z.string(),
  title: z.string().nullable(),
  assignee: z.string().nullable(),
  /** Publication date, `YYYY-MM-DD` when the source gives one. */
  date: z.string().nullable(),
  /** Where the reader goes (http or https). */
  url: z.string(),
  source: patentSource,
  /** The citation number, when an answer cites it (a patent_search the model called). */
  n: z.number().int().min(1).optional(),
});
export type PatentHit = z.infer<typeof patentHit>;

/** How one configured source answered. */
export const patentSourceReport = z.object({ source: patentSource, ok: z.boolean(), hits: z.number().int(), message: z.string().optional() });

/** Output of patent_search: what was searched, the merged hits, and each source's outcome. */
export const patentSearchOutput = z.object({
  query: z.object({
    kind: z.enum(['structure', 'text']),
    value: z.string(),
    canonical_smiles: z.string().optional(),
    inchi_key: z.string().optional(),
  }),
  hits: z.array(patentHit),
  sources: z.array(patentSourceReport),
});
export type PatentSearchOutput = z.infer<typeof patentSearchOutput>;
