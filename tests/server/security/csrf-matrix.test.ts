import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, signUp, startServer, type TestServer } from '../helpers';

// CSRF over every state-changing route, generated from the server's own route table (its
// OpenAPI description), so a route added later is covered without anyone listing it. Each forged
// request is refused with 403 csrf_failed before it can change anything.
let server: TestServer;
let victim: Client;
let other: Client;
let routes: Array<{ method: string; path: string }>;

beforeAll(async () => {
  server = await startServer();
  victim = server.client();
  const { account, password } = await signUp(victim);
  expect((await victim.post('/api/v1/auth/sign-in', { account, password })).status).toBe(200);
  // Another signed-in session: its valid token must not work with the victim's cookies.
  other = server.client();
  const second = await signUp(other);
  expect((await other.post('/api/v1/auth/sign-in', { account: second.account, password: second.password })).status).toBe(200);
  const doc = (await server.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
  routes = Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.keys(ops).filter((m) => ['post', 'put', 'patch', 'delete'].includes(m)).map((m) => ({ method: m.toUpperCase(), path: p })),
  );
});
afterAll(() => server.close());

/** Five forgeries: no X-Requested-With, no token, a made-up token, another session's token, a token in the query. */
function forgeries(): Array<[string, Record<string, string>, string]> {
  const cookie = [...victim.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
  return [
    ['no X-Requested-With', { cookie, 'x-csrf-token': victim.csrf! }, ''],
    ['no X-CSRF-TOKEN', { cookie, 'x-requested-with': 'XMLHttpRequest' }, ''],
    ['a made-up token', { cookie, 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': 'AAAA.BBBB' }, ''],
    ["another session's token", { cookie, 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': other.csrf! }, ''],
    ['the token in the query string', { cookie, 'x-requested-with': 'XMLHttpRequest' }, `?csrf=${encodeURIComponent(victim.csrf!)}&_csrf=${encodeURIComponent(victim.csrf!)}`],
  ];
}

describe('every state-changing route', () => {
  it('is listed (the route table is read)', () => {
    expect(routes.length).toBeGreaterThan(25);
  });

  it('refuses each forgery with 403 csrf_failed', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const url = `/api/v1${route.path.replace(/^\/api\/v1/, '').replace(/\{[^}]+\}/g, 'someid')}`;
      for (const [what, headers, query] of forgeries()) {
        const res = await server.app.inject({ method: route.method as 'POST', url: url + query, headers: { ...headers, 'content-type': 'application/json' }, payload: '{}' });
        const body = res.json() as { code?: string };
        if (res.statusCode !== 403 || body.code !== 'csrf_failed') failures.push(`${route.method} ${route.path} (${what}) → ${res.statusCode} ${body.code ?? ''}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
