import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionInfo } from '../../../src/contract/auth';
import { Client, signedInUser, startServer, type TestServer } from '../helpers';

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

// The site asks this on every page load: a signed-out visitor must not get an error status,
// which the browser would print as a failed request in the console.
describe('GET /api/v1/auth/session', () => {
  it('answers a visitor without a session 200 with no user', async () => {
    const res = await server.client().get('/api/v1/auth/session');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { user: null, state: 'anonymous' }, message: '' });
  });

  it('answers the signed-in user with the same user info as /auth/me', async () => {
    const { client, id, email } = await signedInUser(server, { name: '王化学' });
    const res = await client.get('/api/v1/auth/session');
    expect(res.status).toBe(200);
    const data = sessionInfo.parse(res.body.data);
    expect(data).toMatchObject({ state: 'signed_in', user: { id, email, name: '王化学' } });
    expect(data.user).toEqual((await client.get('/api/v1/auth/me')).body.data);
  });

  it('says why there is no user for a forged cookie and for an expired session', async () => {
    const forged = new Client(server.url);
    forged.cookies.set('csai_session', 'forged-session-id-that-was-never-issued');
    const bad = await forged.get('/api/v1/auth/session');
    expect(bad.status).toBe(200);
    expect(bad.body.data).toEqual({ user: null, state: 'invalid' });

    const { client, id } = await signedInUser(server);
    db.prepare('update sessions set expires_at = ? where user_id = ?').run(new Date(Date.now() - 1000).toISOString(), id);
    const old = await client.get('/api/v1/auth/session');
    expect(old.status).toBe(200);
    expect(old.body.data).toEqual({ user: null, state: 'expired' });
  });

  it('keeps /auth/me for API clients: still a 401 without a session', async () => {
    const res = await server.client().get('/api/v1/auth/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, code: 'unauthenticated' });
  });

  it('ignores a query it does not take and refuses other methods', async () => {
    const res = await server.client().get('/api/v1/auth/session?user=admin');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ user: null, state: 'anonymous' });
    const post = await server.client().post('/api/v1/auth/session', {});
    expect(post.status).toBe(404);
    expect(post.body).toMatchObject({ success: false, code: 'not_found' });
  });
});
