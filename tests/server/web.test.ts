import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';

// A small stand-in for dist/web, so these tests do not depend on a front-end build.
const web = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-web-'));
fs.mkdirSync(path.join(web, 'assets'));
fs.mkdirSync(path.join(web, 'widgets'));
fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>CSAI</title><div id="root"></div>');
fs.writeFileSync(path.join(web, 'assets', 'index-abc123.js'), 'console.log(1)');
fs.writeFileSync(path.join(web, 'widgets', 'csai.js'), 'export {}');

let server: TestServer;
beforeAll(async () => { server = await startServer({ CSAI_WEB_DIR: web }); });
afterAll(async () => { await server.close(); });

const get = (url: string, accept = 'text/html') => fetch(server.url + url, { headers: { accept } });

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
});
