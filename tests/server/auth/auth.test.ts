import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userInfo } from '../../../src/contract/auth';
import { hashPassword } from '../../../src/server/auth/crypto';
import { Client, latestMessage, signUp, startServer, uniqueEmail, uniquePhone, type TestServer } from '../helpers';

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

const PAST = '2000-01-01T00:00:00.000Z';
const userRow = (column: 'email' | 'phone', value: string) =>
  db.prepare(`select id, status, email, phone, name from users where ${column} = ?`).get(value) as
    | { id: string; status: string; email: string | null; phone: string | null; name: string }
    | undefined;
const outboxCount = (recipient: string, kind?: string) =>
  (db.prepare(`select count(*) as n from outbox where recipient = ?${kind ? ' and kind = ?' : ''}`).get(...(kind ? [recipient, kind] : [recipient])) as { n: number }).n;

async function signIn(client: Client, account: string, password = 'passw0rd-ok') {
  const res = await client.post<{ id: string }>('/api/v1/auth/sign-in', { account, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id;
}

describe('sign-up by e-mail', () => {
  it('creates a pending account with an activation link; activation lets it sign in once', async () => {
    const client = server.client();
    const email = uniqueEmail('Mixed');
    const up = await client.post('/api/v1/auth/sign-up', { email: `  ${email.toUpperCase()} `, password: 'passw0rd-ok', name: ' 王小明 ' });
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ success: true, data: null, message: '注册成功，激活链接已发送到您的邮箱' });
    const row = userRow('email', email.toLowerCase());
    expect(row).toMatchObject({ status: 'pending', name: '王小明', phone: null });

    const msg = await latestMessage(client, email.toLowerCase());
    expect(msg.kind).toBe('activate');
    expect(msg.body).toMatch(/#activate_transit=[A-Za-z0-9_-]{40,}/);
    // What the sign-up form typed never reaches the mailbox (no spam or phishing through sign-up).
    expect(msg.body).not.toContain('王小明');

    const early = await client.post('/api/v1/auth/sign-in', { account: email, password: 'passw0rd-ok' });
    expect(early.status).toBe(403);
    expect(early.body).toMatchObject({ success: false, code: 'account_inactive', message: '账号尚未激活，请先打开激活链接' });
    expect(client.cookies.has('csai_session')).toBe(false);

    const act = await client.post('/api/v1/auth/activate', { token: msg.token });
    expect(act.status).toBe(200);
    expect(act.body.message).toBe('账号已激活，请登录');
    expect(userRow('email', email.toLowerCase())?.status).toBe('active');

    const again = await client.post('/api/v1/auth/activate', { token: msg.token });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, code: 'token_used', message: '激活链接已使用过' });

    await signIn(client, email.toUpperCase());
    const me = await client.get('/api/v1/auth/me');
    expect(me.status).toBe(200);
    const info = userInfo.parse(me.body.data);
    expect(info).toMatchObject({ email: email.toLowerCase(), name: '王小明', phone: null, telephone: null, department_name: 'none', show_name: email.toLowerCase(), is_admin: false });
    expect(info._id).toBe(info.id);
  });

  it('makes no second account with the same e-mail, whatever its case, and answers as for a new one (no enumeration)', async () => {
    const client = server.client();
    const { account, token } = await signUp(client, { activate: false });
    const fresh = await client.post('/api/v1/auth/sign-up', { email: uniqueEmail(), password: 'other-pass1', name: '新用户' });
    const dup = await client.post('/api/v1/auth/sign-up', { email: account.toUpperCase(), password: 'other-pass1', name: '冒名者' });
    expect(dup.status).toBe(fresh.status);
    expect(dup.body).toEqual(fresh.body);
    expect((db.prepare('select count(*) as n from users where email = ?').get(account) as { n: number }).n).toBe(1);
    // Within a minute of its activation mail the owner gets no second one; the first link still works.
    expect((await latestMessage(client, account)).token).toBe(token);
    expect((await client.post('/api/v1/auth/activate', { token })).status).toBe(200);
  });

  it('tells an active owner by mail when someone signs up with their address', async () => {
    const client = server.client();
    const { account, password } = await signUp(client);
    const { token } = await latestMessage(client, account);
    await client.post('/api/v1/auth/activate', { token });
    expect((await client.post('/api/v1/auth/sign-in', { account, password })).status).toBe(200);
    const dup = await server.client().post('/api/v1/auth/sign-up', { email: account, password: 'other-pass1', name: '冒名者' });
    expect(dup.status).toBe(200);
    const notice = await latestMessage(client, account);
    expect(notice.kind).toBe('account_exists');
    expect(notice.body).not.toContain('冒名者');
    // The original password still works; the attempt changed nothing.
    expect((await server.client().post('/api/v1/auth/sign-in', { account, password })).status).toBe(200);
  });

  it('rejects an unknown department and creates nothing', async () => {
    const client = server.client();
    const email = uniqueEmail();
    const res = await client.post('/api/v1/auth/sign-up', { email, password: 'passw0rd-ok', name: '某人', department_id: 'no-such-dept' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, field: 'department_id', message: '部门不存在' });
    expect(userRow('email', email)).toBeUndefined();
    expect(outboxCount(email)).toBe(0);
  });
});

describe('racing requests', () => {
  it('five parallel sign-ups with one e-mail make exactly one account and one message', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(
      Array.from({ length: 5 }, () => server.client().post('/api/v1/auth/sign-up', { email, password: 'passw0rd-ok', name: '并发' })),
    );
    // Every caller gets the same answer; the owner gets one message, not five.
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect((db.prepare('select count(*) as n from users where email = ?').get(email) as { n: number }).n).toBe(1);
    expect(outboxCount(email, 'activate')).toBe(1);
  });

  it('one activation link used twice at once activates once', async () => {
    const client = server.client();
    const { token } = await signUp(client, { activate: false });
    const results = await Promise.all([1, 2, 3].map(() => server.client().post('/api/v1/auth/activate', { token })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
  });

  it('one code used twice at once signs in once', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    await client.post('/api/v1/auth/otp/send', { account });
    const { code } = await latestMessage(client, account);
    const results = await Promise.all([1, 2, 3].map(() => server.client().post('/api/v1/auth/otp/verify', { account, code })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
  });
});

describe('sign-up by phone', () => {
  it('normalises +86, spaces and dashes; the phone signs in in any spelling and shows masked', async () => {
    const client = server.client();
    const phone = uniquePhone();
    const typed = `+86 ${phone.slice(0, 3)}-${phone.slice(3, 7)}-${phone.slice(7)}`;
    const up = await client.post('/api/v1/auth/sign-up', { phone: typed, password: 'passw0rd-ok', name: '手机用户' });
    expect(up.status).toBe(200);
    expect(up.body.message).toBe('注册成功，激活链接已发送到您的手机');
    expect(userRow('phone', phone)).toMatchObject({ status: 'pending', email: null });
    const sms = db.prepare("select channel from outbox where recipient = ? and kind = 'activate'").get(phone) as { channel: string };
    expect(sms.channel).toBe('sms');

    const { token } = await latestMessage(client, phone);
    expect((await client.post('/api/v1/auth/activate', { token })).status).toBe(200);

    for (const spelling of [`+86${phone}`, `86${phone}`, `${phone.slice(0, 3)} ${phone.slice(3, 7)} ${phone.slice(7)}`, phone]) {
      await signIn(server.client(), spelling);
    }
    await signIn(client, phone);
    const me = await client.get('/api/v1/auth/me');
    const info = userInfo.parse(me.body.data);
    expect(info).toMatchObject({ phone, telephone: phone, email: null, department_name: 'none', name: '手机用户' });
    expect(info.show_name).toBe(`${phone.slice(0, 3)}****${phone.slice(7, 11)}`);
    expect(info.show_name).toMatch(/^1\d{2}\*{4}\d{4}$/);

    const dup = await server.client().post('/api/v1/auth/sign-up', { phone: `+86${phone}`, password: 'passw0rd-ok', name: '重复' });
    expect(dup.status).toBe(200);
    expect((db.prepare('select count(*) as n from users where phone = ?').get(phone) as { n: number }).n).toBe(1);
    expect((await latestMessage(client, phone)).kind).toBe('account_exists');
  });
});

describe('activation links', () => {
  it('an expired link is refused and leaves the account pending', async () => {
    const client = server.client();
    const { account, token } = await signUp(client, { activate: false });
    const user = userRow('email', account)!;
    db.prepare("update auth_tokens set expires_at = ? where user_id = ? and purpose = 'activate'").run(PAST, user.id);
    const res = await client.post('/api/v1/auth/activate', { token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'token_expired', message: '激活链接已过期，请重新获取' });
    expect(userRow('email', account)?.status).toBe('pending');
  });

  it('an unknown but well-formed token is refused', async () => {
    const res = await server.client().post('/api/v1/auth/activate', { token: 'A'.repeat(43) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'token_invalid', message: '激活链接无效' });
  });

  it('a reset token cannot activate (tokens are bound to their purpose)', async () => {
    const client = server.client();
    const { account } = await signUp(client, { activate: false });
    await client.post('/api/v1/auth/forgot-password', { account });
    const { token } = await latestMessage(client, account);
    const res = await client.post('/api/v1/auth/activate', { token });
    expect(res.body.code).toBe('token_invalid');
  });
});

describe('password sign-in', () => {
  it('answers a wrong password and an unknown account alike', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    const wrong = await client.post('/api/v1/auth/sign-in', { account, password: 'wrong-passw0rd' });
    const unknown = await client.post('/api/v1/auth/sign-in', { account: uniqueEmail('ghost'), password: 'wrong-passw0rd' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, code: 'invalid_credentials', message: '账号或密码错误' });
    }
    expect(client.cookies.has('csai_session')).toBe(false);
  });

  it('a disabled account cannot sign in, and its open sessions stop working', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    const id = await signIn(client, account);
    db.prepare("update users set status = 'disabled' where id = ?").run(id);
    const me = await client.get('/api/v1/auth/me');
    expect(me.status).toBe(401);
    expect(me.body.message).toBe('Signature verification failed');
    const res = await server.client().post('/api/v1/auth/sign-in', { account, password: 'passw0rd-ok' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 'account_disabled', message: '账号已停用，请联系管理员' });
  });

  it('issues a fresh session id and CSRF token at every sign-in and ends the one held before', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    // An id planted by someone else before sign-in (session fixation) is never adopted.
    client.cookies.set('csai_session', 'planted-by-attacker-0123456789');
    await client.get('/api/v1/');
    const csrfBefore = client.csrf;
    await signIn(client, account);
    const first = client.cookies.get('csai_session')!;
    expect(first).not.toBe('planted-by-attacker-0123456789');
    expect(client.csrf).toBeTruthy();
    expect(client.csrf).not.toBe(csrfBefore);

    const csrfFirst = client.csrf;
    await signIn(client, account);
    const second = client.cookies.get('csai_session')!;
    expect(second).not.toBe(first);
    expect(client.csrf).not.toBe(csrfFirst);
    expect((await client.get('/api/v1/auth/me')).status).toBe(200);

    const old = new Client(server.url);
    old.cookies.set('csai_session', first);
    const res = await old.get('/api/v1/auth/me');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Signature verification failed');
  });

  it('a password hashed at an older cost is rehashed at the current one on sign-in', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    db.prepare('update users set password_hash = ? where email = ?').run(await hashPassword('passw0rd-ok', 11), account);
    await signIn(client, account);
    const { password_hash } = db.prepare('select password_hash from users where email = ?').get(account) as { password_hash: string };
    expect(password_hash).toMatch(/^scrypt\$12\$8\$1\$/);
    await signIn(server.client(), account);
  });

  it('sets the session cookie httpOnly and SameSite=Lax, the CSRF cookie readable', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    const res = await client.post('/api/v1/auth/sign-in', { account, password: 'passw0rd-ok' });
    const cookies = res.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('csai_session='))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    const xsrf = cookies.filter((c) => c.startsWith('XSRF-TOKEN='));
    expect(xsrf).toHaveLength(1);
    expect(xsrf[0]).not.toMatch(/HttpOnly/i);
  });
});

describe('the two 401 messages', () => {
  it('an unknown or forged session cookie gets "Signature verification failed"', async () => {
    const client = server.client();
    client.cookies.set('csai_session', 'forged-session-id-that-was-never-issued');
    const res = await client.get('/api/v1/auth/me');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, code: 'session_invalid', message: 'Signature verification failed' });
  });

  it('an expired session gets "Signature has expired"', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    const id = await signIn(client, account);
    db.prepare('update sessions set expires_at = ? where user_id = ?').run(new Date(Date.now() - 1000).toISOString(), id);
    const res = await client.get('/api/v1/auth/me');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, code: 'session_expired', message: 'Signature has expired' });
  });

  it('no session at all is a plain 401 asking to sign in', async () => {
    const res = await server.client().get('/api/v1/auth/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, code: 'unauthenticated', message: '请先登录' });
  });
});

describe('sign-in by one-time code', () => {
  const otpRow = (userId: string) =>
    db.prepare('select id, attempts, used_at, expires_at from otp_codes where user_id = ? order by id desc').get(userId) as {
      id: number;
      attempts: number;
      used_at: string | null;
      expires_at: string;
    };
  const userId = (account: string) => userRow(account.includes('@') ? 'email' : 'phone', account)!.id;

  it('sends a six-digit code that signs in once', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    const send = await client.post('/api/v1/auth/otp/send', { account });
    expect(send.status).toBe(200);
    expect(send.body.message).toBe('如果该账号已注册，验证码已发送，10分钟内有效');
    const { code, kind } = await latestMessage(client, account);
    expect(kind).toBe('otp');
    expect(code).toMatch(/^\d{6}$/);

    const ok = await client.post('/api/v1/auth/otp/verify', { account, code });
    expect(ok.status).toBe(200);
    expect(userInfo.parse(ok.body.data).email).toBe(account);
    expect((await client.get('/api/v1/auth/me')).status).toBe(200);

    const reused = await server.client().post('/api/v1/auth/otp/verify', { account, code });
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ success: false, code: 'otp_invalid', message: '验证码错误或已失效，请重新获取' });
  });

  it('a wrong code is refused but the right one still works afterwards', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    await client.post('/api/v1/auth/otp/send', { account });
    const { code } = await latestMessage(client, account);
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await client.post('/api/v1/auth/otp/verify', { account, code: wrong });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('otp_invalid');
    expect(otpRow(userId(account)).attempts).toBe(1);
    expect((await client.post('/api/v1/auth/otp/verify', { account, code })).status).toBe(200);
  });

  it('an expired code is refused', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    await client.post('/api/v1/auth/otp/send', { account });
    const { code } = await latestMessage(client, account);
    db.prepare('update otp_codes set expires_at = ? where user_id = ?').run(PAST, userId(account));
    const res = await client.post('/api/v1/auth/otp/verify', { account, code });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'otp_invalid', message: '验证码错误或已失效，请重新获取' });
    expect(client.cookies.has('csai_session')).toBe(false);
  });

  it('five wrong guesses burn the code, even when sent all at once', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    await client.post('/api/v1/auth/otp/send', { account });
    const { code } = await latestMessage(client, account);
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    const results = await Promise.all([0, 1, 2, 3, 4].map((i) => client.post('/api/v1/auth/otp/verify', { account, code: wrong(i) })));
    expect(results.map((r) => r.status)).toEqual([400, 400, 400, 400, 400]);
    const row = otpRow(userId(account));
    expect(row.attempts).toBe(5);
    expect(row.used_at).not.toBeNull();
    const right = await client.post('/api/v1/auth/otp/verify', { account, code });
    expect(right.status).toBe(400);
    expect(right.body.code).toBe('otp_invalid');
  });

  it('a new code cannot be asked for within 60 seconds, known account or not, and unknown accounts get no message', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    const ghost = uniqueEmail('ghost');
    for (const who of [account, ghost]) {
      const first = await client.post('/api/v1/auth/otp/send', { account: who });
      expect(first.status).toBe(200);
      expect(first.body.message).toBe('如果该账号已注册，验证码已发送，10分钟内有效');
      const again = await client.post('/api/v1/auth/otp/send', { account: who.toUpperCase() });
      expect(again.status).toBe(429);
      expect(again.body).toMatchObject({ success: false, code: 'otp_too_soon', message: '验证码发送过于频繁，请60秒后再试' });
    }
    expect(outboxCount(account, 'otp')).toBe(1);
    expect(outboxCount(ghost)).toBe(0);
    const verify = await client.post('/api/v1/auth/otp/verify', { account: ghost, code: '123456' });
    expect(verify.status).toBe(400);
    expect(verify.body).toMatchObject({ code: 'otp_invalid', message: '验证码错误或已失效，请重新获取' });
  });

  it('a code activates a pending account and voids the password it was signed up with; a disabled one gets no code', async () => {
    const client = server.client();
    const phone = uniquePhone();
    // Someone registered this phone with their own password before its owner did.
    await signUp(server.client(), { phone, activate: false, password: 'squatter-passw0rd' });
    await client.post('/api/v1/auth/otp/send', { account: `+86${phone}` });
    const { code } = await latestMessage(client, phone);
    const res = await client.post('/api/v1/auth/otp/verify', { account: phone, code });
    expect(res.status).toBe(200);
    expect(res.body.message).toContain('忘记密码');
    expect(userRow('phone', phone)?.status).toBe('active');
    const squatter = await server.client().post('/api/v1/auth/sign-in', { account: phone, password: 'squatter-passw0rd' });
    expect(squatter.status).toBe(400);
    expect(squatter.body.code).toBe('invalid_credentials');

    const other = server.client();
    const { account } = await signUp(other);
    db.prepare("update users set status = 'disabled' where email = ?").run(account);
    const send = await other.post('/api/v1/auth/otp/send', { account });
    expect(send.status).toBe(200);
    expect(outboxCount(account, 'otp')).toBe(0);
  });
});

describe('one-time code daily cap', () => {
  it('after 10 codes in a day no more are sent, with the same answer as always', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    const id = userRow('email', account)!.id;
    const insert = db.prepare('insert into otp_codes (user_id, code_hash, created_at, expires_at, used_at, attempts) values (?, ?, ?, ?, ?, 0)');
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    for (let i = 0; i < 10; i++) insert.run(id, `old-${i}`, hourAgo, hourAgo, hourAgo);
    const res = await client.post('/api/v1/auth/otp/send', { account });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('如果该账号已注册，验证码已发送，10分钟内有效');
    expect(outboxCount(account, 'otp')).toBe(0);
  });
});

describe('forgot and reset password', () => {
  it('reset ends every session; the old password stops working, the new one works, the link works once', async () => {
    const owner = server.client();
    const { account } = await signUp(owner);
    await signIn(owner, account);
    const otherDevice = server.client();
    await signIn(otherDevice, account);

    const helper = server.client();
    const forgot = await helper.post('/api/v1/auth/forgot-password', { account: account.toUpperCase() });
    expect(forgot.status).toBe(200);
    expect(forgot.body.message).toBe('如果该账号已注册，重置密码链接已发送');
    const msg = await latestMessage(helper, account);
    expect(msg.kind).toBe('reset');
    expect(msg.body).toMatch(/#pswd_transit=/);

    const reset = await helper.post('/api/v1/auth/reset-password', { token: msg.token, password: 'brand-new-passw0rd' });
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe('密码已重置，请使用新密码登录');

    for (const client of [owner, otherDevice]) {
      const me = await client.get('/api/v1/auth/me');
      expect(me.status).toBe(401);
      expect(me.body.message).toBe('Signature verification failed');
    }
    const old = await server.client().post('/api/v1/auth/sign-in', { account, password: 'passw0rd-ok' });
    expect(old.status).toBe(400);
    expect(old.body.code).toBe('invalid_credentials');
    await signIn(server.client(), account, 'brand-new-passw0rd');

    const reuse = await server.client().post('/api/v1/auth/reset-password', { token: msg.token, password: 'another-passw0rd' });
    expect(reuse.status).toBe(400);
    expect(reuse.body).toMatchObject({ success: false, code: 'token_used', message: '重置密码链接已使用过' });
    await signIn(server.client(), account, 'brand-new-passw0rd');
  });

  it('using one reset link retires the others sent before it', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    await client.post('/api/v1/auth/forgot-password', { account });
    const first = await latestMessage(client, account);
    await client.post('/api/v1/auth/forgot-password', { account });
    const second = await latestMessage(client, account);
    expect(second.token).not.toBe(first.token);
    expect((await client.post('/api/v1/auth/reset-password', { token: second.token, password: 'second-passw0rd' })).status).toBe(200);
    const res = await client.post('/api/v1/auth/reset-password', { token: first.token, password: 'first-passw0rd1' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('token_used');
    await signIn(client, account, 'second-passw0rd');
  });

  it('two parallel resets with one link: exactly one wins', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    await client.post('/api/v1/auth/forgot-password', { account });
    const { token } = await latestMessage(client, account);
    const [a, b] = await Promise.all([
      server.client().post('/api/v1/auth/reset-password', { token, password: 'parallel-pass1' }),
      server.client().post('/api/v1/auth/reset-password', { token, password: 'parallel-pass2' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
  });

  it('an expired reset link is refused and the password stays', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    await client.post('/api/v1/auth/forgot-password', { account });
    const { token } = await latestMessage(client, account);
    db.prepare("update auth_tokens set expires_at = ? where purpose = 'reset' and user_id = (select id from users where email = ?)").run(PAST, account);
    const res = await client.post('/api/v1/auth/reset-password', { token, password: 'never-set-passw0rd' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'token_expired', message: '重置密码链接已过期，请重新获取' });
    await signIn(client, account);
  });

  it('at most 5 reset links an hour reach one mailbox, however many addresses ask', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    for (let i = 0; i < 7; i++) {
      const res = await server.client().post('/api/v1/auth/forgot-password', { account });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('如果该账号已注册，重置密码链接已发送');
    }
    expect(outboxCount(account, 'reset')).toBe(5);
  });

  it('an unknown account gets the same answer and no message', async () => {
    const ghost = uniqueEmail('ghost');
    const res = await server.client().post('/api/v1/auth/forgot-password', { account: ghost });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('如果该账号已注册，重置密码链接已发送');
    expect(outboxCount(ghost)).toBe(0);
  });
});

describe('sign-out', () => {
  it('ends the session on the server: the old cookie is refused afterwards', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    const id = await signIn(client, account);
    const cookie = client.cookies.get('csai_session')!;
    const out = await client.post('/api/v1/auth/sign-out');
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true, data: null, message: '登出成功' });
    expect(client.cookies.has('csai_session')).toBe(false);
    expect((db.prepare('select count(*) as n from sessions where user_id = ?').get(id) as { n: number }).n).toBe(0);

    const replay = new Client(server.url);
    replay.cookies.set('csai_session', cookie);
    const me = await replay.get('/api/v1/auth/me');
    expect(me.status).toBe(401);
    expect(me.body.message).toBe('Signature verification failed');
  });

  it('signed out already: still answers success', async () => {
    const res = await server.client().post('/api/v1/auth/sign-out');
    expect(res.status).toBe(200);
  });
});

describe('GET /api/v1/auth/me', () => {
  it('names the department when the user has one', async () => {
    const client = server.client();
    const { account } = await signUp(client);
    const id = await signIn(client, account);
    db.prepare("insert into departments (id, name, created_at) values ('dept-me', '药物化学部', ?)").run(new Date().toISOString());
    db.prepare("update users set department_id = 'dept-me', is_admin = 1 where id = ?").run(id);
    const me = await client.get('/api/v1/auth/me');
    expect(userInfo.parse(me.body.data)).toMatchObject({ id, department_name: '药物化学部', is_admin: true });
  });
});
