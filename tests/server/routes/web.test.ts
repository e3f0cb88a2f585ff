import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import zlib from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers';

// A small stand-in for dist/web, so these tests do not depend on a front-end build.
const web = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-web-'));
fs.mkdirSync(path.join(web, 'assets'));
fs.mkdirSync(path.join(web, 'widgets'));
fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>CSAI</title><div id="root"></div>');
fs.writeFileSync(path.join(web, 'assets', 'index-abc123.js'), 'console.log(1)');
fs.writeFileSync(path.join(web, 'widgets', 'csai.js'), 'export {}');
fs.mkdirSync(path.join(web, 'src', 'widgets', 'chem-editor'), { recursive: true });
fs.writeFileSync(path.join(web, 'src', 'widgets', 'chem-editor', 'ketcher.html'), '<!doctype html><title>Ketcher</title>');
// The build writes .br/.gz copies of its larger text files (scripts/vite-precompress.ts).
const vendor = `export const text = ${JSON.stringify('阿司匹林 '.repeat(400))};`;
fs.writeFileSync(path.join(web, 'assets', 'vendor-abc123.js'), vendor);
fs.writeFileSync(path.join(web, 'assets', 'vendor-abc123.js.br'), zlib.brotliCompressSync(vendor));
fs.writeFileSync(path.join(web, 'assets', 'vendor-abc123.js.gz'), zlib.gzipSync(vendor));

let server: TestServer;
beforeAll(async () => { server = await startServer({ CSAI_WEB_DIR: web, CSAI_CORS_ORIGINS: 'https://eln.example.com' }); });
afterAll(async () => { await server.close(); });

const get = (url: string, accept = 'text/html') => fetch(server.url + url, { headers: { accept } });

describe('the security headers of pages (issue 16 #7)', () => {
  const directives = (csp: string | null) => new Map((csp ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k!, v]));

  it('every page has a strict CSP that no other site may frame', async () => {
    for (const route of ['/', '/channels', '/auth/sign-in']) {
      const res = await get(route);
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp.get('script-src'), route).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('permissions-policy')).toMatch(/camera=\(\)/);
    }
  });

  it('the chemical editor frame may be framed by the embedding origins, and only by them', async () => {
    const res = await get('/src/widgets/chem-editor/ketcher.html');
    expect(res.status).toBe(200);
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp.get('frame-ancestors')).toEqual(["'self'", 'https://eln.example.com']);
    expect(csp.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'", "'unsafe-eval'"]);
    expect(res.headers.get('x-frame-options')).toBeNull();
  });

  it('scripts and API answers carry no page policy', async () => {
    expect((await get('/widgets/csai.js', '*/*')).headers.get('content-security-policy')).toBeNull();
  });
});

describe('the built site', () => {
  it('serves hashed assets as immutable for a year', async () => {
    const res = await get('/assets/index-abc123.js', '*/*');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the widget loader under its stable name, revalidated every time', async () => {
    const res = await get('/widgets/csai.js', '*/*');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers every page route with index.html, never cached', async () => {
    for (const route of ['/', '/channels?channel_id=1', '/knowledges', '/auth/sign-in', '/errors/404']) {
      const res = await get(route);
      expect(res.status, route).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  // HEAD answered 404 where GET answered 200, and every page closed its connection.
  it('answers HEAD of every page route like GET, without a body, and keeps the connection open', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const request = (method: string, route: string, accept = '*/*') =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; reused: boolean }>((resolve, reject) => {
        const req = http.request(`${server.url}${route}`, { method, agent, headers: { accept } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, reused: req.reusedSocket }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      const seen: boolean[] = [];
      for (const route of ['/', '/channels', '/knowledges', '/auth/sign-in']) {
        for (const accept of ['text/html', '*/*']) {
          const get = await request('GET', route, accept);
          const head = await request('HEAD', route, accept);
          expect(head.status, `HEAD ${route} (${accept})`).toBe(get.status);
          expect(get.status).toBe(200);
          expect(head.body).toBe('');
          for (const name of ['content-type', 'content-length', 'etag', 'cache-control', 'content-security-policy', 'x-frame-options']) expect(head.headers[name], `${name} of HEAD ${route}`).toBe(get.headers[name]);
          for (const res of [get, head]) expect(res.headers.connection, route).toBe('keep-alive');
          seen.push(get.reused, head.reused);
        }
      }
      // One connection served them all, one after another.
      expect(seen.slice(1).every(Boolean)).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('keeps the connection open after the page, so the browser fetches its scripts on it', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const request = (url: string, accept: string) =>
      new Promise<{ status: number; connection: string | undefined; socket: unknown }>((resolve, reject) => {
        const req = http.get(`${server.url}${url}`, { agent, headers: { accept } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socket: req.socket }));
        });
        req.on('error', reject);
      });
    try {
      const page = await request('/', 'text/html');
      expect(page.status).toBe(200);
      expect(page.connection).not.toBe('close');
      const script = await request('/assets/index-abc123.js', '*/*');
      expect(script.status).toBe(200);
      expect(script.socket, 'the script came over the page’s connection').toBe(page.socket);
    } finally {
      agent.destroy();
    }
  });

  it('revalidates the page by ETag and serves a new build at once', async () => {
    const first = await get('/knowledges');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${server.url}/knowledges`, { headers: { accept: 'text/html', 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    const file = path.join(web, 'index.html');
    const before = fs.readFileSync(file, 'utf8');
    try {
      fs.writeFileSync(file, before.replace('<title>CSAI</title>', '<title>CSAI new build</title>'));
      fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
      const rebuilt = await fetch(`${server.url}/knowledges`, { headers: { accept: 'text/html', 'if-none-match': etag! } });
      expect(rebuilt.status).toBe(200);
      expect(rebuilt.headers.get('etag')).not.toBe(etag);
      expect(await rebuilt.text()).toContain('CSAI new build');
    } finally {
      fs.writeFileSync(file, before);
    }
  });

  it('after a rebuild while running: serves the new page and its new hashed assets, not the removed ones', async () => {
    const file = path.join(web, 'index.html');
    const before = fs.readFileSync(file, 'utf8');
    const old = await get('/');
    expect(await old.text()).not.toContain('index-new456.js');
    // What `npm run build` does to the folder: old assets gone, new ones and a new index.html.
    const newAsset = 'console.log("new build")';
    fs.writeFileSync(path.join(web, 'assets', 'index-new456.js'), newAsset);
    fs.writeFileSync(path.join(web, 'assets', 'vendor-new456.js'), vendor);
    fs.writeFileSync(path.join(web, 'assets', 'vendor-new456.js.br'), zlib.brotliCompressSync(vendor));
    fs.renameSync(path.join(web, 'assets', 'index-abc123.js'), path.join(web, 'assets', 'index-abc123.js.old'));
    fs.writeFileSync(file, '<!doctype html><title>CSAI</title><div id="root"></div><script type="module" src="/assets/index-new456.js"></script>');
    try {
      const page = await get('/channels');
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('/assets/index-new456.js');

      const asset = await get('/assets/index-new456.js', '*/*');
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/javascript/);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await asset.text()).toBe(newAsset);

      const br = await fetch(`${server.url}/assets/vendor-new456.js`, { headers: { 'accept-encoding': 'br' } });
      expect(br.status).toBe(200);
      expect(br.headers.get('content-encoding')).toBe('br');

      const gone = await get('/assets/index-abc123.js', '*/*');
      expect(gone.status).toBe(404);
      expect(await gone.json()).toMatchObject({ success: false, code: 'not_found' });
    } finally {
      fs.writeFileSync(file, before);
      fs.renameSync(path.join(web, 'assets', 'index-abc123.js.old'), path.join(web, 'assets', 'index-abc123.js'));
      for (const f of ['index-new456.js', 'vendor-new456.js', 'vendor-new456.js.br']) fs.rmSync(path.join(web, 'assets', f));
    }
  });

  it('while a build has removed index.html: a 503 asking to reload, not a stale page or a 500', async () => {
    const file = path.join(web, 'index.html');
    const before = fs.readFileSync(file, 'utf8');
    await get('/'); // the page is in memory
    fs.rmSync(file);
    try {
      const res = await get('/knowledges');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(await res.text()).toContain('正在更新');
    } finally {
      fs.writeFileSync(file, before);
    }
    expect((await get('/knowledges')).status).toBe(200);
  });

  it('never serves a file outside the web folder through the rebuild path', async () => {
    fs.writeFileSync(path.join(path.dirname(web), `${path.basename(web)}-secret.txt`), 'secret');
    try {
      for (const url of [`/..%2f${path.basename(web)}-secret.txt`, `/assets/..%2f..%2f${path.basename(web)}-secret.txt`, '/assets/%00.js', '/assets/%E0%A4%A.js']) {
        const res = await get(url, '*/*');
        expect(res.status, url).toBeGreaterThanOrEqual(400);
        expect(res.status, url).toBeLessThan(500);
        expect(await res.text(), url).not.toContain('secret');
      }
    } finally {
      fs.rmSync(path.join(path.dirname(web), `${path.basename(web)}-secret.txt`));
    }
  });

  it('does not answer a missing file with the page', async () => {
    const res = await get('/assets/missing-123.js', '*/*');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, code: 'not_found' });
  });

  it('answers an unknown API path with the 404 envelope, not the page', async () => {
    const res = await get('/api/v1/no/such/call');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, message: '接口不存在', code: 'not_found' });
  });

  it('refuses to serve files outside the web folder', async () => {
    for (const url of ['/../package.json', '/assets/..%2f..%2fpackage.json', '/%2e%2e/%2e%2e/etc/passwd']) {
      const res = await get(url, '*/*');
      expect(await res.text(), url).not.toMatch(/"dependencies"|root:x:0/);
    }
  });

  it('sends the pre-compressed copy a browser accepts (brotli, else gzip, else the plain file)', async () => {
    const raw = (encoding: string | undefined) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const req = http.get(`${server.url}/assets/vendor-abc123.js`, { headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
      });
    const br = await raw('gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(Buffer.byteLength(vendor) / 4);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(vendor);

    const gz = await raw('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(vendor);

    const plain = await raw(undefined);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(vendor);
  });

  it('serves a file without compressed copies as it is, whatever the browser accepts', async () => {
    const res = await fetch(`${server.url}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.text()).toBe('console.log(1)');
  });
});
