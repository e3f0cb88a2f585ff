import { crawlSaveBody, savedDocument } from '../../contract/crawl';
import { errorResponses, failure, ok as okSchema } from '../../contract/envelope';
import { AppError } from '../errors';
import { checkWebQuota, saveWebDocument, webQuota } from '../knowledge/web-documents';
import { CrawlError, createPageReader, pageAsMarkdown, readPage } from '../online/crawl/read-page';
import { ok, type App, type Services } from './types';

const tags = ['crawl'];

/** Page crawl: a page read through the SSRF-safe client and kept in a knowledge base. */
export default async function crawlRoutes(app: App, { db, config, runtime, outbound }: Services) {
  const quota = webQuota(config);
  const { files, kb } = runtime;
  const read = outbound ? createPageReader({ fetch: outbound }) : readPage;

  // A session first: a signed-out caller gets 401 before the body is validated.
  app.addHook('onRequest', async (req) => {
    await req.requireUser();
  });

  app.post('/save', {
    schema: {
      tags,
      summary: 'Read a web page (or PDF link) and save it into a knowledge base as a document: markdown with its title, URL and fetch time, parsed and searchable like an upload',
      body: crawlSaveBody,
      response: { 200: okSchema(savedDocument), ...errorResponses, 413: failure, 422: failure },
    },
  }, async (req, reply) => {
    const viewer = { userId: (await req.requireUser()).userId };
    // The folder is checked before anything is fetched: no write permission, no request goes out.
    await kb.checkUploadTarget(viewer, req.body.folder_id);
    // A user whose saved web documents fill the quota: refused before anything is fetched.
    await checkWebQuota(db, viewer.userId, quota);
    const stop = new AbortController();
    // A caller who goes away stops the fetch.
    reply.raw.once('close', () => reply.raw.writableFinished || stop.abort());
    let page;
    try {
      page = await read(req.body.url, stop.signal);
    } catch (err) {
      if (err instanceof CrawlError) throw new AppError(err.status, `crawl_${err.code}`, err.message, 'url');
      throw err;
    }
    const saved = await saveWebDocument(kb, files, viewer, req.body.folder_id, page.format === 'pdf' && page.pdf
      ? { title: page.title, format: 'pdf', body: page.pdf, url: page.url, fetchedAt: page.fetchedAt }
      : { title: page.title, format: 'markdown', body: Buffer.from(pageAsMarkdown(page), 'utf8'), url: page.url, fetchedAt: page.fetchedAt }, { db, quota });
    return ok(saved, '网页已保存到知识库');
  });
}
