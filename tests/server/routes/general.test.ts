import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alert, ping } from '../../../src/contract/general';
import { signUp, startServer, type Client, type TestServer } from '../helpers';

let server: TestServer;
let db: ReturnType<TestServer['sqlite']>;
beforeAll(async () => {
  server = await startServer();
  db = server.sqlite();
});
afterAll(async () => {
  db.close();
  await server.close();
});

async function signedIn(admin: boolean): Promise<Client> {
  const client = server.client();
  const { account } = await signUp(client);
  if (admin) db.prepare('update users set is_admin = 1 where email = ?').run(account);
  expect((await client.post('/api/v1/auth/sign-in', { account, password: 'passw0rd-ok' })).status).toBe(200);
  return client;
}

const getAlert = async (s: TestServer = server) => {
  const res = await s.client().get('/api/v1/prompt/get_alert');
  expect(res.status).toBe(200);
  return alert.parse(res.body.data);
};

describe('GET /api/v1/ (ping)', () => {
  it('answers with the name, version and time, signed in or not', async () => {
    const res = await server.client().get('/api/v1/');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: '' });
    const data = ping.parse(res.body.data);
    expect(data).toMatchObject({ name: 'csai', version: 'test' });
    expect(Number.isNaN(Date.parse(data.time))).toBe(false);
  });
});

describe('the banner (get_alert)', () => {
  it('is hidden by default, type warning', async () => {
    expect(await getAlert()).toEqual({ is_show: false, content: '', content_type: 'warning' });
  });

  it('comes from CSAI_ALERT_CONTENT / CSAI_ALERT_TYPE when configured', async () => {
    const configured = await startServer({ CSAI_ALERT_CONTENT: '系统将于今晚22点维护' });
    const typed = await startServer({ CSAI_ALERT_CONTENT: '新功能上线', CSAI_ALERT_TYPE: 'info' });
    try {
      expect(await getAlert(configured)).toEqual({ is_show: true, content: '系统将于今晚22点维护', content_type: 'warning' });
      expect(await getAlert(typed)).toEqual({ is_show: true, content: '新功能上线', content_type: 'info' });
    } finally {
      await configured.close();
      await typed.close();
    }
  });

  it('only an administrator may set it; bad bodies change nothing', async () => {
    const put = (client: Client, body: unknown) => client.request('PUT', '/api/v1/prompt/alert', { body });
    const body = { is_show: true, content: '  今日停机维护  ', content_type: 'error' };

    const anonymous = await put(server.client(), body);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ success: false, message: '请先登录' });

    const user = await signedIn(false);
    const denied = await put(user, body);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ success: false, code: 'forbidden', message: '只有管理员可以修改公告' });

    const admin = await signedIn(true);
    for (const [bad, field] of [
      [{ ...body, is_show: 'yes' }, 'is_show'],
      [{ ...body, content: 'x'.repeat(2001) }, 'content'],
      [{ ...body, content_type: 'danger' }, 'content_type'],
      [{ ...body, extra: 1 }, 'extra'],
      [{ content: 'x' }, 'is_show'],
    ] as const) {
      const res = await put(admin, bad);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, field });
    }
    expect((await getAlert()).is_show).toBe(false);

    const ok = await put(admin, body);
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('公告已更新');
    expect(await getAlert()).toEqual({ is_show: true, content: '今日停机维护', content_type: 'error' });

    // content_type defaults to warning; hiding works.
    expect((await put(admin, { is_show: false, content: '' })).status).toBe(200);
    expect(await getAlert()).toEqual({ is_show: false, content: '', content_type: 'warning' });
  });

  it("an administrator's banner wins over the configured one", async () => {
    const s = await startServer({ CSAI_ALERT_CONTENT: '配置公告' });
    try {
      const client = s.client();
      const { account } = await signUp(client);
      const raw = s.sqlite();
      raw.prepare('update users set is_admin = 1 where email = ?').run(account);
      raw.close();
      await client.post('/api/v1/auth/sign-in', { account, password: 'passw0rd-ok' });
      expect((await client.request('PUT', '/api/v1/prompt/alert', { body: { is_show: true, content: '管理员公告' } })).status).toBe(200);
      expect(await getAlert(s)).toEqual({ is_show: true, content: '管理员公告', content_type: 'warning' });
    } finally {
      await s.close();
    }
  });
});

describe('unknown routes', () => {
  it.each([
    ['GET', '/api/v1/no-such-call'],
    ['GET', '/api/v1/auth/nope'],
    ['GET', '/api/v2/'],
    ['POST', '/api/v1/no-such-call'],
    ['DELETE', '/api/v1/auth/me'],
  ])('%s %s → 404 envelope', async (method, url) => {
    const res = await server.client().request(method, url, method === 'GET' ? {} : { body: {} });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, code: 'not_found', message: '接口不存在' });
  });

  it('a malformed URL gets 400 with the envelope', async () => {
    const res = await server.client().get('/api/v1/%');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'bad_url', message: '请求地址无效' });
  });

  it('a URL or headers beyond what the HTTP parser takes get 431 with the envelope, and the server goes on', async () => {
    const long = await fetch(`${server.url}/api/v1/knowledge_base/folder?search=${'x'.repeat(100_000)}`);
    expect(long.status).toBe(431);
    expect(long.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await long.json()).toEqual({ success: false, code: 'header_too_large', message: '请求的网址或请求头过长' });
    const cookie = await fetch(`${server.url}/api/v1/`, { headers: { cookie: `a=${'y'.repeat(20_000)}` } });
    expect(cookie.status).toBe(431);
    expect((await fetch(`${server.url}/api/v1/`)).status).toBe(200);
  });

  it('a GET of an auth call that only takes POST is a 404, never a 500', async () => {
    const res = await server.client().get('/api/v1/auth/sign-in');
    expect(res.status).toBe(404);
  });
});

describe('OpenAPI at /api/docs', () => {
  interface Operation {
    responses?: Record<string, unknown>;
    requestBody?: unknown;
  }
  interface OpenApi {
    openapi: string;
    info: { title: string; version: string };
    paths: Record<string, Record<string, Operation>>;
    components?: Record<string, Record<string, unknown>>;
  }

  it('serves a valid OpenAPI 3 document listing every auth call', async () => {
    const res = await server.client().get('/api/docs/json');
    expect(res.status).toBe(200);
    const doc = res.body as unknown as OpenApi;
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info).toMatchObject({ title: 'CSAI API', version: 'test' });
    const expected: [string, string][] = [
      ['post', '/api/v1/auth/sign-up'],
      ['post', '/api/v1/auth/activate'],
      ['post', '/api/v1/auth/sign-in'],
      ['post', '/api/v1/auth/otp/send'],
      ['post', '/api/v1/auth/otp/verify'],
      ['post', '/api/v1/auth/forgot-password'],
      ['post', '/api/v1/auth/reset-password'],
      ['post', '/api/v1/auth/sign-out'],
      ['get', '/api/v1/auth/me'],
      ['get', '/api/v1/'],
      ['get', '/api/v1/prompt/get_alert'],
      ['put', '/api/v1/prompt/alert'],
      ['get', '/api/v1/departments'],
      ['get', '/api/v1/search_person_department'],
    ];
    for (const [method, path] of expected) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(Object.keys(op!.responses ?? {})).toContain('200');
    }
    // Request bodies come from the contract: sign-up names its fields.
    expect(JSON.stringify(doc.paths['/api/v1/auth/sign-up']!.post!.requestBody)).toMatch(/"password"/);

    // Structure: every operation has responses; every $ref points at something that exists.
    const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path.startsWith('/')).toBe(true);
      for (const [method, op] of Object.entries(item)) {
        if (!methods.has(method)) continue;
        expect(Object.keys(op.responses ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) {
      const target = ref.slice(8, -1);
      expect(target.startsWith('#/')).toBe(true);
      let node: unknown = doc;
      for (const part of target.slice(2).split('/')) node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      expect(node, target).toBeDefined();
    }
  });

  it('serves the documentation page', async () => {
    const res = await fetch(`${server.url}/api/docs/`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
  });

  // Found by the fuzzing bench: with a query string the plugin's redirect pointed at itself.
  it('the old address of the page leads to the page, with or without a query string', async () => {
    for (const path of ['/api/docs/static/index.html', '/api/docs/static/index.html?x=1', '/api/docs/static/index.html?a=%zz&b']) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'follow' });
      expect(res.status, path).toBe(200);
      expect(new URL(res.url).pathname, path).toBe('/api/docs/');
      expect(await res.text(), path).toContain('swagger-ui');
    }
  });

  // The page had no CSP and could be framed by any site.
  it('the documentation page has a strict script policy that admits its own scripts, and no other site may frame it', async () => {
    const res = await fetch(`${server.url}/api/docs/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const csp = new Map((res.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k!, v]));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('script-src')!.filter((s) => !/^'sha256-/.test(s))).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]); // Swagger UI writes styles as it runs; they run no code
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    // Every inline script of the page is admitted by its hash; every file it loads is served here.
    const { createHash } = await import('node:crypto');
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    for (const [, body] of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)) if (body!.trim()) expect(csp.get('script-src')).toContain(hash(body!));
    const files = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"/g)].map((m) => m[1]!);
    expect(files.some((f) => /swagger-ui-bundle\.js$/.test(f))).toBe(true);
    for (const file of files) {
      const url = new URL(file, `${server.url}/api/docs/`);
      expect(url.origin).toBe(server.url);
      const loaded = await fetch(url);
      expect(loaded.status, file).toBe(200);
      await loaded.arrayBuffer(); // read to the end: an unread body keeps its kept-alive connection busy
    }
  });
});

describe('the dev outbox (CSAI_DEV_OUTBOX=1)', () => {
  it('answers only to the machine itself, whatever X-Forwarded-For claims', async () => {
    const outbox = await startServer({ CSAI_DEV_OUTBOX: '1', CSAI_TRUST_PROXY: '0' });
    try {
      const local = await outbox.app.inject({ method: 'GET', url: '/api/v1/dev/outbox', remoteAddress: '127.0.0.1' });
      expect(local.statusCode).toBe(200);
      const remote = await outbox.app.inject({
        method: 'GET',
        url: '/api/v1/dev/outbox',
        remoteAddress: '192.168.1.20',
        headers: { 'x-forwarded-for': '127.0.0.1' },
      });
      expect(remote.statusCode).toBe(404);
      expect(remote.json()).toMatchObject({ success: false, code: 'not_found' });
      // A reverse proxy on the same host: loopback socket, but a forwarding header.
      for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip', 'via']) {
        const proxied = await outbox.app.inject({ method: 'GET', url: '/api/v1/dev/outbox', remoteAddress: '127.0.0.1', headers: { [header]: '203.0.113.9' } });
        expect(proxied.statusCode, header).toBe(404);
      }
    } finally {
      await outbox.close();
    }
  });

  it('refuses to start behind a proxy or HTTPS', async () => {
    await expect(startServer({ CSAI_DEV_OUTBOX: '1', CSAI_TRUST_PROXY: '1' })).rejects.toThrow(/CSAI_DEV_OUTBOX: not allowed/);
    await expect(startServer({ CSAI_DEV_OUTBOX: '1', CSAI_TRUST_PROXY: '0', CSAI_COOKIE_SECURE: '1' })).rejects.toThrow(/CSAI_DEV_OUTBOX: not allowed/);
  });

  it('does not exist when the flag is off', async () => {
    const plain = await startServer({ CSAI_DEV_OUTBOX: '0' });
    try {
      expect((await plain.client().get('/api/v1/dev/outbox')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
