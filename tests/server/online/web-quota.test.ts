import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from '../helpers';
import { KB, openDb } from '../knowledge-helpers';
import { loopbackAllowed, startSite, testResolver } from './crawl-server';

// Pages and papers saved from the web cannot fill the disk: one user keeps at most
// CSAI_WEB_DOCS_QUOTA_FILES of them (and CSAI_WEB_DOCS_QUOTA_MB); past it a save is refused before
// anything is fetched, and deleting such a document frees room.

let server: TestServer;
let site: Awaited<ReturnType<typeof startSite>>;
beforeAll(async () => {
  site = await startSite();
  server = await startServer({ CSAI_WEB_DOCS_QUOTA_FILES: '2' }, undefined, { outbound: { isAllowedAddress: loopbackAllowed, resolve: testResolver } });
}, 60_000);
afterAll(async () => {
  await Promise.all([server?.close(), site?.close()]);
});

const webDocs = () => {
  const db = openDb(server);
  try {
    return (db.prepare('select count(*) as n from kb_documents where source_url is not null').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('documents saved from the web (issue 33)', () => {
  it('are refused past the per-user quota with a Chinese 403, nothing stored, until one is deleted', async () => {
    const owner = await signedInUser(server);
    const folder = (await owner.client.post<{ id: string }>(`${KB}/folder`, { name: '网页' })).body.data.id;
    const save = () => owner.client.post<{ docId: string }>('/api/v1/crawl/save', { url: `${site.base}/article`, folder_id: folder });
    const first = await save();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await save()).status).toBe(200);
    const refused = await save();
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('你从网页保存的文档已达上限');
    expect(webDocs()).toBe(2);
    const paper = await owner.client.post('/api/v1/literature/save_pdf', { pdf_url: `${site.base}/paper.pdf`, title: 'Paper', folder_id: folder });
    expect(paper.status).toBe(403);
    expect(webDocs()).toBe(2);

    // Another user is not held back by this one's documents.
    const other = await signedInUser(server);
    const otherFolder = (await other.client.post<{ id: string }>(`${KB}/folder`, { name: '网页' })).body.data.id;
    expect((await other.client.post('/api/v1/crawl/save', { url: `${site.base}/article`, folder_id: otherFolder })).status).toBe(200);

    // Deleting one frees room.
    expect((await owner.client.request('DELETE', `${KB}/${first.body.data.docId}`)).status).toBe(200);
    expect((await save()).status).toBe(200);
  });
});
