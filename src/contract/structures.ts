import { z } from 'zod';
import { MOL_LIMITS } from './mol';

/** One structure read from a document's drawing; `smiles` is the effective one (a correction wins). */
export const docStructure = z.object({
  id: z.number().int(),
  page: z.number().int(),
  /** [x0, y0, x1, y1] in PDF points on the page, origin bottom-left (image documents: the image's pixels). */
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  smiles: z.string(),
  recognized_smiles: z.string(),
  confidence: z.number(),
  method: z.string(),
  label: z.string().nullable(),
  corrected_by: z.string().nullable(),
  /** Name of the reader who corrected it, for display. */
  corrected_by_name: z.string().nullable(),
  corrected_at: z.string().nullable(),
});
export type DocStructure = z.infer<typeof docStructure>;

export const docStructuresResult = z.object({ structures: z.array(docStructure) });
export type DocStructuresResult = z.infer<typeof docStructuresResult>;

export const structureParams = z.object({
  id: z.string({ error: '文档 ID 不正确' }).min(1, '文档 ID 不正确').max(100, '文档 ID 不正确'),
  sid: z.string().max(20, '结构 ID 必须是正整数').pipe(z.coerce.number<string>({ error: '结构 ID 必须是正整数' }).int('结构 ID 必须是正整数').positive('结构 ID 必须是正整数')),
});

/** A reader's correction: the right structure as SMILES or as a molfile (from the chemical editor), one of the two. */
export const correctStructureBody = z
  .object(
    {
      smiles: z.string({ error: 'SMILES 必须是字符串' }).trim().min(1, 'SMILES 不能为空').max(MOL_LIMITS.smilesLength, `SMILES 不能超过${MOL_LIMITS.smilesLength}个字符`).optional(),
      molfile: z.string({ error: 'Molfile 必须是字符串' }).min(1, 'Molfile 不能为空').max(MOL_LIMITS.molfileLength, 'Molfile 不能超过1 MB').optional(),
    },
    { error: '请求体必须是 JSON 对象' },
  )
  .strict()
  .refine((b) => (b.smiles === undefined) !== (b.molfile === undefined), { message: '请提供 SMILES 或 Molfile 其中之一', path: ['smiles'] });
export type CorrectStructureBody = z.infer<typeof correctStructureBody>;
