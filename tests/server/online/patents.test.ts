import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toolCatalogEntry } from '../../../src/contract/tools';
import { createChemService } from '../../../src/server/chem/service';
import { loadConfig } from '../../../src/server/config';
import { createPatentSearch, patentAdapters, patentsOnline } from '../../../src/server/online/patents';
import { onlineServices } from '../../../src/server/online/sources';
import { pubchemPatentAdapter } from '../../../src/server/online/patents/pubchem';
import { sureChemblAdapter } from '../../../src/server/online/patents/surechembl';
import { patentSearchDefinition, patentSearchTool } from '../../../src/server/tools/patent-search';
import { createToolRegistry } from '../../../src/server/tools/registry';
import { toolDefinitions } from '../../../src/server/tools';
import type { ToolContext } from '../../../src/server/tools/types';
import { ASPIRIN_KEY, pugRestAnswer } from './pubchem-server';

const chem = createChemService({ workers: 1 });
const log = Fastify({ logger: false }).log;
const ctx = (): ToolContext => ({ viewer: { userId: 'u1' }, docIds: [], signal: AbortSignal.timeout(30_000) });

/** What the fake services answer with next: normal, or one of the documented failures. */
let mode: 'ok' | '429' | '503' | 'malformed' | 'envelope-error' | 'not-json' = 'ok';
const seen: Array<{ method: string; url: string; body: string }> = [];
let statusPolls = 0;

const doc = (docId: string, title: string, pa: string, pd: string) => ({ docId, pa, metadata: { titles: [{ lang: 'de', titles: ['Titel'] }, { lang: 'en', titles: [title] }], pd } });

/** A SureChEMBL REST API (under /api) and a PubChem PUG REST (under /rest/pug) on 127.0.0.1. */
function handler(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
  const url = new URL(req.url ?? '/', 'http://x');
  seen.push({ method: req.method ?? '', url: req.url ?? '', body });
  const json = (status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  if (mode === '429') return json(429, { status: 'ERROR', error_message: 'Too many requests' });
  if (mode === '503') return json(503, { status: 'ERROR' });
  if (mode === 'not-json') {
    res.writeHead(200, { 'content-type': 'text/html' });
    return res.end('<html>maintenance</html>');
  }
  if (mode === 'malformed') return json(200, { status: 'OK', data: { results: { documents: [{ nope: 1 }] } }, IdentifierList: { CID: 'x' } });
  const ok = (data: unknown) => json(200, { status: mode === 'envelope-error' ? 'ERROR' : 'OK', data, error_message: mode === 'envelope-error' ? 'Query is too general' : null });
  const p = url.pathname;
  if (p === '/api/search/structure' && req.method === 'POST') return ok({ hash: 'job-1' });
  if (p === '/api/search/job-1/status') {
    statusPolls++;
    return ok(statusPolls === 1 ? { message: 'Searching...' } : { message: 'Searching finished.', resultCount: 2 });
  }
  if (p === '/api/search/job-1/results') return ok({ results: { structures: [{ id: 1353 }, { id: 29350479 }] } });
  if (p === '/api/search/documents_for_structures' && req.method === 'POST') {
    return ok({ results: { total_hits: 2, documents: [doc('US-10000000-B2', 'Acetylsalicylic acid formulation', 'BAYER AG', '20180619'), doc('WO-2016144528-A1', 'Analgesic tablets', 'null', '2016-09-15')] } });
  }
  if (p === '/api/search/content' && req.method === 'POST') {
    return url.searchParams.get('query') === 'nothing' ? ok({ results: { total_hits: 0, documents: [] } }) : ok({ results: { total_hits: 1, documents: [doc('EP-3268771-B1', 'Kinase inhibitors', 'NOVARTIS AG', '20200101')] } });
  }
  // PubChem's PUG REST: the same answers as the PubChem stand-in's.
  const rest = pugRestAnswer(url);
  if (rest) return json(rest.status, rest.body);
  json(404, { status: 'ERROR', error_message: 'not found' });
}

let server: http.Server;
let base = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await chem.close();
});
beforeEach(() => {
  mode = 'ok';
  seen.length = 0;
  statusPolls = 0;
});

const signal = () => AbortSignal.timeout(20_000);
const surechembl = () => sureChemblAdapter({ baseUrl: `${base}/api/`, pollMs: 10 });
const pubchem = () => pubchemPatentAdapter({ baseUrl: `${base}/rest/pug`, minIntervalMs: 0 });

describe('the SureChEMBL adapter', () => {
  it('runs a structure search as the documented job (submit, poll, results) and lists the documents of the found compounds', async () => {
    const hits = await surechembl().byStructure({ smiles: 'CC(=O)Oc1ccccc1C(=O)O' }, 10, signal());
    expect(hits).toEqual([
      { number: 'US-10000000-B2', title: 'Acetylsalicylic acid formulation', assignee: 'BAYER AG', date: '2018-06-19', url: 'https://www.surechembl.org/patent/US-10000000-B2', source: 'surechembl' },
      { number: 'WO-2016144528-A1', title: 'Analgesic tablets', assignee: null, date: '2016-09-15', url: 'https://www.surechembl.org/patent/WO-2016144528-A1', source: 'surechembl' },
    ]);
    expect(JSON.parse(seen[0]!.body)).toEqual({ StructureSearchRequest: { struct: 'CC(=O)Oc1ccccc1C(=O)O', structSearchType: 'identical', maxResults: 5 } });
    expect(statusPolls).toBe(2);
    expect(seen.at(-1)!.url).toContain('chemicalIds=1353%2C29350479');
  });

  it('searches text through /search/content; nothing found is an empty list', async () => {
    expect((await surechembl().byText('kinase', 5, signal())).map((h) => h.number)).toEqual(['EP-3268771-B1']);
    expect(new URL(seen[0]!.url, 'http://x').searchParams.get('itemsPerPage')).toBe('5');
    expect(await surechembl().byText('nothing', 5, signal())).toEqual([]);
  });

  it('says plainly it cannot search by InChIKey alone', async () => {
    await expect(surechembl().byStructure({ inchiKey: ASPIRIN_KEY }, 5, signal())).rejects.toThrow('SureChEMBL 只能按 SMILES 检索结构');
  });

  it.each([
    ['429', 'SureChEMBL 请求过于频繁或额度已用完（429），请稍后再试'],
    ['503', 'SureChEMBL 暂时不可用（503），请稍后再试'],
    ['malformed', 'SureChEMBL 返回的数据格式无法识别'],
    ['not-json', 'SureChEMBL 返回的数据不是有效的 JSON'],
    ['envelope-error', 'SureChEMBL 报告错误：Query is too general'],
  ] as const)('answers %s with a clear Chinese message', async (m, message) => {
    mode = m;
    await expect(surechembl().byText('kinase', 5, signal())).rejects.toThrow(message);
  });

  it('an unreachable service is named in the message', async () => {
    const down = sureChemblAdapter({ baseUrl: 'http://127.0.0.1:1/api' });
    await expect(down.byText('x', 5, signal())).rejects.toThrow(/^无法连接 SureChEMBL/);
  });
});

describe('the PubChem patent cross-references adapter', () => {
  it('goes InChIKey → CIDs → xrefs/PatentID, and SMILES and names the same way', async () => {
    const hits = await pubchem().byStructure({ inchiKey: ASPIRIN_KEY, smiles: 'CC(=O)Oc1ccccc1C(=O)O' }, 2, signal());
    expect(hits).toEqual([
      { number: 'US-10000000-B2', title: null, assignee: null, date: null, url: 'https://pubchem.ncbi.nlm.nih.gov/patent/US-10000000-B2', source: 'pubchem' },
      { number: 'CN-101234567-A', title: null, assignee: null, date: null, url: 'https://pubchem.ncbi.nlm.nih.gov/patent/CN-101234567-A', source: 'pubchem' },
    ]);
    expect((await pubchem().byStructure({ smiles: 'CC(=O)Oc1ccccc1C(=O)O' }, 10, signal())).length).toBe(3);
    expect((await pubchem().byText('aspirin', 10, signal())).length).toBe(3);
  });

  it('a 404 (PUGREST.NotFound) is no hits, not an error', async () => {
    expect(await pubchem().byText('no such compound', 10, signal())).toEqual([]);
  });

  it.each([
    ['429', 'PubChem 请求过于频繁或额度已用完（429），请稍后再试'],
    ['503', 'PubChem 暂时不可用（503），请稍后再试'],
    ['malformed', 'PubChem 返回的数据格式无法识别'],
  ] as const)('answers %s with a clear Chinese message', async (m, message) => {
    mode = m;
    await expect(pubchem().byText('aspirin', 5, signal())).rejects.toThrow(message);
  });
});

describe('patent_search', () => {
  const services = (env: Record<string, string> = {}) => ({ config: loadConfig({ CSAI_DATA_DIR: '/tmp/csai-unused', ...env }) });

  it('is listed disabled with the variables to set when no service is configured', () => {
    expect(toolDefinitions).toContain(patentSearchTool);
    const tool = patentSearchDefinition({ chem }, onlineServices(services().config).patents);
    expect(tool.availability()).toEqual({ enabled: false, reason: expect.stringContaining('请设置 SURECHEMBL_URL') });
    expect(onlineServices(services().config).patents).toBeUndefined();
  });

  it('PATENT_ORDER picks and orders the configured sources; a bad entry is refused at start-up', () => {
    const both = { SURECHEMBL_URL: `${base}/api`, CSAI_PUBCHEM_URL: `${base}/rest/pug` };
    expect(patentAdapters(services(both).config).map((a) => a.source)).toEqual(['surechembl', 'pubchem']);
    expect(patentAdapters(services({ ...both, PATENT_ORDER: 'pubchem' }).config).map((a) => a.source)).toEqual(['pubchem']);
    expect(() => loadConfig({ PATENT_ORDER: 'google' })).toThrow(/PATENT_ORDER/);
    expect(() => loadConfig({ SURECHEMBL_URL: 'ftp://x' })).toThrow(/SURECHEMBL_URL/);
  });

  const registry = () => {
    const def = patentSearchDefinition({ chem }, createPatentSearch([surechembl(), pubchem()]));
    return createToolRegistry([{ ...toolCatalogEntry('patent_search'), ...def }], { restricted: false, log });
  };

  it('by structure: RDKit canonicalises the SMILES, both sources are asked and a patent found twice is listed once', async () => {
    const result = await registry().run('patent_search', { structure: 'OC(=O)c1ccccc1OC(C)=O' }, ctx());
    expect(result.ok).toBe(true);
    const data = result.data as { query: unknown; hits: Array<{ number: string; title: string | null; source: string }>; sources: unknown[] };
    expect(data.query).toEqual({ kind: 'structure', value: 'OC(=O)c1ccccc1OC(C)=O', canonical_smiles: 'CC(=O)Oc1ccccc1C(=O)O', inchi_key: ASPIRIN_KEY });
    expect(data.hits.map((h) => h.number)).toEqual(['US-10000000-B2', 'WO-2016144528-A1', 'CN-101234567-A', 'JP-2001123456-A']);
    expect(data.hits[0]).toMatchObject({ title: 'Acetylsalicylic acid formulation', source: 'surechembl' });
    expect(data.sources).toEqual([{ source: 'surechembl', ok: true, hits: 2 }, { source: 'pubchem', ok: true, hits: 3 }]);
    expect(result.content).toContain('1. US-10000000-B2 Acetylsalicylic acid formulation；申请人：BAYER AG；公开日：2018-06-19');
    // PubChem was asked by the InChIKey RDKit computed.
    expect(seen.some((s) => s.url.includes(`/inchikey/${ASPIRIN_KEY}/`))).toBe(true);
  });

  it('by InChIKey: PubChem answers, SureChEMBL says why it cannot', async () => {
    const result = await registry().run('patent_search', { structure: ASPIRIN_KEY, limit: 2 }, ctx());
    const data = result.data as { hits: unknown[]; sources: Array<{ ok: boolean; message?: string }> };
    expect(data.hits).toHaveLength(2);
    expect(data.sources[0]).toMatchObject({ ok: false, message: expect.stringContaining('不支持仅凭 InChIKey') });
    expect(result.content).toContain('部分来源失败');
  });

  it('by text', async () => {
    const result = await registry().run('patent_search', { text: 'aspirin' }, ctx());
    expect((result.data as { hits: Array<{ number: string }> }).hits.map((h) => h.number)).toEqual(['EP-3268771-B1', 'US-10000000-B2', 'CN-101234567-A', 'JP-2001123456-A']);
  });

  it('refuses bad input in Chinese before asking any service', async () => {
    const r = registry();
    expect(await r.run('patent_search', { structure: 'C1CC(' }, ctx())).toEqual({ ok: false, content: '无法识别的结构：“C1CC(”不是有效的 SMILES 或 InChIKey' });
    expect((await r.run('patent_search', {}, ctx())).content).toBe('请提供结构（SMILES 或 InChIKey）或检索词其中之一');
    expect((await r.run('patent_search', { structure: 'CCO', text: 'x' }, ctx())).content).toBe('请提供结构（SMILES 或 InChIKey）或检索词其中之一');
    expect((await r.run('patent_search', { text: 'x', limit: 500 }, ctx())).content).toContain('数量不能超过50');
    expect((await r.run('patent_search', { structure: 'InChI=1S/CH4/h1H4' }, ctx())).content).toContain('不接受完整 InChI');
    expect(seen).toEqual([]);
  });

  it('when every source fails the card and the model are told why', async () => {
    mode = '503';
    const result = await registry().run('patent_search', { text: 'aspirin' }, ctx());
    expect(result.ok).toBe(true);
    expect(result.content).toBe('专利检索未能完成：SureChEMBL 暂时不可用（503），请稍后再试；PubChem 暂时不可用（503），请稍后再试');
  });

  it('patentsOnline gives the 专利 search type patent citations', async () => {
    const search = patentsOnline(createPatentSearch(patentAdapters(services({ SURECHEMBL_URL: `${base}/api`, CSAI_PUBCHEM_URL: `${base}/rest/pug`, PATENT_ORDER: 'surechembl' }).config)));
    expect(await search({ query: 'kinase', limit: 5, signal: signal() })).toEqual([
      { url: 'https://www.surechembl.org/patent/EP-3268771-B1', title: 'EP-3268771-B1 Kinase inhibitors', site: 'SureChEMBL', snippet: '申请人：NOVARTIS AG；公开日：2020-01-01', kind: 'patent' },
    ]);
    mode = '429';
    await expect(search({ query: 'kinase', limit: 5, signal: signal() })).rejects.toThrow('专利检索失败：SureChEMBL 请求过于频繁或额度已用完（429）');
  });
});
