import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STACK_FRAME, startServer, type TestServer } from '../helpers';

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

const UP = '/api/v1/auth/sign-up';
const IN = '/api/v1/auth/sign-in';
const ACT = '/api/v1/auth/activate';
const SEND = '/api/v1/auth/otp/send';
const VERIFY = '/api/v1/auth/otp/verify';
const FORGOT = '/api/v1/auth/forgot-password';
const RESET = '/api/v1/auth/reset-password';

const good = { email: 'valid@example.com', password: 'passw0rd-ok', name: '张三' };
const token = 'T'.repeat(43);

/** [what, url, body (a string is sent raw), field the answer must name, expected status]. */
const cases: [string, string, unknown, string, number?][] = [
  ['sign-up: unknown key', UP, { ...good, role: 'admin' }, 'role'],
  ['sign-up: is_admin smuggled in', UP, { ...good, is_admin: true }, 'is_admin'],
  ['sign-up: e-mail is a number', UP, { ...good, email: 5 }, 'email'],
  ['sign-up: e-mail without @domain', UP, { ...good, email: 'not-an-email' }, 'email'],
  ['sign-up: e-mail too long', UP, { ...good, email: `${'a'.repeat(250)}@example.com` }, 'email'],
  ['sign-up: neither e-mail nor phone', UP, { password: good.password, name: good.name }, 'email'],
  ['sign-up: both e-mail and phone', UP, { ...good, phone: '13812345678' }, 'phone'],
  ['sign-up: phone with 10 digits', UP, { phone: '1381234567', password: good.password, name: good.name }, 'phone'],
  ['sign-up: phone not starting 1[3-9]', UP, { phone: '12812345678', password: good.password, name: good.name }, 'phone'],
  ['sign-up: phone with letters', UP, { phone: '1381234567a', password: good.password, name: good.name }, 'phone'],
  ['sign-up: phone is an array', UP, { phone: ['13812345678'], password: good.password, name: good.name }, 'phone'],
  ['sign-up: password too short', UP, { ...good, password: 'ab1' }, 'password'],
  ['sign-up: password too long', UP, { ...good, password: `a1${'x'.repeat(200)}` }, 'password'],
  ['sign-up: password without letters', UP, { ...good, password: '1234567890' }, 'password'],
  ['sign-up: password without digits', UP, { ...good, password: 'abcdefghij' }, 'password'],
  ['sign-up: password with a NUL byte', UP, { ...good, password: 'passw0rd\u0000x' }, 'password'],
  ['sign-up: name missing', UP, { email: good.email, password: good.password }, 'name'],
  ['sign-up: name only spaces', UP, { ...good, name: '   ' }, 'name'],
  ['sign-up: name 10 000 characters', UP, { ...good, name: '名'.repeat(10_000) }, 'name'],
  ['sign-up: name with a NUL byte', UP, { ...good, name: '张\u0000三' }, 'name'],
  ['sign-up: name with a newline', UP, { ...good, name: '张\n三' }, 'name'],
  ['sign-up: name is null', UP, { ...good, name: null }, 'name'],
  ['sign-up: department_id is a number', UP, { ...good, department_id: 7 }, 'department_id'],
  ['sign-up: body is an array', UP, '[{"email":"a@b.com"}]', 'body'],
  ['sign-up: body is a string', UP, '"hello"', 'body'],
  ['sign-up: body is null', UP, 'null', 'body'],
  ['sign-up: body is not JSON', UP, '{"email": "a@b.com",', 'body'],
  ['sign-up: body is empty', UP, '', 'body'],
  ['sign-in: account missing', IN, { password: 'x' }, 'account'],
  ['sign-in: account empty', IN, { account: '', password: 'x' }, 'account'],
  ['sign-in: account is an object', IN, { account: { $ne: null }, password: 'x' }, 'account'],
  ['sign-in: account 1000 characters', IN, { account: 'a'.repeat(1000), password: 'x' }, 'account'],
  ['sign-in: account with a NUL byte', IN, { account: 'a@b.com\u0000', password: 'x' }, 'account'],
  ['sign-in: password empty', IN, { account: 'a@b.com', password: '' }, 'password'],
  ['sign-in: password is a number', IN, { account: 'a@b.com', password: 12345678 }, 'password'],
  ['sign-in: password 100 000 characters', IN, { account: 'a@b.com', password: 'p'.repeat(100_000) }, 'password'],
  ['sign-in: unknown key', IN, { account: 'a@b.com', password: 'x', remember: true }, 'remember'],
  ['activate: token missing', ACT, {}, 'token'],
  ['activate: token too short', ACT, { token: 'abc' }, 'token'],
  ['activate: token with SQL', ACT, { token: "x' or '1'='1' --------" }, 'token'],
  ['activate: token is a number', ACT, { token: 12345678901234567890 }, 'token'],
  ['otp/send: account missing', SEND, {}, 'account'],
  ['otp/send: account is true', SEND, { account: true }, 'account'],
  ['otp/verify: code with 7 digits', VERIFY, { account: 'a@b.com', code: '1234567' }, 'code'],
  ['otp/verify: code with 5 digits', VERIFY, { account: 'a@b.com', code: '12345' }, 'code'],
  ['otp/verify: code with letters', VERIFY, { account: 'a@b.com', code: '12a456' }, 'code'],
  ['otp/verify: code is a number', VERIFY, { account: 'a@b.com', code: 123456 }, 'code'],
  ['otp/verify: account missing', VERIFY, { code: '123456' }, 'account'],
  ['forgot-password: unknown key', FORGOT, { account: 'a@b.com', email: 'a@b.com' }, 'email'],
  ['forgot-password: account blank', FORGOT, { account: '   ' }, 'account'],
  ['reset-password: password missing', RESET, { token }, 'password'],
  ['reset-password: weak password', RESET, { token, password: 'short' }, 'password'],
  ['reset-password: token with slashes', RESET, { token: '../../etc/passwd/aaaaaaaa', password: 'passw0rd-ok' }, 'token'],
];

describe('malformed input to the auth calls', () => {
  it.each(cases)('%s → 400 naming the field', async (_what, url, body, field, status = 400) => {
    const client = server.client();
    const res = await client.post(url, body);
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(false);
    expect(res.body.field).toBe(field);
    expect(typeof res.body.code).toBe('string');
    expect(res.body.message).toMatch(/[\u4e00-\u9fff]/);
    expect(res.body.message).not.toMatch(/Invalid input|expected/);
    expect(JSON.stringify(res.body)).not.toMatch(STACK_FRAME);
  });

  it('nothing was created by any of them', () => {
    expect((db.prepare('select count(*) as n from users').get() as { n: number }).n).toBe(0);
    expect((db.prepare('select count(*) as n from outbox').get() as { n: number }).n).toBe(0);
  });

  it('a body sent as text/plain or form data is refused without 500', async () => {
    const client = server.client();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await client.post(UP, 'email=a@b.com&password=x', { headers: { 'content-type': type } });
      expect([400, 415]).toContain(res.status);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('a body over 1 MiB is refused with 413 and the envelope', async () => {
    const res = await server.client().post(UP, { ...good, name: 'x'.repeat(1_100_000) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, code: 'body_too_large', message: '请求体过大' });
  });

  it('a POST with no body at all names the body', async () => {
    const res = await server.client().post(IN);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('body');
  });
});
