import { errorResponses, failure, ok as okSchema } from '../../contract/envelope';
import { savedDocument } from '../../contract/crawl';
import { literatureSaveBody, literatureSearchQuery, literatureSearchResult } from '../../contract/literature';
import { AppError } from '../errors';
import { checkWebQuota, saveWebDocument, webQuota } from '../knowledge/web-documents';
import { safeFetch, SafeFetchError } from '../net/safe-fetch';
import { CrawlError, checkPageUrl } from '../online/crawl/read-page';
import { CRAWLER_USER_AGENT } from '../online/crawl/robots';
import { ServiceError } from '../net/service';
import { SOURCE_SETUP } from '../online/sources';
import { ok, type App, type Services } from './types';

const tags = ['literature'];
/** An open-access paper's PDF is read whole into memory: 40 MB covers papers with many figures. */
const MAX_PDF_BYTES = 40 * 1024 * 1024;
const PDF_TIMEOUT_MS = 60_000;

/** Literature search and adding an open-access PDF to a knowledge base in one click. */
export default async function literatureRoutes(app: App, { db, config, runtime, outbound }: Services) {
  const quota = webQuota(config);
  const { files, kb } = runtime;
  const literature = runtime.onlineServices.literature;

  app.addHook('onRequest', async (req) => {
    await req.requireUser();
  });

  app.get('/search', {
    schema: {
      tags,
      summary: 'Papers from the configured literature services (PubMed, Europe PMC, OpenAlex in LITERATURE_ORDER, the next asked when one fails)',
      querystring: literatureSearchQuery,
      response: { 200: okSchema(literatureSearchResult), ...errorResponses, 502: failure, 503: failure },
    },
  }, async (req) => {
    if (!literature) throw new AppError(503, 'literature_not_configured', SOURCE_SETUP.literature);
    try {
      return ok(await literature.search({ query: req.query.query, limit: req.query.limit, signal: AbortSignal.timeout(30_000) }));
    } catch (err) {
      if (err instanceof ServiceError) throw new AppError(502, 'literature_failed', err.message);
      throw err;
    }
  });

  app.post('/save_pdf', {
    schema: {
      tags,
      summary: "Fetch a paper's open-access PDF through the SSRF-safe client and add it to a knowledge base (parsed, then citable by page)",
      body: literatureSaveBody,
      response: { 200: okSchema(savedDocument), ...errorResponses, 413: failure, 422: failure },
    },
  }, async (req) => {
    const viewer = { userId: (await req.requireUser()).userId };
    await kb.checkUploadTarget(viewer, req.body.folder_id);
    // A user whose saved web documents fill the quota: refused before anything is fetched.
    await checkWebQuota(db, viewer.userId, quota);
    let url: URL;
    try {
      url = checkPageUrl(req.body.pdf_url);
    } catch (err) {
      if (err instanceof CrawlError) throw new AppError(err.status, `crawl_${err.code}`, err.message, 'pdf_url');
      throw err;
    }
    let res;
    try {
      res = await safeFetch(url, { ...outbound, maxBytes: MAX_PDF_BYTES, timeoutMs: PDF_TIMEOUT_MS, headers: { 'user-agent': CRAWLER_USER_AGENT, accept: 'application/pdf, */*;q=0.5' } });
    } catch (err) {
      if (!(err instanceof SafeFetchError)) throw err;
      if (err.code === 'too_large') throw new AppError(413, 'pdf_too_large', `PDF 文件过大（超过 ${MAX_PDF_BYTES / 1024 / 1024} MB）`, 'pdf_url');
      if (err.code === 'blocked_address' || err.code === 'blocked_scheme' || err.code === 'invalid_url') throw new AppError(400, `crawl_${err.code}`, err.message, 'pdf_url');
      if (err.code === 'timeout') throw new AppError(422, 'pdf_timeout', `下载 PDF 超时（超过 ${PDF_TIMEOUT_MS / 1000} 秒）`, 'pdf_url');
      if (err.code === 'too_many_redirects') throw new AppError(422, 'pdf_redirects', '下载 PDF 时重定向次数过多，已停止', 'pdf_url');
      throw new AppError(422, 'pdf_unreachable', `无法下载 PDF：${err.message}`, 'pdf_url');
    }
    if (res.status < 200 || res.status >= 300) throw new AppError(422, 'pdf_http_status', `下载 PDF 失败：对方返回错误状态 ${res.status}`, 'pdf_url');
    const saved = await saveWebDocument(kb, files, viewer, req.body.folder_id, { title: req.body.title, format: 'pdf', body: res.body, url: res.url, fetchedAt: new Date().toISOString() }, { db, quota });
    return ok(saved, '文献已添加到知识库');
  });
}
