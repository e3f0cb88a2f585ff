import { z } from 'zod';

/** Limits of the molecule calls (SPEC §7 Other: mol calls); the server enforces the same numbers. */
export const MOL_LIMITS = {
  /** Characters of a SMILES string. */
  smilesLength: 2000,
  /** Characters of a molfile (V2000 or V3000 block). */
  molfileLength: 1024 * 1024,
  /** Characters of a highlight SMARTS pattern. */
  smartsLength: 500,
  /** Heavy atoms of a structure that is drawn. */
  depictHeavyAtoms: 500,
  /**
   * Atoms of any structure a molecule call reads (counted in the text before RDKit reads it):
   * RDKit's WASM build runs out of stack on longer chains (a 700-carbon chain traps in
   * canonicalisation) and can leave its memory corrupt for the next call.
   */
  atoms: 500,
  /** Atom or bond indices in one highlight list. */
  highlightIndices: 1000,
  /** Smallest and largest drawing size in pixels. */
  minSize: 50,
  maxSize: 2000,
} as const;

const size = (label: string) =>
  z
    .number({ error: `${label}必须是数字` })
    .int(`${label}必须是整数`)
    .min(MOL_LIMITS.minSize, `${label}不能小于${MOL_LIMITS.minSize}像素`)
    .max(MOL_LIMITS.maxSize, `${label}不能大于${MOL_LIMITS.maxSize}像素`);

const indices = (label: string) =>
  z
    .array(z.number({ error: `${label}序号必须是数字` }).int(`${label}序号必须是整数`).min(0, `${label}序号不能为负数`), {
      error: `${label}列表必须是数组`,
    })
    .max(MOL_LIMITS.highlightIndices, `${label}列表不能超过${MOL_LIMITS.highlightIndices}项`);

/** What to highlight: atom and bond indices (0-based, RDKit order) and/or every match of a SMARTS pattern. */
export const molHighlight = z
  .object({
    atoms: indices('高亮原子').optional(),
    bonds: indices('高亮键').optional(),
    smarts: z
      .string({ error: 'SMARTS 必须是字符串' })
      .trim()
      .min(1, 'SMARTS 不能为空')
      .max(MOL_LIMITS.smartsLength, `SMARTS 不能超过${MOL_LIMITS.smartsLength}个字符`)
      .optional(),
  }, { error: 'highlight 必须是对象' })
  .strict();
export type MolHighlight = z.infer<typeof molHighlight>;

/**
 * POST /api/v1/mol/draw_svg: a structure as SMILES or as a molfile (exactly one of them).
 * @example { smiles: 'CC(=O)Oc1ccccc1C(=O)O', width: 300, height: 200, highlight: { smarts: 'c1ccccc1' } }
 */
export const drawSvgBody = z
  .object({
    smiles: z
      .string({ error: 'SMILES 必须是字符串' })
      .trim()
      .min(1, 'SMILES 不能为空')
      .max(MOL_LIMITS.smilesLength, `SMILES 不能超过${MOL_LIMITS.smilesLength}个字符`)
      .optional(),
    molfile: z
      .string({ error: 'Molfile 必须是字符串' })
      .min(1, 'Molfile 不能为空')
      .max(MOL_LIMITS.molfileLength, 'Molfile 不能超过1 MB')
      .optional(),
    width: size('宽度').optional(),
    height: size('高度').optional(),
    highlight: molHighlight.optional(),
  }, { error: '请求体必须是 JSON 对象' })
  .strict()
  .refine((b) => (b.smiles === undefined) !== (b.molfile === undefined), { message: '请提供 SMILES 或 Molfile 其中之一', path: ['smiles'] });
export type DrawSvgBody = z.infer<typeof drawSvgBody>;

/** The drawing and what RDKit made of the structure. `num_atoms` counts heavy atoms. */
export const drawSvgResult = z.object({
  svg: z.string(),
  canonical_smiles: z.string(),
  formula: z.string(),
  num_atoms: z.number().int(),
  highlighted_atoms: z.array(z.number().int()),
  highlighted_bonds: z.array(z.number().int()),
});
export type DrawSvgResult = z.infer<typeof drawSvgResult>;

/** GET /api/v1/mol/get_mol_string?mol_key=: one molecule of a parsed SDF, key `${docId}:${idx}` with the record's index as the SDF parser stores it (kb_molecules.idx). */
export const molKeyQuery = z
  .object({
    mol_key: z
      .string({ error: '请提供 mol_key' })
      .trim()
      .min(1, '请提供 mol_key')
      .max(200, 'mol_key 过长')
      .regex(/^[\w-]{1,128}:\d{1,7}$/, 'mol_key 格式应为“文档ID:序号”'),
  })
  .strict();

export const molString = z.object({ mol_key: z.string(), molfile: z.string(), name: z.string(), smiles: z.string() });
export type MolString = z.infer<typeof molString>;

/** GET /api/v1/mol/get_pdb_string?pdb_id=: a 4-character PDB id (e.g. 1CRN) or the id of one of the user's PDB documents. */
export const pdbIdQuery = z
  .object({
    pdb_id: z
      .string({ error: '请提供 pdb_id' })
      .trim()
      .min(1, '请提供 pdb_id')
      .max(128, 'pdb_id 过长')
      .regex(/^[\w-]+$/, 'pdb_id 只能包含字母、数字、下划线和连字符'),
  })
  .strict();

/** The PDB text and where it came from. */
export const pdbString = z.object({
  pdb_id: z.string(),
  pdb: z.string(),
  source: z.enum(['document', 'mirror']),
  doc_id: z.string().optional(),
});
export type PdbString = z.infer<typeof pdbString>;
