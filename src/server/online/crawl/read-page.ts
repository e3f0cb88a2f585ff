import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { safeFetch, SafeFetchError, type SafeFetchOptions, type SafeFetchResponse } from '../../net/safe-fetch';
import { workerPool, type WorkerPool } from '../../parsing/worker-pool';
import { decodeHtml, extractArticle, siteOf, type ExtractedArticle } from './extract';
import { ExtractTimeoutError, sharedExtractPool } from './extract-pool';
import { CRAWLER_USER_AGENT, robotsCache, type RobotsCache } from './robots';

/** A page read by page crawl: its readable text as markdown, where it came from and when. */
export interface CrawledPage {
  /** The final URL after redirects. */
  url: string;
  /** The URL asked for. */
  requestedUrl: string;
  title: string;
  site: string;
  markdown: string;
  /** A few sentences of the page, plain text. */
  excerpt: string;
  /** ISO time of the fetch. */
  fetchedAt: string;
  /** What the page was: an HTML article, plain text or a PDF (parsed by the project's PDF parser). */
  format: 'html' | 'text' | 'pdf';
  byline: string | null;
  /** Pages of a PDF; null for HTML and text. */
  pageCount: number | null;
  /** The PDF's own bytes (to store it as a document); absent for HTML and text. */
  pdf?: Buffer;
}

export type CrawlErrorCode =
  | 'invalid_url'
  | 'blocked_scheme'
  | 'blocked_address'
  | 'robots_disallowed'
  | 'too_large'
  | 'timeout'
  | 'too_many_redirects'
  | 'network'
  | 'http_status'
  | 'unsupported_type'
  | 'no_content';

/** A page that cannot be read, with a Chinese message the user can act on and the HTTP status a route answers with. */
export class CrawlError extends Error {
  constructor(
    readonly code: CrawlErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CrawlError';
  }

  /** 400 for a URL the user must change, 403 for robots.txt, 413 for size, 422 for what the site answered. */
  get status(): number {
    if (this.code === 'invalid_url' || this.code === 'blocked_scheme' || this.code === 'blocked_address') return 400;
    if (this.code === 'robots_disallowed') return 403;
    if (this.code === 'too_large') return 413;
    return 422;
  }
}

export const MAX_URL_LENGTH = 2048;
/** Bytes of a page read at most. */
export const MAX_PAGE_BYTES = 10 * 1024 * 1024;
/** The whole fetch of a page, redirects included. */
export const PAGE_TIMEOUT_MS = 20_000;

export interface PageReaderOptions {
  /** Tests only: the address policy and name resolution of the SSRF-safe client. */
  fetch?: Pick<SafeFetchOptions, 'isAllowedAddress' | 'resolve'>;
  maxBytes?: number;
  timeoutMs?: number;
  robots?: RobotsCache;
  /** How an HTML page becomes its article (default: in the shared pool of extraction threads). */
  extract?: (html: string, url: URL) => Promise<ExtractedArticle>;
}

/**
 * An HTML page's article, extracted in a worker thread (`extract-pool.ts`): off the event loop,
 * and on several cores when pages are read at once. A page that takes longer than the pool's time
 * limit is refused; a thread that cannot run (the worker file missing) leaves it to this thread.
 */
export async function extractInPool(html: string, url: URL): Promise<ExtractedArticle> {
  try {
    return await sharedExtractPool().extract(html, url);
  } catch (err) {
    if (err instanceof ExtractTimeoutError) throw new CrawlError('timeout', '网页结构过于复杂，提取正文超时，已放弃');
    return extractArticle(html, url);
  }
}

export type PageReader = (url: string, signal: AbortSignal) => Promise<CrawledPage>;

function fromFetchError(err: SafeFetchError, maxBytes: number, timeoutMs: number): CrawlError {
  switch (err.code) {
    case 'too_large':
      return new CrawlError('too_large', `网页过大（超过 ${Math.round(maxBytes / 1024 / 1024)} MB），已停止读取`);
    case 'timeout':
      return new CrawlError('timeout', `网页读取超时（超过 ${Math.round(timeoutMs / 1000)} 秒），已停止`);
    case 'too_many_redirects':
      return new CrawlError('too_many_redirects', '网页重定向次数过多（可能是重定向循环），已停止');
    case 'blocked_address':
      return new CrawlError('blocked_address', `${err.message}，出于安全原因不能抓取内网、本机或保留地址的网页`);
    case 'network':
      return new CrawlError('network', `无法连接该网页：${err.message.replace(/^外部请求失败：/, '')}`);
    default:
      return new CrawlError(err.code, err.message);
  }
}

/** Checks a URL a user or model gave before anything is fetched. */
export function checkPageUrl(raw: string): URL {
  const text = raw.trim();
  if (!text) throw new CrawlError('invalid_url', '请提供要抓取的网址');
  if (text.length > MAX_URL_LENGTH) throw new CrawlError('invalid_url', `网址过长（超过 ${MAX_URL_LENGTH} 个字符）`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CrawlError('invalid_url', `无效的网址：${text.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CrawlError('blocked_scheme', `只能抓取 http 或 https 网址，不支持 ${url.protocol.replace(/:$/, '')} 协议`);
  }
  if (url.username || url.password) throw new CrawlError('invalid_url', '网址中不能包含用户名或密码');
  url.hash = '';
  return url;
}

/** The last path segment of a URL, decoded when it can be. */
function fileNameOf(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

const isPdf = (contentType: string, body: Buffer) => /\bpdf\b/i.test(contentType) || body.subarray(0, 1024).includes('%PDF-');

/** A crawled PDF gets this long to parse before its worker is replaced. */
const PDF_TIMEOUT_MS = 120_000;
let pdfPool: WorkerPool | undefined;

/**
 * A PDF's bytes through the project's PDF parser (from a temporary file, removed afterwards), in a
 * parse process (parsing/worker-pool.ts). Never in the server's own thread: pdf.js's legacy build installs core-js
 * polyfills that replace JSON.parse, JSON.stringify and Array.prototype.push with slower
 * JavaScript versions for the whole thread it is loaded in.
 */
async function readPdf(body: Buffer): Promise<{ markdown: string; pageCount: number | null }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'csai-crawl-'));
  try {
    const file = path.join(dir, 'page.pdf');
    await fs.writeFile(file, body);
    const parsed = await (pdfPool ??= workerPool(1, { taskTimeoutMs: PDF_TIMEOUT_MS })).run('pdf', file, '', () => undefined);
    return { markdown: parsed.markdown, pageCount: parsed.pageCount };
  } catch (err) {
    throw new CrawlError('unsupported_type', `无法解析该 PDF：${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** A PDF's title: its first heading, else the file name of the URL. */
function pdfTitle(markdown: string, url: URL): string {
  const heading = /^#{1,3}\s+(.+)$/m.exec(markdown)?.[1]?.trim();
  if (heading) return heading.slice(0, 200);
  return fileNameOf(url) || siteOf(url);
}

const plainExcerpt = (markdown: string) => {
  const flat = markdown.replace(/[#*_`>|[\]()!-]+/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
};

/**
 * Builds a page reader: the URL checked (http(s) only), robots.txt of its origin honoured, the
 * page fetched through the SSRF-safe client only (private addresses refused on every hop, size
 * and time caps), then an HTML article extracted as markdown, plain text kept, or a PDF parsed.
 */
export function createPageReader(options: PageReaderOptions = {}): PageReader {
  const maxBytes = options.maxBytes ?? MAX_PAGE_BYTES;
  const timeoutMs = options.timeoutMs ?? PAGE_TIMEOUT_MS;
  const robots = options.robots ?? robotsCache(options.fetch);
  const extract = options.extract ?? extractInPool;
  return async (raw, signal) => {
    const url = checkPageUrl(raw);
    let res: SafeFetchResponse;
    try {
      const rules = await robots.rulesFor(url, signal);
      if (!rules.allows(`${url.pathname}${url.search}`)) {
        if (rules.unreachable) throw new CrawlError('network', `无法访问该网站（${url.host.slice(0, 200)}）：网站没有响应、域名无法解析或返回服务器错误，请检查网址或稍后重试`);
        throw new CrawlError('robots_disallowed', `该网站的 robots.txt 不允许抓取此网页：${url.href.slice(0, 200)}`);
      }
      res = await safeFetch(url, {
        ...options.fetch,
        maxBytes,
        timeoutMs,
        signal,
        headers: { 'user-agent': CRAWLER_USER_AGENT, accept: 'text/html, application/xhtml+xml, application/pdf;q=0.9, text/plain;q=0.8, */*;q=0.5', 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' },
      });
    } catch (err) {
      if (err instanceof SafeFetchError) throw fromFetchError(err, maxBytes, timeoutMs);
      throw err;
    }
    const fetchedAt = new Date().toISOString();
    if (res.status < 200 || res.status >= 300) throw new CrawlError('http_status', `网页返回错误状态 ${res.status}，无法读取`);
    const finalUrl = new URL(res.url);
    const contentType = String(res.headers['content-type'] ?? '').toLowerCase();
    const base = { url: finalUrl.href, requestedUrl: url.href, fetchedAt };
    if (isPdf(contentType, res.body)) {
      const { markdown, pageCount } = await readPdf(res.body);
      if (!markdown.trim()) throw new CrawlError('no_content', '该 PDF 中没有可读取的文字');
      return { ...base, title: pdfTitle(markdown, finalUrl), site: siteOf(finalUrl), markdown, excerpt: plainExcerpt(markdown), format: 'pdf', byline: null, pageCount, pdf: res.body };
    }
    const looksHtml = /html|xml/.test(contentType) || (!contentType && /^\s*</.test(res.body.subarray(0, 512).toString('latin1')));
    if (looksHtml) {
      const article = await extract(decodeHtml(res.body, contentType), finalUrl);
      if (!article.markdown.trim()) throw new CrawlError('no_content', '网页中没有可读取的正文');
      return { ...base, ...article, format: 'html', pageCount: null };
    }
    if (/^text\/(plain|markdown)/.test(contentType) || !contentType) {
      const markdown = decodeHtml(res.body, contentType).trim();
      if (!markdown) throw new CrawlError('no_content', '网页中没有可读取的正文');
      const title = fileNameOf(finalUrl) || siteOf(finalUrl);
      return { ...base, title, site: siteOf(finalUrl), markdown, excerpt: plainExcerpt(markdown), format: 'text', byline: null, pageCount: null };
    }
    throw new CrawlError('unsupported_type', `不支持的网页内容类型：${contentType.split(';')[0]}（只能读取 HTML 网页、纯文本和 PDF）`);
  };
}

/** The page reader with production settings: public addresses only. */
export const readPage: PageReader = createPageReader();

/**
 * A crawled page as the markdown file kept in a knowledge base: its title, where it came from and
 * when it was read, then the article.
 */
export function pageAsMarkdown(page: Pick<CrawledPage, 'title' | 'url' | 'site' | 'fetchedAt' | 'byline' | 'markdown'>): string {
  const lines = [`# ${page.title}`, '', `> 来源：[${page.site}](${page.url})  `, `> 网址：${page.url}  `, `> 抓取时间：${page.fetchedAt}`];
  if (page.byline) lines.push(`> 作者：${page.byline}`);
  return `${lines.join('\n')}\n\n${page.markdown}\n`;
}
