import { z } from 'zod';
import { activityFilter, linkedActivity } from './chemdocs';

/**
 * The molecule database (情报数据库检索): every molecule of the SDF files, PDB ligands
 * and SMILES of the documents a user may read, searched by exact structure, substructure or similarity.
 */

/** exact: same structure (InChIKey); substructure: contains the SMILES/SMARTS; similarity: Morgan (r=2, 2048 bits) Tanimoto. */
export const MOLECULE_SEARCH_MODES = ['exact', 'substructure', 'similarity'] as const;
export type MoleculeSearchMode = (typeof MOLECULE_SEARCH_MODES)[number];

/** Limits of a molecule search; the server enforces the same numbers. */
export const MOLECULE_SEARCH_LIMITS = {
  /** Characters of a query: a SMILES/SMARTS line, or a molfile drawn in the editor. */
  queryLength: 200_000,
  /** Hits returned at most. */
  maxTopK: 500,
  defaultTopK: 50,
  /** Tanimoto similarity a hit needs by default. */
  defaultThreshold: 0.5,
} as const;

const modeMessage = '检索方式必须是 exact（精确结构）、substructure（子结构）或 similarity（相似性）之一';

/**
 * POST /api/v1/mol/search.
 * @example { query: 'c1ccc2[nH]ccc2c1', mode: 'substructure', top_k: 20 }
 */
export const molSearchBody = z
  .object(
    {
      query: z
        .string({ error: '请输入查询结构（SMILES、SMARTS 或绘制的结构）' })
        // Not trimmed: a drawn structure's molfile starts with its title line, often empty.
        .refine((s) => s.trim().length > 0, '请输入查询结构（SMILES、SMARTS 或绘制的结构）')
        .max(MOLECULE_SEARCH_LIMITS.queryLength, `查询结构不能超过${MOLECULE_SEARCH_LIMITS.queryLength}个字符`),
      mode: z.enum(MOLECULE_SEARCH_MODES, { error: modeMessage }),
      threshold: z
        .number({ error: '相似度阈值必须是 0 到 1 之间的数字' })
        .min(0, '相似度阈值必须是 0 到 1 之间的数字')
        .max(1, '相似度阈值必须是 0 到 1 之间的数字')
        .optional(),
      top_k: z
        .number({ error: `返回数量必须是 1 到 ${MOLECULE_SEARCH_LIMITS.maxTopK} 之间的整数` })
        .int(`返回数量必须是 1 到 ${MOLECULE_SEARCH_LIMITS.maxTopK} 之间的整数`)
        .min(1, `返回数量必须是 1 到 ${MOLECULE_SEARCH_LIMITS.maxTopK} 之间的整数`)
        .max(MOLECULE_SEARCH_LIMITS.maxTopK, `返回数量必须是 1 到 ${MOLECULE_SEARCH_LIMITS.maxTopK} 之间的整数`)
        .optional(),
      /** Exact search: also find salts, mixtures and charged forms of the query's parent (default true). */
      match_parent: z.boolean({ error: 'match_parent 必须是 true 或 false' }).optional(),
      /** Only molecules linked by compound label to an activity satisfying this (contract/chemdocs.ts). */
      activity: activityFilter.optional(),
    },
    { error: '请求体必须是 JSON 对象' },
  )
  .strict();
export type MolSearchBody = z.infer<typeof molSearchBody>;

/** Where a molecule was found: a record of an SDF file, a ligand of a PDB file, a SMILES in a document's text, or a drawing. */
export const moleculeSource = z.enum(['sdf', 'pdb', 'text', 'figure']);
export type MoleculeSource = z.infer<typeof moleculeSource>;

/** One molecule found, with the document (and page) it comes from. */
export const moleculeHit = z.object({
  molecule_id: z.number().int(),
  doc_id: z.string(),
  doc_title: z.string(),
  /** SPEC §3 document type: 1 pdf, 3 image, 5 sdf, 6 pdb. */
  doc_type: z.number().int(),
  source: moleculeSource,
  /** Page counted from 1 for a SMILES in a PDF's text; null for SDF/PDB molecules. */
  page: z.number().int().nullable(),
  /** The SDF record's name, the PDB ligand (`ATP A:401`), or null. */
  name: z.string().nullable(),
  /** `${docId}:${idx}` of an SDF record (GET /mol/get_mol_string), else null. */
  mol_key: z.string().nullable(),
  smiles: z.string(),
  inchikey: z.string(),
  /** Tanimoto similarity to the query (similarity and exact search); null for substructure hits. */
  score: z.number().nullable(),
  /**
   * Exact search: `structure` when the stored molecule is the query itself, `parent` when it matched
   * through its standardised parent (a salt or mixture of the query, or the query is a salt of it),
   * `stereo` when the query gives no stereo and the stored molecule is one of its stereoisomers (the
   * same skeleton with a double bond's E/Z or a centre's configuration set); null in the other modes.
   */
  matched: z.enum(['structure', 'parent', 'stereo']).nullable().optional(),
  /** The stored molecule's parent (largest organic fragment, neutralised) when it differs from the molecule; else null. */
  parent_smiles: z.string().nullable().optional(),
  /** Substructure search: the matched atoms and bonds, numbered as in `smiles` (what its picture is drawn from); else null. */
  highlight: z.object({ atoms: z.array(z.number().int()), bonds: z.array(z.number().int()) }).nullable().optional(),
  /** The compound label (`12a`, `7'`; for a figure molecule, read next to its drawing) and the activities linked to it, each with its document, page and box. */
  label: z.string().nullable().optional(),
  activities: z.array(linkedActivity).optional(),
  /** A figure molecule (source `figure`): the drawing's box on its page, [x0, y0, x1, y1] in PDF points, origin bottom-left. */
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable().optional(),
  /** A figure molecule's structure row (GET/PUT /knowledge_base/doc/:id/structures). */
  structure_id: z.number().int().nullable().optional(),
});
export type MoleculeHit = z.infer<typeof moleculeHit>;

export const molSearchResult = z.object({
  mode: z.enum(MOLECULE_SEARCH_MODES),
  /** What the query was read as: a molecule (canonical SMILES) or a SMARTS pattern; `parent`: its standardised parent when it differs (exact search matches by it). */
  query: z.object({ form: z.enum(['mol', 'smarts']), text: z.string(), parent: z.string().nullable().optional() }),
  hits: z.array(moleculeHit),
  /** More molecules matched than were returned (top_k reached). */
  truncated: z.boolean(),
  /** Molecules the user may read, all of which were searched. */
  searched: z.number().int(),
  took_ms: z.number(),
});
export type MolSearchResult = z.infer<typeof molSearchResult>;

/**
 * The link of a hit: its document in the viewer, at its page for a SMILES found in a PDF (with
 * the drawing's box highlighted for a structure read from a figure), at the record (`mol`) for an
 * SDF molecule.
 */
export function moleculeHitPath(hit: Pick<MoleculeHit, 'doc_id' | 'doc_type' | 'page' | 'mol_key'> & Partial<Pick<MoleculeHit, 'bbox'>>): string {
  const q = new URLSearchParams({ docId: hit.doc_id });
  if (hit.doc_type === 5 || hit.doc_type === 6) q.set('type', String(hit.doc_type));
  const idx = hit.mol_key?.split(':').pop();
  if (idx) q.set('mol', idx);
  if (hit.doc_type === 3) q.set('if_img', 'true');
  if (hit.page !== null) q.set('page', String(hit.page));
  if (hit.page !== null && hit.bbox) q.set('bbox', hit.bbox.map((n) => Math.round(n * 100) / 100).join(','));
  return `/pdf_viewer?${q.toString()}`;
}

/** A figure hit's review: the viewer at the drawing, with the structure open beside it; null for other hits. */
export function structureReviewPath(hit: Pick<MoleculeHit, 'doc_id' | 'doc_type' | 'page' | 'mol_key' | 'source'> & Partial<Pick<MoleculeHit, 'bbox' | 'structure_id'>>): string | null {
  if (hit.source !== 'figure' || hit.structure_id === null || hit.structure_id === undefined) return null;
  return `${moleculeHitPath(hit)}&structure=${hit.structure_id}`;
}

/** Input of the `intelligence_search` tool (情报数据库检索): words and/or a structure. */
export const intelligenceSearchInput = z
  .object({
    query: z.string({ error: '请提供检索内容' }).trim().min(1, '请提供检索内容').max(2000, '检索内容不能超过2000个字符'),
    /** A SMILES or SMARTS to search the molecule table with; when absent, the first SMILES written in `query` is used. */
    structure: z.string({ error: '结构必须是字符串' }).trim().min(1, '结构不能为空').max(2000, '结构不能超过2000个字符').optional(),
    mode: z.enum(MOLECULE_SEARCH_MODES, { error: modeMessage }).optional(),
    threshold: z.number({ error: '相似度阈值必须是 0 到 1 之间的数字' }).min(0, '相似度阈值必须是 0 到 1 之间的数字').max(1, '相似度阈值必须是 0 到 1 之间的数字').optional(),
    top_k: z.number({ error: '返回数量必须是 1 到 50 之间的整数' }).int('返回数量必须是 1 到 50 之间的整数').min(1, '返回数量必须是 1 到 50 之间的整数').max(50, '返回数量必须是 1 到 50 之间的整数').optional(),
    /** Only molecules linked to an activity satisfying this (target, measure, relation, value in nM or %); without a structure, all of them. */
    activity: activityFilter.optional(),
  })
  .strict();
export type IntelligenceSearchInput = z.infer<typeof intelligenceSearchInput>;

/** A passage found by the text search, with its document and page. */
export const intelligencePassage = z.object({
  doc_id: z.string(),
  title: z.string(),
  page: z.number().int().nullable(),
  text: z.string(),
  score: z.number(),
});

/** Output of `intelligence_search`: passages of every readable document, and molecules when a structure was searched. */
export const intelligenceSearchOutput = z.object({
  query: z.string(),
  /** Readable documents the text search covered. */
  documents: z.number().int(),
  passages: z.array(intelligencePassage),
  molecules: molSearchResult.nullable(),
  /** The activity filter the molecules were found by, when one was given. */
  activity: activityFilter.optional(),
});
export type IntelligenceSearchOutput = z.infer<typeof intelligenceSearchOutput>;
