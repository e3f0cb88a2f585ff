import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config';
import { ServiceError } from '../../../src/server/net/service';
import { webAdapters, webSearchFromConfig } from '../../../src/server/online/web';
import { mergeHits, normalizeUrl, notConfiguredNotice, searchOnline } from '../../../src/server/online/sources';
import { startFakeService, type FakeService, type Protocol } from './web-services';

const PROTOCOLS: Protocol[] = ['searxng', 'tavily', 'bocha', 'custom'];
const services = {} as Record<Protocol, FakeService>;

beforeAll(async () => {
  for (const p of PROTOCOLS) services[p] = await startFakeService(p);
});
afterAll(async () => {
  await Promise.all(PROTOCOLS.map((p) => services[p].close()));
});

/** The configuration of one service alone (timeout short, so a hang is quick to give up). */
function only(p: Protocol, extra: Record<string, string> = {}) {
  const env: Record<string, string> = { WEB_SEARCH_TIMEOUT_MS: '400', ...extra };
  if (p === 'searxng') env.SEARXNG_URL = services.searxng.url;
  if (p === 'tavily') Object.assign(env, { TAVILY_API_KEY: 'tvly-test', TAVILY_BASE_URL: services.tavily.url });
  if (p === 'bocha') Object.assign(env, { BOCHA_API_KEY: 'sk-bocha', BOCHA_BASE_URL: services.bocha.url });
  if (p === 'custom') Object.assign(env, { WEB_SEARCH_CUSTOM_URL: services.custom.url, WEB_SEARCH_CUSTOM_KEY: 'custom-key' });
  return loadConfig(env);
}
const query = (limit = 8) => ({ query: '阿司匹林 机制', limit, signal: new AbortController().signal });

describe.each(PROTOCOLS)('the %s adapter against a local server speaking its protocol', (p) => {
  it('sends the documented request and returns plain-text hits with their site, http(s) links only', async () => {
    services[p].set('ok');
    services[p].requests.length = 0;
    const [adapter] = webAdapters(only(p));
    const hits = await adapter!.search(query());
    expect(hits).toEqual([
      { url: `https://www.example.org/${p}/aspirin`, title: `Aspirin ${p}`, site: p === 'bocha' || p === 'custom' ? `Example ${p}` : 'example.org', snippet: `Aspirin (${p}) inhibits COX-1 & COX-2 irreversibly.`, kind: 'web' },
      { url: `https://pubs.example.com/${p}/ibuprofen?utm_source=x`, title: `Ibuprofen ${p}`, site: 'pubs.example.com', snippet: `Ibuprofen is a reversible COX inhibitor (${p}).`, kind: 'web' },
    ]);
    const req = services[p].requests[0]!;
    if (p === 'searxng') {
      expect(req.method).toBe('GET');
      const u = new URL(req.path, 'http://x');
      expect([u.pathname, u.searchParams.get('q'), u.searchParams.get('format')]).toEqual(['/search', '阿司匹林 机制', 'json']);
    } else {
      expect(req.method).toBe('POST');
      expect(req.headers['content-type']).toBe('application/json');
      const body = JSON.parse(req.body) as Record<string, unknown>;
      expect(body.query).toBe('阿司匹林 机制');
      if (p === 'tavily') expect([req.headers.authorization, body.max_results]).toEqual(['Bearer tvly-test', 8]);
      if (p === 'bocha') expect([req.headers.authorization, body.count, body.summary]).toEqual(['Bearer sk-bocha', 8, true]);
      if (p === 'custom') expect([req.headers.authorization, body.limit]).toEqual(['Bearer custom-key', 8]);
    }
  });

  it('keeps at most the asked number of hits, and an empty result is an answer', async () => {
    services[p].set('ok');
    const [adapter] = webAdapters(only(p));
    expect(await adapter!.search(query(1))).toHaveLength(1);
    services[p].set('empty');
    expect(await adapter!.search(query())).toEqual([]);
  });

  it.each([
    [401, 'unauthorized', /拒绝了请求（401）/],
    [403, 'unauthorized', /拒绝了请求（403）/],
    [429, 'rate_limited', /429/],
    [500, 'http', /返回错误（500）/],
    ['malformed', 'malformed', /不是有效的 JSON/],
    ['bad-shape', 'malformed', /格式无法识别/],
    ['hang', 'timeout', /超时/],
  ] as const)('a %s answer is a clear failure of that service (%s)', async (behaviour, failure, message) => {
    services[p].set(behaviour);
    const [adapter] = webAdapters(only(p));
    const err = await adapter!.search(query()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ failure, message: expect.stringMatching(message) });
  });
});

describe('Bocha failures reported in the body', () => {
  it('a code other than 200 in a 200 answer is that failure', async () => {
    services.bocha.set('body-error');
    const [adapter] = webAdapters(only('bocha'));
    await expect(adapter!.search(query())).rejects.toMatchObject({ failure: 'rate_limited', message: expect.stringContaining('rate limited') });
  });
});

describe('failover in WEB_SEARCH_ORDER', () => {
  const all = (order?: string) =>
    loadConfig({
      WEB_SEARCH_TIMEOUT_MS: '400',
      SEARXNG_URL: services.searxng.url,
      TAVILY_API_KEY: 'tvly-test',
      TAVILY_BASE_URL: services.tavily.url,
      BOCHA_API_KEY: 'sk-bocha',
      BOCHA_BASE_URL: services.bocha.url,
      WEB_SEARCH_CUSTOM_URL: services.custom.url,
      ...(order ? { WEB_SEARCH_ORDER: order } : {}),
    });

  it('uses only configured services, in the configured order', () => {
    expect(webAdapters(all()).map((a) => a.id)).toEqual(['searxng', 'tavily', 'bocha', 'custom']);
    expect(webAdapters(all('bocha, custom')).map((a) => a.id)).toEqual(['bocha', 'custom']);
    expect(webAdapters(loadConfig({ BOCHA_API_KEY: 'k' })).map((a) => a.id)).toEqual(['bocha']);
    expect(webSearchFromConfig(loadConfig({}))).toBeUndefined();
    expect(() => loadConfig({ WEB_SEARCH_ORDER: 'google' })).toThrow(/WEB_SEARCH_ORDER/);
  });

  it('moves on after a 429, a timeout and a 500, and answers from the first service that works', async () => {
    services.searxng.set(429);
    services.tavily.set('hang');
    services.bocha.set(500);
    services.custom.set('ok');
    const search = webSearchFromConfig(all())!;
    const hits = await search(query());
    expect(hits[0]!.url).toBe('https://www.example.org/custom/aspirin');
  });

  it('stops at the first that answers (the later ones are not asked)', async () => {
    for (const p of PROTOCOLS) {
      services[p].set('ok');
      services[p].requests.length = 0;
    }
    const hits = await webSearchFromConfig(all('tavily,searxng'))!(query());
    expect(hits[0]!.url).toContain('/tavily/');
    expect(services.searxng.requests).toHaveLength(0);
  });

  it('when every service fails, says what each did', async () => {
    services.searxng.set(401);
    services.custom.set('malformed');
    const err = await webSearchFromConfig(all('searxng,custom'))!(query()).catch((e: unknown) => e);
    expect(err).toMatchObject({ failure: 'all_failed' });
    expect((err as Error).message).toMatch(/^联网搜索失败：SearXNG 拒绝了请求（401）.*；自定义搜索服务 返回的数据不是有效的 JSON$/);
  });

  it('a refused connection is a failure too', async () => {
    const search = webSearchFromConfig(loadConfig({ SEARXNG_URL: 'http://127.0.0.1:1', WEB_SEARCH_TIMEOUT_MS: '400' }))!;
    await expect(search(query())).rejects.toThrow(/无法连接 SearXNG/);
  });

  it('a stop ends the search at once, without trying the next service', async () => {
    services.searxng.set('hang');
    services.tavily.requests.length = 0;
    const stop = new AbortController();
    const running = webSearchFromConfig(all('searxng,tavily'))!({ query: 'x', limit: 3, signal: stop.signal });
    setTimeout(() => stop.abort(), 50);
    await expect(running).rejects.toThrow();
    expect(services.tavily.requests).toHaveLength(0);
  });
});

describe('search types and merging', () => {
  const hit = (url: string, kind: 'web' | 'literature' | 'patent' = 'web') => ({ url, title: url, site: 's', snippet: '', kind });

  it('normalises URLs for de-duplication', () => {
    expect(normalizeUrl('https://WWW.Example.org/a/?utm_source=x&b=2&a=1#top')).toBe(normalizeUrl('http://example.org/a?a=1&b=2'));
    expect(normalizeUrl('https://example.org/a')).not.toBe(normalizeUrl('https://example.org/b'));
  });

  it('merges sources best-first, each URL once', () => {
    const merged = mergeHits([[hit('https://a.org/1'), hit('https://a.org/2')], [hit('https://www.a.org/1/', 'literature'), hit('https://b.org/3', 'literature')]], 10);
    expect(merged.map((h) => h.url)).toEqual(['https://a.org/1', 'https://a.org/2', 'https://b.org/3']);
  });

  it('routes 网页/文献/专利/全部 to their sources and says what is not configured', async () => {
    const calls: string[] = [];
    const src = (name: string, kind: 'web' | 'literature' | 'patent') => async () => {
      calls.push(name);
      return [hit(`https://${name}.org/x`, kind)];
    };
    const sources = { web: src('web', 'web'), literature: src('lit', 'literature') };
    const q = query();
    expect((await searchOnline(sources, 'web', q)).hits.map((h) => h.kind)).toEqual(['web']);
    expect((await searchOnline(sources, 'paper', q)).hits.map((h) => h.kind)).toEqual(['literature']);
    expect((await searchOnline(sources, 'all', q)).hits.map((h) => h.kind)).toEqual(['web', 'literature']);
    expect(await searchOnline(sources, 'patent', q)).toEqual({ hits: [], failures: [], searched: [] });
    expect(notConfiguredNotice(sources, 'patent')).toBe('未配置专利检索服务，本次回答没有检索专利');
    expect(notConfiguredNotice(sources, 'all')).toBeUndefined();
    expect(notConfiguredNotice({}, 'all')).toBe('未配置联网搜索服务，本次回答没有进行联网搜索');
    expect(notConfiguredNotice({}, 'web')).toBe('未配置网页搜索服务，本次回答没有进行网页搜索');
  });

  it('one failing source does not hide the others', async () => {
    const sources = {
      web: async () => {
        throw new Error('联网搜索失败：SearXNG 超时未响应');
      },
      literature: async () => [hit('https://lit.org/x', 'literature')],
    };
    const found = await searchOnline(sources, 'all', query());
    expect(found.hits).toHaveLength(1);
    expect(found.failures).toEqual(['联网搜索失败：SearXNG 超时未响应']);
  });
});
