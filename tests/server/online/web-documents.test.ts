import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '../../../src/server/db/database';
import { openTestDatabase } from '../postgres-harness';
import { knowledgePort } from '../../../src/server/retrieval/knowledge-port';
import { signedInUser, startServer, type TestServer } from '../helpers';
import { KB, openDb, waitParsed } from '../knowledge-helpers';
import { loopbackAllowed, startSite, testResolver } from './crawl-server';
import { startLiteratureServer } from './literature-server';

type Saved = { name: string; docId: string; url: string; fetchedAt: string };
type Doc = { docId: string; title: string; type: number; parseStatus: number; folder_id: string; page_count: number | null; source_url?: string | null; fetched_at?: string | null };
type Hit = { title: string; authors: string[]; journal: string | null; year: number | null; doi: string | null; pmid: string | null; abstract: string | null; pdfUrl: string | null };

let server: TestServer;
let unconfigured: TestServer;
let site: Awaited<ReturnType<typeof startSite>>;
let literature: Awaited<ReturnType<typeof startLiteratureServer>>;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let other: Awaited<ReturnType<typeof signedInUser>>;
let folderId: string;
let db: Db;

const docCount = () => {
  const sqlite = openDb(server);
  try {
    return (sqlite.prepare('select count(*) as n from kb_documents').get() as { n: number }).n;
  } finally {
    sqlite.close();
  }
};

beforeAll(async () => {
  site = await startSite();
  literature = await startLiteratureServer();
  server = await startServer(literature.env, undefined, { outbound: { isAllowedAddress: loopbackAllowed, resolve: testResolver } });
  unconfigured = await startServer();
  owner = await signedInUser(server, { name: '王化学' });
  other = await signedInUser(server, { name: '李药学' });
  const folder = await owner.client.post<{ id: string }>(`${KB}/folder`, { name: '网页资料' });
  folderId = folder.body.data.id;
  db = await openTestDatabase(server.dataDir);
}, 60_000);
afterAll(async () => {
  await db.destroy();
  await Promise.all([server.close(), unconfigured.close(), site.close(), literature.close()]);
});

describe('saving a crawled page into a knowledge base', () => {
  it('stores the article as a web document with its title, URL and fetch time, parsed and searchable', async () => {
    const res = await owner.client.post<Saved>('/api/v1/crawl/save', { url: `${site.base}/article`, folder_id: folderId });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('网页已保存到知识库');
    expect(res.body.data).toMatchObject({ name: 'Aspirin.md', url: `${site.base}/article` });
    const done = await waitParsed(owner.client, res.body.data.docId);
    expect(done.parseStatus).toBe(2);
    const doc = await owner.client.get<Doc>(`${KB}/doc/${res.body.data.docId}`);
    expect(doc.body.data).toMatchObject({ title: 'Aspirin.md', type: 7, folder_id: folderId, source_url: `${site.base}/article`, fetched_at: res.body.data.fetchedAt });
    const md = await owner.client.get<{ markdown: string }>(`${KB}/doc_markdown/${res.body.data.docId}`);
    expect(md.body.data.markdown).toContain('# Aspirin');
    expect(md.body.data.markdown).toContain(`> 网址：${site.base}/article`);
    expect(md.body.data.markdown).toMatch(/^\| Molar mass +\| 180\.16 g\/mol \|$/m);
    const found = await knowledgePort(db).search([res.body.data.docId], 'melting point of aspirin', 3);
    expect(found[0]?.text).toContain('Melting point');
    expect(found[0]).toMatchObject({ docId: res.body.data.docId, title: 'Aspirin.md', page: null });
  });

  it('saves the same page twice under a second name instead of refusing it', async () => {
    const res = await owner.client.post<Saved>('/api/v1/crawl/save', { url: `${site.base}/to-article`, folder_id: folderId });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('Aspirin_1.md');
  });

  it('saves a PDF link as the PDF itself, parsed with pages', async () => {
    const res = await owner.client.post<Saved>('/api/v1/crawl/save', { url: `${site.base}/paper.pdf`, folder_id: folderId });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toMatch(/\.pdf$/);
    const done = await waitParsed(owner.client, res.body.data.docId);
    expect(done.parseStatus).toBe(2);
    const doc = await owner.client.get<Doc>(`${KB}/doc/${res.body.data.docId}`);
    expect(doc.body.data).toMatchObject({ type: 1, page_count: 2, source_url: `${site.base}/paper.pdf` });
  });

  it('refuses bad URLs and unreadable pages with a Chinese message and 4xx, writing nothing', async () => {
    const before = docCount();
    const cases: Array<[string, number, string]> = [
      ['file:///etc/passwd', 400, '只能抓取 http 或 https 网址，不支持 file 协议'],
      ['javascript:alert(1)', 400, '只能抓取 http 或 https 网址，不支持 javascript 协议'],
      [`${site.base}/huge`, 413, '网页过大（超过 10 MB），已停止读取'],
      [`${site.base}/loop`, 422, '网页重定向次数过多（可能是重定向循环），已停止'],
      [`${site.base}/private/page`, 403, `该网站的 robots.txt 不允许抓取此网页：${site.base}/private/page`],
      [`${site.base}/to-metadata`, 400, ''],
    ];
    for (const [url, status, message] of cases) {
      const res = await owner.client.post('/api/v1/crawl/save', { url, folder_id: folderId });
      expect(res.status, url).toBe(status);
      expect(res.body.success).toBe(false);
      if (message) expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(/不能抓取内网、本机或保留地址的网页/);
    }
    expect(docCount()).toBe(before);
  });

  it('refuses a folder the user may not write to before fetching anything, and bad bodies', async () => {
    const hits = site.robotsHits();
    const foreign = await other.client.post('/api/v1/crawl/save', { url: `${site.base}/article`, folder_id: folderId });
    expect(foreign.status).toBeGreaterThanOrEqual(403);
    expect(foreign.status).toBeLessThan(405);
    expect(foreign.body.success).toBe(false);
    expect(site.robotsHits()).toBe(hits);
    const noFolder = await owner.client.post('/api/v1/crawl/save', { url: `${site.base}/article`, folder_id: '' });
    expect(noFolder.status).toBe(400);
    expect(noFolder.body.message).toContain('请选择知识库');
    const noUrl = await owner.client.post('/api/v1/crawl/save', { folder_id: folderId });
    expect(noUrl.status).toBe(400);
    const extra = await owner.client.post('/api/v1/crawl/save', { url: `${site.base}/article`, folder_id: folderId, path: '/etc' });
    expect(extra.status).toBe(400);
    const anonymous = await server.client().post('/api/v1/crawl/save', { url: `${site.base}/article`, folder_id: folderId });
    expect(anonymous.status).toBe(401);
  });
});

describe('literature search over HTTP', () => {
  it('lists papers with title, authors, journal, year, DOI, PMID, abstract and the OA PDF', async () => {
    const res = await owner.client.get<{ source: string; items: Hit[] }>('/api/v1/literature/search?query=aspirin&limit=5');
    expect(res.status).toBe(200);
    expect(res.body.data.source).toBe('pubmed');
    expect(res.body.data.items[0]).toMatchObject({ title: 'Aspirin and cyclooxygenase acetylation', authors: ['Jane Smith', 'Li Wang'], journal: 'Journal of medicinal chemistry', year: 2020, doi: '10.1021/acs.jmedchem.0c00001', pmid: '31000001' });
  });

  it('refuses a bad query, says what to configure when nothing is, and names the failures', async () => {
    expect((await owner.client.get('/api/v1/literature/search?query=')).status).toBe(400);
    expect((await owner.client.get('/api/v1/literature/search?query=x&limit=500')).status).toBe(400);
    const user = await signedInUser(unconfigured);
    const none = await user.client.get('/api/v1/literature/search?query=aspirin');
    expect(none.status).toBe(503);
    expect(none.body.message).toContain('PUBMED_URL、EUROPEPMC_URL 或 OPENALEX_URL');
    literature.setMode('pubmed', 'server_error');
    literature.setMode('europepmc', 'server_error');
    literature.setMode('openalex', 'rate_limited');
    const failed = await owner.client.get('/api/v1/literature/search?query=aspirin');
    literature.reset();
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe('文献检索失败：PubMed 返回错误（500）；Europe PMC 返回错误（500）；OpenAlex 请求过于频繁或额度已用完（429），请稍后再试');
  });
});

describe('adding an open-access PDF to a knowledge base', () => {
  it('fetches the PDF through the SSRF-safe client, stores it as a document, parses it with pages', async () => {
    const res = await owner.client.post<Saved>('/api/v1/literature/save_pdf', { pdf_url: `${site.base}/paper.pdf`, title: 'Ibuprofen PK review', folder_id: folderId });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('文献已添加到知识库');
    expect(res.body.data.name).toBe('Ibuprofen PK review.pdf');
    const done = await waitParsed(owner.client, res.body.data.docId);
    expect(done.parseStatus).toBe(2);
    const doc = await owner.client.get<Doc>(`${KB}/doc/${res.body.data.docId}`);
    expect(doc.body.data).toMatchObject({ type: 1, page_count: 2, source_url: `${site.base}/paper.pdf` });
    // Citable by page: the passage about half-life is on page 2.
    const found = await knowledgePort(db).search([res.body.data.docId], 'half-life hepatic metabolism', 3);
    expect(found[0]).toMatchObject({ docId: res.body.data.docId, page: 2 });
    expect(found[0]!.bbox).toHaveLength(4);
  });

  it('refuses what is not a PDF, private addresses, other schemes and foreign folders, writing nothing', async () => {
    const before = docCount();
    const notPdf = await owner.client.post('/api/v1/literature/save_pdf', { pdf_url: `${site.base}/article`, title: 'x', folder_id: folderId });
    expect(notPdf.status).toBe(422);
    expect(notPdf.body.message).toBe('该链接返回的不是 PDF 文件（可能需要登录或付费才能下载）');
    const metadata = await owner.client.post('/api/v1/literature/save_pdf', { pdf_url: 'http://169.254.169.254/latest/meta-data/', title: 'x', folder_id: folderId });
    expect(metadata.status).toBe(400);
    expect(metadata.body.message).toContain('169.254.169.254');
    const ftp = await owner.client.post('/api/v1/literature/save_pdf', { pdf_url: 'ftp://example.com/a.pdf', title: 'x', folder_id: folderId });
    expect(ftp.status).toBe(400);
    expect(ftp.body.message).toBe('只能抓取 http 或 https 网址，不支持 ftp 协议');
    const huge = await owner.client.post('/api/v1/literature/save_pdf', { pdf_url: `${site.base}/huge`, title: 'x', folder_id: folderId });
    expect(huge.status).toBe(413);
    const missing = await owner.client.post('/api/v1/literature/save_pdf', { pdf_url: `${site.base}/nope.pdf`, title: 'x', folder_id: folderId });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toBe('下载 PDF 失败：对方返回错误状态 404');
    const foreign = await other.client.post('/api/v1/literature/save_pdf', { pdf_url: `${site.base}/paper.pdf`, title: 'x', folder_id: folderId });
    expect(foreign.status).toBeGreaterThanOrEqual(403);
    const noTitle = await owner.client.post('/api/v1/literature/save_pdf', { pdf_url: `${site.base}/paper.pdf`, title: '', folder_id: folderId });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.message).toContain('缺少文献标题');
    expect(docCount()).toBe(before);
  });
});
