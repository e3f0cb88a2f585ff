import { z } from 'zod';

/** Longest URL page crawl accepts. */
export const CRAWL_URL_MAX = 2048;
/** Characters of a page's markdown a page_crawl result carries (the model reads this much). */
export const CRAWL_MARKDOWN_MAX = 12_000;

const pageUrl = z
  .string({ error: '网址必须是字符串' })
  .trim()
  .min(1, '请提供要抓取的网址')
  .max(CRAWL_URL_MAX, `网址过长（超过 ${CRAWL_URL_MAX} 个字符）`);

/**
 * Input of the page_crawl tool.
 * @example { url: 'https://en.wikipedia.org/wiki/Aspirin' }
 */
export const pageCrawlInput = z.object({ url: pageUrl.describe('要读取的网页或 PDF 的 http(s) 网址') }, { error: '请求体必须是 JSON 对象' }).strict();
export type PageCrawlInput = z.infer<typeof pageCrawlInput>;

/**
 * A page read by page_crawl: citable as `{url, title, site, snippet, fetchedAt}`, with its
 * readable text as markdown (tables kept; cut at CRAWL_MARKDOWN_MAX characters, `truncated` says so).
 */
export const pageCrawlOutput = z.object({
  url: z.string(),
  title: z.string(),
  site: z.string(),
  snippet: z.string(),
  fetchedAt: z.string(),
  format: z.enum(['html', 'text', 'pdf']),
  page_count: z.number().int().nullable(),
  markdown: z.string(),
  truncated: z.boolean(),
});
export type PageCrawlOutput = z.infer<typeof pageCrawlOutput>;

/**
 * POST /api/v1/crawl/save: reads a page and stores it in a knowledge base as a document (a web page
 * as markdown with its title, URL and fetch time; a PDF as the PDF itself), parsed and indexed like an upload.
 * @example { url: 'https://example.com/article', folder_id: 'k1' }
 */
export const crawlSaveBody = z.object({ url: pageUrl, folder_id: z.string().trim().min(1, '请选择知识库').max(100) }, { error: '请求体必须是 JSON 对象' }).strict();
export type CrawlSaveBody = z.infer<typeof crawlSaveBody>;

/** What saving a page or a paper made: the new document, where it came from and when. */
export const savedDocument = z.object({
  name: z.string(),
  docId: z.string(),
  url: z.string(),
  fetchedAt: z.string(),
});
export type SavedDocument = z.infer<typeof savedDocument>;
