import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userInfo } from '../../../src/contract/auth';
import { openSqlite, startServer, uniqueEmail, uniquePhone, type TestServer } from '../helpers';
import { fromSources } from '../server-process';
import { testDatabaseUrl } from '../postgres-harness';

const ROOT = path.resolve(__dirname, '../../..');
let dataDir: string;
let server: TestServer;

/** Runs the account CLI (`npm run user -- …` when viaNpm, else the same script from the sources: server-process.ts fromSources). */
async function cli(args: string[], viaNpm = false): Promise<{ code: number; stdout: string; stderr: string }> {
  const databaseUrl = await testDatabaseUrl(dataDir);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, CSAI_DATA_DIR: dataDir, CSAI_PASSWORD_COST: '12', npm_config_update_notifier: 'false', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const [cmd, argv] = viaNpm
    ? ['npm', ['run', '--silent', 'user', '--', ...args]]
    : [process.execPath, [...fromSources('cli/user'), ...args]];
  return new Promise((resolve) => {
    execFile(cmd, argv, { cwd: ROOT, env, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-cli-'));
  server = await startServer({}, dataDir);
});
afterAll(async () => {
  await server.close();
});

describe('npm run user', () => {
  it('creates an administrator with a generated password that signs in over HTTP', async () => {
    const email = uniqueEmail('Admin');
    const res = await cli(['create', '--admin', '--email', email, '--name', '管理员', '--department', '研发中心'], true);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`created administrator ${email.toLowerCase()}`);
    const password = /password: (\S+)/.exec(res.stdout)?.[1];
    expect(password).toMatch(/^(?=.*[A-Za-z])(?=.*\d).{12,}$/);

    const client = server.client();
    const signIn = await client.post('/api/v1/auth/sign-in', { account: email, password });
    expect(signIn.status).toBe(200);
    expect(userInfo.parse(signIn.body.data)).toMatchObject({ email: email.toLowerCase(), name: '管理员', is_admin: true, department_name: '研发中心' });
    // The administrator can do what only administrators can.
    const put = await client.request('PUT', '/api/v1/prompt/alert', { body: { is_show: true, content: '欢迎使用' } });
    expect(put.status).toBe(200);
  });

  it('creates a phone user with a given password, active at once', async () => {
    const phone = uniquePhone();
    const res = await cli(['create', '--phone', `+86 ${phone}`, '--name', '手机管理员', '--password', 'given-passw0rd']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`created user ${phone}`);
    expect(res.stdout).not.toContain('password:');
    const client = server.client();
    const signIn = await client.post('/api/v1/auth/sign-in', { account: phone, password: 'given-passw0rd' });
    expect(signIn.status).toBe(200);
    expect(userInfo.parse(signIn.body.data)).toMatchObject({ phone, is_admin: false });
  });

  it('a bad --email exits 2 with a message and creates nothing', async () => {
    const res = await cli(['create', '--admin', '--email', 'not-an-email', '--name', '管理员']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--email: 邮箱格式不正确');
    expect(res.stderr).not.toMatch(/\n\s+at /);
    const db = openSqlite(dataDir);
    expect((db.prepare("select count(*) as n from users where email like 'not-an-email%'").get() as { n: number }).n).toBe(0);
    db.close();
  });

  it.each([
    [['create', '--name', '无账号'], 'exactly one of --email or --phone'],
    [['create', '--email', 'a@b.com', '--phone', '13812345678', '--name', 'x'], 'exactly one of --email or --phone'],
    [['create', '--email', 'weak@example.com', '--name', 'x', '--password', 'short'], '--password'],
    [['create', '--email', 'noname@example.com'], '--name'],
    [['create', '--email', 'a@b.com', '--bogus'], 'bogus'],
    [['frobnicate'], 'commands:'],
  ])('usage error %j exits 2', async (args, text) => {
    const res = await cli(args);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(text);
  });

  it('a duplicate account exits 2 and leaves the first one as it was', async () => {
    const email = uniqueEmail('dup');
    expect((await cli(['create', '--email', email, '--name', '第一个', '--password', 'first-passw0rd'])).code).toBe(0);
    const res = await cli(['create', '--admin', '--email', email.toUpperCase(), '--name', '第二个', '--password', 'second-passw0rd']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`account already exists: ${email.toLowerCase()}`);
    const signIn = await server.client().post('/api/v1/auth/sign-in', { account: email, password: 'first-passw0rd' });
    expect(signIn.status).toBe(200);
    expect(userInfo.parse(signIn.body.data)).toMatchObject({ name: '第一个', is_admin: false });
  });
});
