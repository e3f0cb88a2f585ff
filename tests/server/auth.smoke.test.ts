import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from './helpers';

let server: TestServer;
beforeAll(async () => { server = await startServer(); });
afterAll(async () => { await server.close(); });

describe('a new account', () => {
  it('signs up, activates, signs in and sees itself', async () => {
    const { client, email } = await signedInUser(server, { name: '李四' });
    const me = await client.get<{ email: string; name: string; department_name: string; show_name: string }>('/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email, name: '李四', department_name: 'none', show_name: email });
  });
});
