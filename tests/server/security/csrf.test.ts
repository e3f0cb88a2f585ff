import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, signUp, startServer, uniqueEmail, type TestServer } from '../helpers';

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

const userCount = (email: string) => (db.prepare('select count(*) as n from users where email = ?').get(email) as { n: number }).n;
const signUpBody = (email: string) => ({ email, password: 'passw0rd-ok', name: '跨站' });

/** A client that has been given its CSRF cookie by a GET, as a browser would be. */
async function primed() {
  const client = server.client();
  await client.get('/api/v1/');
  expect(client.csrf).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  return client;
}

async function signedIn() {
  const client = server.client();
  const { account } = await signUp(client);
  const res = await client.post('/api/v1/auth/sign-in', { account, password: 'passw0rd-ok' });
  expect(res.status).toBe(200);
  return client;
}

function expectCsrf403(res: { status: number; body: { success: boolean; code?: string; message: string } }) {
  expect(res.status).toBe(403);
  expect(res.body.success).toBe(false);
  expect(res.body.code).toBe('csrf_failed');
  expect(res.body.message).toMatch(/[\u4e00-\u9fff]/);
}

describe('CSRF on state-changing calls', () => {
  it('a POST without X-Requested-With is refused and creates nothing', async () => {
    const client = await primed();
    const email = uniqueEmail('csrf');
    const res = await client.post('/api/v1/auth/sign-up', signUpBody(email), {
      csrf: false,
      headers: { 'x-csrf-token': client.csrf! },
    });
    expectCsrf403(res);
    expect(res.body.message).toBe('请求缺少 X-Requested-With 头');
    expect(userCount(email)).toBe(0);
  });

  it('a POST without X-CSRF-TOKEN is refused and creates nothing', async () => {
    const client = await primed();
    const email = uniqueEmail('csrf');
    const res = await client.post('/api/v1/auth/sign-up', signUpBody(email), {
      csrf: false,
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expectCsrf403(res);
    expect(res.body.message).toBe('CSRF 校验失败，请刷新页面后重试');
    expect(userCount(email)).toBe(0);
  });

  it('a header that does not match the cookie is refused', async () => {
    const client = await primed();
    const email = uniqueEmail('csrf');
    const other = await primed();
    const res = await client.post('/api/v1/auth/sign-up', signUpBody(email), { headers: { 'x-csrf-token': other.csrf! } });
    expectCsrf403(res);
    expect(userCount(email)).toBe(0);
  });

  it('a cookie and header with no cookie at all, or a made-up token in both, are refused', async () => {
    const bare = new Client(server.url);
    const email = uniqueEmail('csrf');
    const none = await bare.post('/api/v1/auth/sign-up', signUpBody(email), { csrf: false, headers: { 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': 'abc.def' } });
    expectCsrf403(none);
    const madeUp = new Client(server.url);
    madeUp.cookies.set('XSRF-TOKEN', 'attacker.chosen');
    const res = await madeUp.post('/api/v1/auth/sign-up', signUpBody(email));
    expectCsrf403(res);
    expect(userCount(email)).toBe(0);
  });

  it('a token minted for another session is worthless in this one', async () => {
    const victim = await signedIn();
    const attacker = await signedIn();
    // The attacker plants its own valid (cookie, header) pair in the victim's browser.
    const forged = new Client(server.url);
    forged.cookies.set('csai_session', victim.cookies.get('csai_session')!);
    forged.cookies.set('XSRF-TOKEN', attacker.csrf!);
    const res = await forged.post('/api/v1/auth/sign-out');
    expectCsrf403(res);
    // The anonymous token of the sign-in page no longer works once signed in either.
    const anon = await primed();
    forged.cookies.set('XSRF-TOKEN', anon.csrf!);
    expectCsrf403(await forged.post('/api/v1/auth/sign-out'));
    // Nothing happened: the victim is still signed in.
    expect((await victim.get('/api/v1/auth/me')).status).toBe(200);
  });

  it('sign-out with a bad token keeps the session; PUT is checked too', async () => {
    const client = await signedIn();
    expectCsrf403(await client.post('/api/v1/auth/sign-out', undefined, { headers: { 'x-csrf-token': 'wrong.token' } }));
    expect((await client.get('/api/v1/auth/me')).status).toBe(200);
    const put = await client.request('PUT', '/api/v1/prompt/alert', { body: { is_show: true, content: 'x' }, csrf: false });
    expectCsrf403(put);
  });

  it('GET calls need no token, and the server hands out a fresh one when the cookie is missing or bad', async () => {
    const client = new Client(server.url);
    client.cookies.set('XSRF-TOKEN', 'garbage');
    const res = await client.get('/api/v1/');
    expect(res.status).toBe(200);
    expect(client.csrf).not.toBe('garbage');
    expect((await client.post('/api/v1/auth/sign-out')).status).toBe(200);
  });
});
