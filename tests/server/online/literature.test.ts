import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config';
import { ServiceError } from '../../../src/server/net/service';
import { createLiteratureSearch, literatureOnline } from '../../../src/server/online/literature';
import { startLiteratureServer } from './literature-server';

let services: Awaited<ReturnType<typeof startLiteratureServer>>;
const q = (query = 'aspirin cyclooxygenase', limit = 10) => ({ query, limit, signal: AbortSignal.timeout(20_000) });
const config = (env: Record<string, string>) => loadConfig({ CSAI_DATA_DIR: '/tmp/csai-literature-test', ...env });

beforeAll(async () => {
  services = await startLiteratureServer();
});
afterEach(() => services.reset());
afterAll(() => services.close());

describe('PubMed E-utilities', () => {
  const pubmed = () => createLiteratureSearch(config({ PUBMED_URL: services.env.PUBMED_URL, PUBMED_API_KEY: 'k123' }))!;

  it('asks esearch (JSON) then efetch (XML) and keeps esearch order', async () => {
    const { source, items } = await pubmed().search(q());
    expect(source).toBe('pubmed');
    expect(items.map((h) => h.pmid)).toEqual(['31000001', '31000002']);
    expect(items[0]).toEqual({
      url: 'https://pubmed.ncbi.nlm.nih.gov/31000001/',
      title: 'Aspirin and cyclooxygenase acetylation',
      site: 'PubMed',
      snippet: 'BACKGROUND: Aspirin acetylates COX-1. RESULTS: Serine 530 is modified.',
      kind: 'literature',
      source: 'pubmed',
      authors: ['Jane Smith', 'Li Wang'],
      journal: 'Journal of medicinal chemistry',
      year: 2020,
      doi: '10.1021/acs.jmedchem.0c00001',
      pmid: '31000001',
      pmcid: 'PMC7000001',
      abstract: 'BACKGROUND: Aspirin acetylates COX-1.\nRESULTS: Serine 530 is modified.',
      pdfUrl: 'https://europepmc.org/articles/PMC7000001?pdf=render',
    });
    expect(items[1]).toMatchObject({ authors: ['Aspirin Trial Group'], year: 2019, doi: null, pmcid: null, pdfUrl: null });
    const [search, fetch] = services.requests;
    expect(search!.path).toBe('/eutils/esearch.fcgi');
    expect(Object.fromEntries(search!.params)).toMatchObject({ db: 'pubmed', term: 'aspirin cyclooxygenase', retmode: 'json', retmax: '10', api_key: 'k123' });
    expect(fetch!.path).toBe('/eutils/efetch.fcgi');
    expect(Object.fromEntries(fetch!.params)).toMatchObject({ db: 'pubmed', id: '31000001,31000002', retmode: 'xml' });
  });

  it('gives no hits for no PMIDs, without asking efetch', async () => {
    services.setMode('pubmed', 'empty');
    expect((await pubmed().search(q())).items).toEqual([]);
    expect(services.requests.map((r) => r.path)).toEqual(['/eutils/esearch.fcgi']);
  });

  it('reports its errors in Chinese: a bad term, 429, 500, a broken body, a timeout', async () => {
    const failure = async () => {
      const err = await pubmed().search(q()).then(() => undefined, (e: unknown) => e);
      if (!(err instanceof ServiceError)) throw new Error(`expected ServiceError, got ${String(err)}`);
      return err.message;
    };
    services.setMode('pubmed', 'bad_term');
    expect(await failure()).toBe('文献检索失败：PubMed 报告错误：Invalid query: unbalanced parentheses');
    services.setMode('pubmed', 'rate_limited');
    expect(await failure()).toBe('文献检索失败：PubMed 请求过于频繁或额度已用完（429），请稍后再试');
    services.setMode('pubmed', 'server_error');
    expect(await failure()).toBe('文献检索失败：PubMed 返回错误（500）');
    services.setMode('pubmed', 'bad_json');
    expect(await failure()).toBe('文献检索失败：PubMed 返回的数据不是有效的 JSON');
    services.setMode('pubmed', 'slow');
    const slow = createLiteratureSearch(config({ PUBMED_URL: services.env.PUBMED_URL }), { timeoutMs: 300 })!;
    await expect(slow.search(q())).rejects.toThrow('文献检索失败：PubMed 请求超时');
  });
});

describe('Europe PMC', () => {
  const epmc = () => createLiteratureSearch(config({ EUROPEPMC_URL: services.env.EUROPEPMC_URL }))!;

  it('asks /search with resultType=core and reads authors, journal, year, DOI, abstract and the OA PDF', async () => {
    const { items } = await epmc().search(q('aspirin', 5));
    expect(Object.fromEntries(services.requests[0]!.params)).toMatchObject({ query: 'aspirin', resultType: 'core', format: 'json', pageSize: '5' });
    expect(items).toHaveLength(2); // the result without a title is left out
    expect(items[0]).toMatchObject({
      url: 'https://europepmc.org/article/MED/31000001',
      title: 'Aspirin and cyclooxygenase acetylation',
      site: 'Europe PMC',
      authors: ['Smith J', 'Wang L'],
      journal: 'Journal of medicinal chemistry',
      year: 2020,
      doi: '10.1021/acs.jmedchem.0c00001',
      pmid: '31000001',
      pmcid: 'PMC7000001',
      abstract: 'Background Aspirin acetylates COX-1 at Ser530.',
      pdfUrl: 'https://europepmc.org/articles/PMC7000001?pdf=render',
    });
    expect(items[1]).toMatchObject({ url: 'https://europepmc.org/article/PPR/PPR1', authors: ['Li X'], journal: null, year: 2024, pdfUrl: null, abstract: null, snippet: 'A preprint without a journal' });
  });

  it('reports 429 and a broken answer', async () => {
    services.setMode('europepmc', 'rate_limited');
    await expect(epmc().search(q())).rejects.toThrow('Europe PMC 请求过于频繁或额度已用完（429）');
    services.setMode('europepmc', 'bad_json');
    await expect(epmc().search(q())).rejects.toThrow('Europe PMC 返回的数据不是有效的 JSON');
  });
});

describe('OpenAlex', () => {
  const openalex = () => createLiteratureSearch(config({ OPENALEX_URL: services.env.OPENALEX_URL, OPENALEX_MAILTO: 'lab@example.com' }))!;

  it('asks /works?search= with mailto, rebuilds the abstract and refuses non-http links', async () => {
    const { items } = await openalex().search(q('aspirin', 3));
    expect(Object.fromEntries(services.requests[0]!.params)).toEqual({ search: 'aspirin', 'per-page': '3', mailto: 'lab@example.com' });
    expect(items[0]).toMatchObject({
      url: 'https://doi.org/10.1021/acs.jmedchem.0c00001',
      site: 'OpenAlex',
      authors: ['Jane Smith', 'Li Wang'],
      journal: 'Journal of Medicinal Chemistry',
      year: 2020,
      doi: '10.1021/acs.jmedchem.0c00001',
      pmid: '31000001',
      abstract: 'Aspirin acetylates COX-1 at Ser530.',
      pdfUrl: 'https://europepmc.org/articles/PMC7000001?pdf=render',
    });
    expect(items[1]).toMatchObject({ title: 'Untitled dataset', url: 'https://openalex.org/W3000000002', pdfUrl: null, doi: null });
  });

  it('reports its 429 with the service message', async () => {
    services.setMode('openalex', 'rate_limited');
    await expect(openalex().search(q())).rejects.toThrow('OpenAlex 请求过于频繁或额度已用完（429）');
    services.setMode('openalex', 'server_error');
    await expect(openalex().search(q())).rejects.toThrow('OpenAlex 返回错误（500）');
  });
});

describe('order and failover', () => {
  const all = (order?: string) => config({ ...services.env, ...(order ? { LITERATURE_ORDER: order } : {}) });

  it('asks the services in LITERATURE_ORDER, the next when one fails, and names every failure when all do', async () => {
    expect(createLiteratureSearch(all())!.sources).toEqual(['pubmed', 'europepmc', 'openalex']);
    expect(createLiteratureSearch(all('openalex,pubmed'))!.sources).toEqual(['openalex', 'pubmed']);
    services.setMode('pubmed', 'rate_limited');
    expect((await createLiteratureSearch(all())!.search(q())).source).toBe('europepmc');
    services.setMode('europepmc', 'server_error');
    expect((await createLiteratureSearch(all())!.search(q())).source).toBe('openalex');
    services.setMode('openalex', 'bad_json');
    await expect(createLiteratureSearch(all())!.search(q())).rejects.toThrow(
      '文献检索失败：PubMed 请求过于频繁或额度已用完（429），请稍后再试；Europe PMC 返回错误（500）；OpenAlex 返回的数据不是有效的 JSON',
    );
  });

  it('is an OnlineSearch of kind literature, and null when nothing is configured', async () => {
    const search = literatureOnline(createLiteratureSearch(all())!);
    const hits = await search(q('aspirin', 1));
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ kind: 'literature', site: 'PubMed' });
    expect(createLiteratureSearch(config({}))).toBeNull();
  });

  it('refuses a bad LITERATURE_ORDER or service URL at start-up', () => {
    expect(() => config({ LITERATURE_ORDER: 'pubmed,scholar' })).toThrow(/LITERATURE_ORDER/);
    expect(() => config({ OPENALEX_URL: 'ftp://x' })).toThrow(/OPENALEX_URL/);
  });
});
