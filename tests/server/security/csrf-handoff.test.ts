import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, signedInUser, startServer, type TestServer } from '../helpers';

const portal = 'https://eln.example.com';
let server: TestServer;
beforeAll(async () => { server = await startServer({ CSAI_CORS_ORIGINS: portal }); });
afterAll(async () => { await server.close(); });

/** A client that, like a page on another origin, cannot read cookies: it only sends them. */
async function tokenFromBody(client: Client) {
  const res = await client.get<{ token: string }>('/api/v1/auth/csrf');
  expect(res.status).toBe(200);
  return res.body.data.token;
}

describe('handing the CSRF token to an embedding page', () => {
  it('returns the token of the current cookie, which then passes the check', async () => {
    const client = server.client();
    const token = await tokenFromBody(client);
    expect(token).toBe(client.csrf);
    const res = await client.request('POST', '/api/v1/auth/sign-out', { csrf: false, headers: { 'x-requested-with': 'fetch', 'x-csrf-token': token } });
    expect(res.status).toBe(200);
  });

  it('issues a token at once for a browser that has no cookie yet', async () => {
    const client = server.client();
    const token = await tokenFromBody(client);
    expect(token).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(client.csrf).toBe(token);
  });

  it('hands out a token bound to the session: after sign-in the old one is refused', async () => {
    const { client } = await signedInUser(server);
    const token = await tokenFromBody(client);
    const stranger = server.client();
    const strangerToken = await tokenFromBody(stranger);
    const res = await client.request('POST', '/api/v1/auth/sign-out', { csrf: false, headers: { 'x-requested-with': 'fetch', 'x-csrf-token': strangerToken } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_failed');
    expect((await client.get('/api/v1/auth/me')).status).toBe(200);
    const ok = await client.request('POST', '/api/v1/auth/sign-out', { csrf: false, headers: { 'x-requested-with': 'fetch', 'x-csrf-token': token } });
    expect(ok.status).toBe(200);
  });

  it('lets only allow-listed origins read it (CORS with credentials)', async () => {
    const allowed = await fetch(`${server.url}/api/v1/auth/csrf`, { headers: { Origin: portal } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(portal);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    const other = await fetch(`${server.url}/api/v1/auth/csrf`, { headers: { Origin: 'https://evil.example.net' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
