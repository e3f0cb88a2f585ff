import { z } from 'zod';

/** The literature services an operator may connect. */
export const literatureSource = z.enum(['pubmed', 'europepmc', 'openalex']);
export type LiteratureSource = z.infer<typeof literatureSource>;

/**
 * One paper found by literature search: the online hit every source gives (`url`, `title`, `site`,
 * `snippet`, `kind`) plus what a reader of papers wants — authors, journal, year, DOI, PMID, the
 * abstract and, when open access, a PDF that can be added to a knowledge base.
 */
export const literatureHit = z.object({
  url: z.string(),
  title: z.string(),
  site: z.string(),
  snippet: z.string(),
  kind: z.literal('literature'),
  source: literatureSource,
  authors: z.array(z.string()),
  journal: z.string().nullable(),
  year: z.number().int().nullable(),
  doi: z.string().nullable(),
  pmid: z.string().nullable(),
  pmcid: z.string().nullable(),
  abstract: z.string().nullable(),
  /** An open-access PDF of the paper (http(s)), or null. */
  pdfUrl: z.string().nullable(),
});
export type LiteratureHit = z.infer<typeof literatureHit>;

export const LITERATURE_QUERY_MAX = 500;

/**
 * GET /api/v1/literature/search: papers from the configured services (in LITERATURE_ORDER, the next one asked when one fails).
 * @example { query: 'aspirin cyclooxygenase', limit: 10 }
 */
export const literatureSearchQuery = z.object({
  query: z.string({ error: '请输入检索词' }).trim().min(1, '请输入检索词').max(LITERATURE_QUERY_MAX, `检索词不能超过${LITERATURE_QUERY_MAX}个字符`),
  limit: z.coerce.number({ error: '结果数量必须是数字' }).int('结果数量必须是整数').min(1, '结果数量至少为 1').max(50, '结果数量不能超过 50').default(10),
});
export type LiteratureSearchQuery = z.infer<typeof literatureSearchQuery>;

export const literatureSearchResult = z.object({ source: literatureSource, items: z.array(literatureHit) });
export type LiteratureSearchResult = z.infer<typeof literatureSearchResult>;

/**
 * POST /api/v1/literature/save_pdf: fetches an open-access PDF through the SSRF-safe client and adds
 * it to a knowledge base as a document (parsed, then citable by page).
 * @example { pdf_url: 'https://europepmc.org/articles/PMC123/pdf', title: 'Aspirin and COX', folder_id: 'k1' }
 */
export const literatureSaveBody = z
  .object({
    pdf_url: z.string({ error: '缺少 PDF 网址' }).trim().min(1, '缺少 PDF 网址').max(2048, 'PDF 网址过长（超过 2048 个字符）'),
    title: z.string({ error: '缺少文献标题' }).trim().min(1, '缺少文献标题').max(300, '文献标题不能超过300个字符'),
    folder_id: z.string({ error: '请选择知识库' }).trim().min(1, '请选择知识库').max(100),
  }, { error: '请求体必须是 JSON 对象' })
  .strict();
export type LiteratureSaveBody = z.infer<typeof literatureSaveBody>;
