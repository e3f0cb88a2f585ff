import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';

// A stand-in for dist/web with home's first paint in its four variants (the real one is built
// from the page's components: tests/host/first-paint.test.ts renders it).
const web = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-web-'));
const INDEX = '<!doctype html><title>CSAI</title><div id="root"></div><script type="module" src="/assets/index.js"></script>';
fs.writeFileSync(path.join(web, 'index.html'), INDEX);
const variant = (key: string) => ({
  html: `<div id="first-paint" data-variant="${key}"><csai-ask><template shadowrootmode="open"><style data-csai-prerendered="">.x{color:red}/*${key}*/</style><form><textarea name="q"><!--csai-q--></textarea></form></template></csai-ask></div>`,
  style: `.x{color:red}/*${key}*/`,
});
const writePaints = (content: string) => fs.writeFileSync(path.join(web, 'first-paint.json'), content);
writePaints(JSON.stringify(Object.fromEntries(['zh-open', 'zh-closed', 'en-open', 'en-closed'].map((k) => [k, variant(k)]))));

let server: TestServer;
let user: Client;
beforeAll(async () => {
  server = await startServer({ CSAI_WEB_DIR: web });
  user = (await signedInUser(server)).client;
});
afterAll(async () => {
  await server.close();
});

/** GET a page as a browser: `cookies` beside the client's own (its session), none for a visitor. */
async function page(url: string, client?: Client, cookies: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const jar = { ...Object.fromEntries(client?.cookies ?? []), ...cookies };
  const cookie = Object.entries(jar).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
  const res = await fetch(server.url + url, { headers: { accept: 'text/html', ...(cookie ? { cookie } : {}), ...headers } });
  return { res, text: await res.text() };
}
const styleSrc = (res: Response) => /style-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1]?.split(/\s+/) ?? [];
const sha = (style: string) => `'sha256-${createHash('sha256').update(style).digest('base64')}'`;

describe("home's server-rendered first paint", () => {
  it('a signed-in home gets the copy beside the empty #root, its style allowed by hash and no other inline style', async () => {
    const { res, text } = await page('/', user);
    expect(res.status).toBe(200);
    expect(text).toContain('<div id="root"></div><div id="first-paint" data-variant="zh-open">');
    expect(text).toContain('<script type="module" src="/assets/index.js"></script>');
    expect(styleSrc(res)).toEqual(["'self'", sha(variant('zh-open').style)]);
    expect(res.headers.get('vary')).toMatch(/cookie/i);
    // The question slot is always filled (a textarea shows a left-over comment as text).
    expect(text).not.toContain('<!--csai-q-->');
    expect(text).toContain('<textarea name="q"></textarea>');
  });

  it('a visitor, a bad session and every other page get the page as built, under the strict policy', async () => {
    for (const [url, client, cookies] of [
      ['/', undefined, {}],
      ['/', undefined, { csai_session: 'not-a-session' }],
      ['/channels', user, {}],
      ['/knowledges?q=x', user, {}],
    ] as const) {
      const { res, text } = await page(url, client, cookies);
      expect(text, url).toBe(INDEX);
      expect(styleSrc(res), url).toEqual(["'self'"]);
    }
  });

  it("speaks the language and shows the sidebar state the browser's cookies name", async () => {
    expect((await page('/', user, { csai_lang: 'en' })).text).toContain('data-variant="en-open"');
    expect((await page('/', user, { csai_lang: 'en', 'sidebar:state': 'false' })).text).toContain('data-variant="en-closed"');
    expect((await page('/', user, { 'sidebar:state': 'false' })).text).toContain('data-variant="zh-closed"');
    // Unknown values fall back to the defaults.
    expect((await page('/', user, { csai_lang: 'fr', 'sidebar:state': 'maybe' })).text).toContain('data-variant="zh-open"');
  });

  it("puts the form's question back into the box as text, whatever it holds", async () => {
    const q = '</textarea><script>alert(1)</script> & $& $1 "引号"';
    const { res, text } = await page(`/?q=${encodeURIComponent(q)}&docIds=a`, user);
    expect(res.status).toBe(200);
    expect(text).toContain('<textarea name="q">&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; $&amp; $1 "引号"</textarea>');
    expect(text).not.toContain('<script>alert');
    // A huge q is cut, not refused.
    const long = await page(`/?q=${'x'.repeat(6000)}`, user);
    expect(long.res.status).toBe(200);
    expect(/<textarea name="q">(x*)<\/textarea>/.exec(long.text)?.[1]?.length).toBe(4000);
  });

  it('answers a repeated request with 304 by its own ETag, which differs from the plain page', async () => {
    const first = await page('/', user);
    const etag = first.res.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect(etag).not.toBe((await page('/', undefined)).res.headers.get('etag'));
    const again = await page('/', user, {}, { 'if-none-match': etag });
    expect(again.res.status).toBe(304);
    // Another variant is another page.
    expect((await page('/', user, { csai_lang: 'en' }, { 'if-none-match': etag })).res.status).toBe(200);
  });

  it('a first-paint file that is not what the build writes leaves the page as built, not an error', async () => {
    const good = fs.readFileSync(path.join(web, 'first-paint.json'), 'utf8');
    try {
      for (const bad of ['{not json', JSON.stringify({ 'zh-open': { html: '<div>no template</div>', style: '' } }), '[]']) {
        writePaints(bad);
        // A new mtime for each write (the file is read again when it changes).
        fs.utimesSync(path.join(web, 'first-paint.json'), new Date(), new Date(Date.now() + Math.random() * 1e6));
        const { res, text } = await page('/', user);
        expect(res.status, bad).toBe(200);
        expect(text, bad).toBe(INDEX);
      }
    } finally {
      writePaints(good);
      fs.utimesSync(path.join(web, 'first-paint.json'), new Date(), new Date());
    }
    expect((await page('/', user)).text).toContain('id="first-paint"');
  });
});
