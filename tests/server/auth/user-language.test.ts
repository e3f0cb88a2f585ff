import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from '../helpers';

// The interface language chosen in the user menu is remembered per user.
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

describe('the interface language of a user', () => {
  it('is null until chosen, then kept for the next session; each user has their own', async () => {
    const alice = await signedInUser(server);
    const bob = await signedInUser(server);
    expect((await alice.client.get<{ language: string | null }>('/api/v1/auth/me')).body.data.language).toBe(null);
    const set = await alice.client.request<{ language: string }>('PUT', '/api/v1/auth/me/language', { body: { language: 'en' } });
    expect(set.status).toBe(200);
    expect(set.body.data.language).toBe('en');
    // A new session of the same user: still English; Bob's is untouched.
    const again = server.client();
    await again.post('/api/v1/auth/sign-in', { account: alice.email, password: alice.password });
    const session = await again.get<{ user: { language: string | null } }>('/api/v1/auth/session');
    expect(session.body.data.user.language).toBe('en');
    expect((await bob.client.get<{ language: string | null }>('/api/v1/auth/me')).body.data.language).toBe(null);
  });

  it('refuses anything but zh or en in Chinese, and changes nothing', async () => {
    const { client } = await signedInUser(server);
    await client.request('PUT', '/api/v1/auth/me/language', { body: { language: 'zh' } });
    for (const body of [{ language: 'fr' }, { language: '' }, {}, { language: 'en', extra: 1 }, { language: 1 }, '{bad']) {
      const res = await client.request('PUT', '/api/v1/auth/me/language', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(/[\u4e00-\u9fff]/);
    }
    expect((await client.get<{ language: string }>('/api/v1/auth/me')).body.data.language).toBe('zh');
    expect((await server.client().request('PUT', '/api/v1/auth/me/language', { body: { language: 'en' } })).status).toBe(401);
  });
});
