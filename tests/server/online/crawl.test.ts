import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlError, createPageReader, type PageReader } from '../../../src/server/online/crawl/read-page';
import { parseRobots, robotsCache } from '../../../src/server/online/crawl/robots';
import { createPageCrawlTool } from '../../../src/server/tools/page-crawl';
import { buildTools, createToolRegistry } from '../../../src/server/tools/registry';
import type { ToolServices } from '../../../src/server/tools/types';
import { loopbackAllowed, startSite, testResolver } from './crawl-server';

let site: Awaited<ReturnType<typeof startSite>>;
let read: PageReader;
const signal = () => AbortSignal.timeout(30_000);
const fetch = { isAllowedAddress: loopbackAllowed, resolve: testResolver };

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(() => undefined, (e: unknown) => e);
  if (!(err instanceof CrawlError)) throw new Error(`expected a CrawlError, got ${String(err)}`);
  return err;
};

beforeAll(async () => {
  site = await startSite();
  read = createPageReader({ fetch, timeoutMs: 3000 });
});
afterAll(() => site.close());

describe('reading a page', () => {
  it('extracts the article as markdown with its table, title, site and absolute links', async () => {
    const page = await read(`${site.base}/article`, signal());
    expect(page).toMatchObject({ url: `${site.base}/article`, title: 'Aspirin', site: 'Pharma Wiki', format: 'html', pageCount: null });
    expect(page.markdown).toMatch(/^\| Property +\| Value +\|$/m);
    expect(page.markdown).toMatch(/^\| Molar mass +\| 180\.16 g\/mol \|$/m);
    expect(page.markdown).toContain(`See [salicylic acid](${site.base}/wiki/Salicylic_acid).`);
    // The navigation and footer are not the article.
    expect(page.markdown).not.toContain('Contact');
    expect(page.markdown).not.toContain('Privacy');
    expect(page.excerpt).toMatch(/^Paragraph 1: acetylsalicylic acid/);
    expect(Date.parse(page.fetchedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('follows a redirect and reports the final URL', async () => {
    const page = await read(`${site.base}/to-article#section`, signal());
    expect(page.url).toBe(`${site.base}/article`);
    expect(page.requestedUrl).toBe(`${site.base}/to-article`);
  });

  it('decodes a GBK page by its meta charset', async () => {
    const page = await read(`${site.base}/gbk`, signal());
    expect(page.title).toBe('阿司匹林');
    expect(page.markdown).toContain('阿司匹林是一种解热镇痛药');
  });

  it('parses a PDF link with the project PDF parser, by content type and by magic bytes', async () => {
    for (const path of ['/paper.pdf', '/download']) {
      const page = await read(`${site.base}${path}`, signal());
      expect(page.format).toBe('pdf');
      expect(page.pageCount).toBe(2);
      expect(page.markdown).toContain('Ibuprofen is absorbed rapidly');
      expect(page.markdown).toContain('cleared by hepatic metabolism');
      expect(page.pdf?.subarray(0, 5).toString()).toBe('%PDF-');
    }
  });

  it("parses PDFs outside the server's thread, which keeps its native JSON and Array.push", async () => {
    // pdf.js's legacy build replaces these with core-js versions in the thread that loads it,
    // which made every answer event cost more (the streams benchmark found it). The whole app is
    // loaded here too, so no other module may bring pdf.js into the server's thread either.
    await import('../../../src/server/app');
    await read(`${site.base}/paper.pdf`, signal());
    // core-js marks the thread it patched (its patched functions print as native code).
    expect(Object.getOwnPropertyNames(globalThis)).not.toContain('__core-js_shared__');
  });
});

describe('bad input is refused with a clear message', () => {
  it.each([
    ['file:///etc/passwd', 'file'],
    ['ftp://example.com/x', 'ftp'],
    ['javascript:alert(1)', 'javascript'],
    ['data:text/html,<h1>x</h1>', 'data'],
  ])('refuses %s', async (url, scheme) => {
    const err = await refusal(read(url, signal()));
    expect(err.code).toBe('blocked_scheme');
    expect(err.status).toBe(400);
    expect(err.message).toBe(`只能抓取 http 或 https 网址，不支持 ${scheme} 协议`);
  });

  it('refuses text that is no URL, and an overlong URL', async () => {
    expect((await refusal(read('not a url', signal()))).message).toBe('无效的网址：not a url');
    expect((await refusal(read(`https://example.com/${'a'.repeat(3000)}`, signal()))).message).toMatch(/^网址过长/);
  });

  it('refuses a host name that resolves to 127.0.0.1 (production address policy, test resolver)', async () => {
    const production = createPageReader({ fetch: { resolve: testResolver } });
    const err = await refusal(production(`${site.base}/article`, signal()));
    expect(err.code).toBe('blocked_address');
    expect(err.status).toBe(400);
    expect(err.message).toContain('127.0.0.1');
    expect(err.message).toContain('不能抓取内网、本机或保留地址的网页');
  });

  it('refuses loopback, private and metadata addresses written as IPs', async () => {
    const production = createPageReader();
    for (const url of [`http://127.0.0.1:${site.port}/article`, 'http://10.0.0.5/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/']) {
      expect((await refusal(production(url, signal()))).code).toBe('blocked_address');
    }
  });

  it('refuses a redirect to the metadata address', async () => {
    const err = await refusal(read(`${site.base}/to-metadata`, signal()));
    expect(err.code).toBe('blocked_address');
    expect(err.message).toContain('169.254.169.254');
  });

  it('refuses a 50 MB page, announced or streamed', async () => {
    for (const path of ['/huge', '/huge-chunked']) {
      const err = await refusal(read(`${site.base}${path}`, signal()));
      expect(err.code).toBe('too_large');
      expect(err.status).toBe(413);
      expect(err.message).toBe('网页过大（超过 10 MB），已停止读取');
    }
  });

  it('stops a page that never ends at the time cap', async () => {
    const started = Date.now();
    const err = await refusal(read(`${site.base}/drip`, signal()));
    expect(err.code).toBe('timeout');
    expect(err.message).toBe('网页读取超时（超过 3 秒），已停止');
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('stops a redirect loop', async () => {
    const err = await refusal(read(`${site.base}/loop`, signal()));
    expect(err.code).toBe('too_many_redirects');
    expect(err.message).toBe('网页重定向次数过多（可能是重定向循环），已停止');
  });

  it('honours robots.txt: a disallowed path is refused, an allowed one under it is read', async () => {
    const err = await refusal(read(`${site.base}/private/page`, signal()));
    expect(err.code).toBe('robots_disallowed');
    expect(err.status).toBe(403);
    expect(err.message).toBe(`该网站的 robots.txt 不允许抓取此网页：${site.base}/private/page`);
    await expect(read(`${site.base}/private/open`, signal())).resolves.toMatchObject({ title: 'Private page' });
  });

  it('says a site that does not answer cannot be reached, not that its robots.txt refuses', async () => {
    // A port nothing listens on: robots.txt cannot be read, so nothing is fetched (RFC 9309), and the reason is the site.
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const err = await refusal(read(`http://127.0.0.1:${closed}/page`, signal()));
    expect(err.code).toBe('network');
    expect(err.message).toBe(`无法访问该网站（127.0.0.1:${closed}）：网站没有响应、域名无法解析或返回服务器错误，请检查网址或稍后重试`);
    expect(err.status).toBe(422);
  });

  it('refuses an error status, an image and a page without text', async () => {
    expect((await refusal(read(`${site.base}/missing`, signal()))).message).toBe('网页返回错误状态 404，无法读取');
    expect((await refusal(read(`${site.base}/image.png`, signal()))).message).toBe('不支持的网页内容类型：image/png（只能读取 HTML 网页、纯文本和 PDF）');
    expect((await refusal(read(`${site.base}/empty`, signal()))).message).toBe('网页中没有可读取的正文');
  });
});

describe('robots.txt', () => {
  it('uses the group naming our token, else *, longest match, Allow winning a tie, * and $', () => {
    const rules = parseRobots('User-agent: *\nDisallow: /\n\nUser-agent: csai\nUser-agent: other\nDisallow: /a\nAllow: /a/b\nDisallow: /*.pdf$\nAllow: /c\nDisallow: /c\n');
    expect(rules.allows('/')).toBe(true);
    expect(rules.allows('/a/x')).toBe(false);
    expect(rules.allows('/a/b/c')).toBe(true);
    expect(rules.allows('/x/doc.pdf')).toBe(false);
    expect(rules.allows('/x/doc.pdf?x=1')).toBe(true);
    expect(rules.allows('/c')).toBe(true);
    expect(parseRobots('User-agent: *\nDisallow: /\n').allows('/anything')).toBe(false);
    expect(parseRobots('User-agent: *\nDisallow:\n').allows('/anything')).toBe(true);
    expect(parseRobots('# nothing').allows('/')).toBe(true);
  });

  it('is fetched once per origin and cached', async () => {
    const cache = robotsCache(fetch);
    const before = site.robotsHits();
    const url = new URL(`${site.base}/article`);
    await cache.rulesFor(url);
    await cache.rulesFor(new URL(`${site.base}/other`));
    expect(site.robotsHits() - before).toBe(1);
  });
});

describe('the page_crawl tool', () => {
  const services = {} as ToolServices; // the tool uses none of the start-up services
  const registry = createToolRegistry(buildTools([createPageCrawlTool({ fetch, timeoutMs: 3000 })], services), { restricted: false, log: { error: () => undefined } });
  const ctx = { viewer: { userId: 'u' }, docIds: [], signal: AbortSignal.timeout(30_000) };

  it('is listed as enabled', () => {
    const entry = registry.groups().flatMap((g) => g.tools).find((t) => t.value === 'page_crawl');
    expect(entry).toMatchObject({ enabled: true, label: '网页抓取' });
  });

  it('gives a citable result: url, title, site, snippet, fetchedAt and the markdown', async () => {
    const result = await registry.run('page_crawl', { url: `${site.base}/article` }, ctx);
    expect(result.ok).toBe(true);
    expect(result.data).toMatchObject({ url: `${site.base}/article`, title: 'Aspirin', site: 'Pharma Wiki', format: 'html', truncated: false });
    expect(result.content).toContain('《Aspirin》（Pharma Wiki');
    expect(result.content).toMatch(/^\| Molar mass +\| 180\.16 g\/mol \|$/m);
  });

  it('reports a refusal as a failed call with the Chinese message', async () => {
    expect(await registry.run('page_crawl', { url: 'file:///etc/passwd' }, ctx)).toEqual({ ok: false, content: '只能抓取 http 或 https 网址，不支持 file 协议' });
    expect(await registry.run('page_crawl', { url: '' }, ctx)).toEqual({ ok: false, content: '参数 url：请提供要抓取的网址' });
    expect(await registry.run('page_crawl', {}, ctx)).toMatchObject({ ok: false, content: expect.stringContaining('url') });
  });
});
