import { CRAWL_MARKDOWN_MAX, pageCrawlInput, pageCrawlOutput, type PageCrawlInput, type PageCrawlOutput } from '../../contract/crawl';
import { CrawlError, createPageReader, readPage, type PageReader, type PageReaderOptions } from '../online/crawl/read-page';
import { defineTool, ToolInputError, type ToolDefinition } from './types';

/** Characters of the page the model reads in the tool's summary. */
const SUMMARY_CHARS = 8000;

/**
 * 网页抓取 (SPEC §9): reads one http(s) page through the SSRF-safe client, honouring
 * robots.txt, and gives its readable article as markdown (tables kept; a PDF through the project's
 * PDF parser), citable as `{url, title, site, snippet, fetchedAt}`. `options` are for tests only.
 */
export function createPageCrawlTool(options?: PageReaderOptions): ToolDefinition<PageCrawlInput, PageCrawlOutput> {
  const read: PageReader = options ? createPageReader(options) : readPage;
  return defineTool('page_crawl', () => ({
    input: pageCrawlInput,
    output: pageCrawlOutput,
    description:
      '读取一个 http(s) 网页或 PDF 链接的正文：遵守网站的 robots.txt，提取可读的文章内容并转换为 Markdown（保留表格），结果可作为引用（网址、标题、网站、摘要、抓取时间）。不能读取内网或本机地址。',
    availability: () => ({ enabled: true }),
    timeoutMs: 45_000,
    async run(input: PageCrawlInput, ctx): Promise<PageCrawlOutput> {
      try {
        const page = await read(input.url, ctx.signal);
        const truncated = page.markdown.length > CRAWL_MARKDOWN_MAX;
        return {
          url: page.url,
          title: page.title,
          site: page.site,
          snippet: page.excerpt,
          fetchedAt: page.fetchedAt,
          format: page.format,
          page_count: page.pageCount,
          markdown: truncated ? page.markdown.slice(0, CRAWL_MARKDOWN_MAX) : page.markdown,
          truncated,
        };
      } catch (err) {
        // Every refusal (scheme, address, robots.txt, size, time, redirects) is the caller's to read.
        if (err instanceof CrawlError) throw new ToolInputError(err.message);
        throw err;
      }
    },
    summarize(output: PageCrawlOutput): string {
      const head = `《${output.title}》（${output.site}，${output.url}，抓取于 ${output.fetchedAt}${output.page_count ? `，PDF 共 ${output.page_count} 页` : ''}）`;
      const body = output.markdown.length > SUMMARY_CHARS ? `${output.markdown.slice(0, SUMMARY_CHARS)}\n…（正文较长，已截断）` : output.markdown;
      return `${head}\n${body}${output.truncated && output.markdown.length <= SUMMARY_CHARS ? '\n…（正文较长，已截断）' : ''}`;
    },
  }));
}

export const pageCrawlTool = createPageCrawlTool();
