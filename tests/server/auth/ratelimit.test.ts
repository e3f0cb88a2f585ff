import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startServer, uniqueEmail, uniquePhone, type ApiResponse, type TestServer } from '../helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

function expect429(res: ApiResponse) {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ success: false, code: 'rate_limited', message: '请求过于频繁，请稍后再试' });
}

describe('sign-in limits', () => {
  it('after 10 tries for one account from one address, the 11th is refused even with the right password', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    for (let i = 0; i < 10; i++) {
      // Spelling variants of the account share one counter.
      const res = await client.post('/api/v1/auth/sign-in', { account: i % 2 ? account.toUpperCase() : ` ${account}`, password: `wrong-pass${i}` });
      expect(res.status).toBe(400);
    }
    expect429(await client.post('/api/v1/auth/sign-in', { account, password: 'passw0rd-ok' }));
    expect(client.cookies.has('csai_session')).toBe(false);
    // Another address is not punished for this one's guesses.
    expect((await server.client().post('/api/v1/auth/sign-in', { account, password: 'passw0rd-ok' })).status).toBe(200);
  });

  it('phone spellings with and without +86 share the counter', async () => {
    const client = server.client();
    const phone = uniquePhone();
    const spellings = [phone, `+86${phone}`, `86 ${phone}`, `${phone.slice(0, 3)}-${phone.slice(3)}`];
    for (let i = 0; i < 10; i++) {
      expect((await client.post('/api/v1/auth/sign-in', { account: spellings[i % 4], password: 'wrong-pass1' })).status).toBe(400);
    }
    expect429(await client.post('/api/v1/auth/sign-in', { account: `+86 ${phone}`, password: 'wrong-pass1' }));
  });

  it('one address trying many accounts is stopped after 200', async () => {
    const client = server.client();
    for (let batch = 0; batch < 8; batch++) {
      const results = await Promise.all(
        Array.from({ length: 25 }, () => client.post('/api/v1/auth/sign-in', { account: uniqueEmail('spray'), password: 'passw0rd-ok' })),
      );
      expect(results.every((r) => r.status === 400)).toBe(true);
    }
    expect429(await client.post('/api/v1/auth/sign-in', { account: uniqueEmail('spray'), password: 'passw0rd-ok' }));
  });
});

describe('code and reset limits', () => {
  it('otp/verify: the 11th guess for one account is refused', async () => {
    const client = server.client();
    const account = uniqueEmail('otp');
    for (let i = 0; i < 10; i++) {
      expect((await client.post('/api/v1/auth/otp/verify', { account, code: '123456' })).status).toBe(400);
    }
    expect429(await client.post('/api/v1/auth/otp/verify', { account, code: '123456' }));
  });

  it('forgot-password: the 6th request for one account in an hour is refused', async () => {
    const client = server.client();
    const account = uniqueEmail('forgot');
    for (let i = 0; i < 5; i++) {
      expect((await client.post('/api/v1/auth/forgot-password', { account })).status).toBe(200);
    }
    expect429(await client.post('/api/v1/auth/forgot-password', { account }));
  });

  it('otp/send: one address asking codes for many accounts is stopped after 100', async () => {
    const client = server.client();
    for (let i = 0; i < 100; i++) {
      expect((await client.post('/api/v1/auth/otp/send', { account: uniqueEmail('otpsend') })).status).toBe(200);
    }
    expect429(await client.post('/api/v1/auth/otp/send', { account: uniqueEmail('otpsend') }));
  });

  it('sign-up: one address can create 30 accounts per 10 minutes', async () => {
    const client = server.client();
    for (let i = 0; i < 30; i++) {
      const res = await client.post('/api/v1/auth/sign-up', { email: uniqueEmail('bulk'), password: 'passw0rd-ok', name: '批量' });
      expect(res.status).toBe(200);
    }
    const res = await client.post('/api/v1/auth/sign-up', { email: uniqueEmail('bulk'), password: 'passw0rd-ok', name: '批量' });
    expect429(res);
  });

  it('behind the proxy, a client cannot dodge the limit by writing its own X-Forwarded-For', async () => {
    const client = server.client();
    const account = uniqueEmail('spoof');
    for (let i = 0; i < 5; i++) {
      // The proxy appends the real address (client.ip) after whatever the client sent.
      const res = await client.post('/api/v1/auth/forgot-password', { account }, { headers: { 'x-forwarded-for': `203.0.113.${i}, ${client.ip}` } });
      expect(res.status).toBe(200);
    }
    expect429(await client.post('/api/v1/auth/forgot-password', { account }, { headers: { 'x-forwarded-for': `198.51.100.7, ${client.ip}` } }));
  });

  it('a limited answer carries Retry-After', async () => {
    const client = server.client();
    const account = uniqueEmail('retry');
    let last;
    for (let i = 0; i < 6; i++) last = await client.post('/api/v1/auth/forgot-password', { account });
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
