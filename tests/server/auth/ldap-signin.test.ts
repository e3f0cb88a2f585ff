import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeFilterValue, userFilter } from '../../../src/server/auth/directory';
import { loadConfig } from '../../../src/server/config';
import { latestMessage, signedInUser, startServer, type TestServer } from '../helpers';
import { ADMIN_DN, ADMIN_PASSWORD, freePort, PEOPLE, SLAPD, silentServer, startSlapd } from '../ldap-server';
import { testTools } from '../tool-stand-ins';

type User = { id: string; name: string; email: string | null; department_name: string };
type Entry = { value: string; enabled: boolean; ldap_disabled: boolean };

const ZHANG = { uid: 'zhangsan', cn: '张三', sn: '张', mail: 'zhangsan@example.com', ou: '药物化学部', password: 'Dir-pass-1' };
const LI = { uid: 'lisi', cn: '李四', sn: '李', mail: 'lisi@example.com', ou: '药理部', password: 'Dir-pass-2' };
const WANG = { uid: 'wangwu', cn: '王五', sn: '王', mail: 'wangwu@example.com', password: 'Dir-pass-3' };
const ZHAO = { uid: 'zhaoliu', cn: '赵六', sn: '赵', mail: 'zhaoliu@example.com', password: 'Dir-pass-4' };

const WRONG = { status: 400, code: 'invalid_credentials', message: '账号或密码错误' };
const DOWN = { status: 503, code: 'directory_unavailable', message: '单位目录服务（LDAP）暂时无法连接，请稍后再试或联系管理员' };

describe('RFC 4515 filter values', () => {
  it('escapes the filter metacharacters, NUL and backslash, and keeps Chinese as it is', () => {
    expect(escapeFilterValue('*)(uid=*')).toBe('\\2a\\29\\28uid=\\2a');
    expect(escapeFilterValue('a\u0000b')).toBe('a\\00b');
    expect(escapeFilterValue('C:\\dir')).toBe('C:\\5cdir');
    expect(escapeFilterValue('张三')).toBe('张三');
    expect(userFilter('(|(uid={account})(mail={account}))', 'x*')).toBe('(|(uid=x\\2a)(mail=x\\2a))');
  });
});

describe('directory settings', () => {
  it('refuses settings that cannot work, naming the variable', () => {
    expect(() => loadConfig({ LDAP_URL: 'ldap://127.0.0.1:389' })).toThrowError(/LDAP_USER_BASE: required/);
    expect(() => loadConfig({ LDAP_URL: 'http://dir.example.com', LDAP_USER_BASE: 'dc=x' })).toThrowError(/LDAP_URL/);
    expect(() => loadConfig({ LDAP_URL: 'ldap://h', LDAP_USER_BASE: 'dc=x', LDAP_USER_FILTER: '(uid=fixed)' })).toThrowError(/LDAP_USER_FILTER.*\{account\}/);
    expect(() => loadConfig({ LDAP_URL: 'ldap://h', LDAP_USER_BASE: 'dc=x', LDAP_BIND_DN: 'cn=admin' })).toThrowError(/LDAP_BIND_PASSWORD/);
    expect(() => loadConfig({ LDAP_URL: 'ldaps://h', LDAP_USER_BASE: 'dc=x', LDAP_STARTTLS: '1' })).toThrowError(/LDAP_STARTTLS/);
    expect(() => loadConfig({ LDAP_DISABLED_TOOLS: 'admet,teleport' })).toThrowError(/LDAP_DISABLED_TOOLS/);
    expect(() => loadConfig({ CSAI_LOCAL_SIGNUP: 'maybe' })).toThrowError(/CSAI_LOCAL_SIGNUP/);
  });

  it('has defaults: no directory, sign-up on, uid filter, 5 s', () => {
    const c = loadConfig({});
    expect(c.LDAP_URL).toBeUndefined();
    expect(c).toMatchObject({ CSAI_LOCAL_SIGNUP: true, LDAP_USER_FILTER: '(uid={account})', LDAP_TIMEOUT_MS: 5000, LDAP_DISABLED_TOOLS: [] });
    expect(loadConfig({ LDAP_DISABLED_TOOLS: ' admet , code_execution ' }).LDAP_DISABLED_TOOLS).toEqual(['admet', 'code_execution']);
  });
});

const hasSlapd = fs.existsSync(SLAPD);
if (!hasSlapd) console.warn(`${SLAPD} is missing (apt-get install slapd ldap-utils): the directory sign-in tests cannot run`);

describe.runIf(hasSlapd)('directory sign-in against a real slapd', () => {
  let slapd: Awaited<ReturnType<typeof startSlapd>>;
  let server: TestServer;
  const ldapEnv = (over: Record<string, string> = {}) => ({
    LDAP_URL: slapd.url,
    LDAP_BIND_DN: ADMIN_DN,
    LDAP_BIND_PASSWORD: ADMIN_PASSWORD,
    LDAP_USER_BASE: PEOPLE,
    LDAP_USER_FILTER: '(&(objectClass=inetOrgPerson)(uid={account}))',
    LDAP_TIMEOUT_MS: '2000',
    LDAP_DISABLED_TOOLS: 'admet',
    ...over,
  });

  beforeAll(async () => {
    slapd = await startSlapd([ZHANG, LI, WANG, ZHAO]);
    server = await startServer(ldapEnv(), undefined, { tools: testTools() });
  });
  afterAll(async () => {
    await server?.close();
    await slapd?.stop();
  });

  const signIn = (account: string, password: string, s = server) => s.client().post<User>('/api/v1/auth/sign-in', { account, password });
  const expectError = (res: { status: number; body: { code?: string; message: string } }, want: { status: number; code: string; message: string }) => {
    expect({ status: res.status, code: res.body.code, message: res.body.message }).toEqual(want);
  };

  describe('a directory user', () => {
    it('signs in with the directory password; the account is made with name, e-mail and department from the directory', async () => {
      const client = server.client();
      const res = await client.post<User>('/api/v1/auth/sign-in', { account: 'zhangsan', password: ZHANG.password });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ name: '张三', email: 'zhangsan@example.com', department_name: '药物化学部' });
      const me = await client.get<User>('/api/v1/auth/me');
      expect(me.body.data.id).toBe(res.body.data.id);
      const db = server.sqlite();
      try {
        const row = db.prepare("select auth_source, directory_account, status, password_hash from users where directory_account = 'zhangsan'").get() as Record<string, string>;
        expect(row).toMatchObject({ auth_source: 'ldap', directory_account: 'zhangsan', status: 'active' });
        expect(row.password_hash).not.toMatch(/^scrypt\$/);
        expect(db.prepare("select count(*) as n from departments where name = '药物化学部'").get()).toEqual({ n: 1 });
      } finally {
        db.close();
      }
    });

    it('signing in again updates the same account from the directory (name and department changed there)', async () => {
      const first = await signIn('lisi', LI.password);
      expect(first.status).toBe(200);
      const db = server.sqlite();
      try {
        // Someone edited the local copy; the directory wins at the next sign-in.
        db.prepare("update users set name = '旧名字', department_id = null where directory_account = 'lisi'").run();
      } finally {
        db.close();
      }
      const second = await signIn('lisi', LI.password);
      expect(second.status).toBe(200);
      expect(second.body.data).toMatchObject({ id: first.body.data.id, name: '李四', department_name: '药理部' });
      const check = server.sqlite();
      try {
        expect(check.prepare("select count(*) as n from users where directory_account = 'lisi'").get()).toEqual({ n: 1 });
      } finally {
        check.close();
      }
    });

    it('a wrong directory password gets exactly the answer of a wrong local password (no enumeration)', async () => {
      const local = await signedInUser(server);
      const wrongLocal = await signIn(local.email, 'not-the-password1');
      const wrongDirectory = await signIn('wangwu', 'not-the-password1');
      const unknown = await signIn('no-such-person', 'not-the-password1');
      expectError(wrongLocal, WRONG);
      expectError(wrongDirectory, WRONG);
      expectError(unknown, WRONG);
      const db = server.sqlite();
      try {
        expect(db.prepare("select count(*) as n from users where directory_account = 'wangwu'").get()).toEqual({ n: 0 });
      } finally {
        db.close();
      }
    });

    it('cannot sign in with a local password, and a disabled account stays disabled', async () => {
      expect((await signIn('zhaoliu', ZHAO.password)).status).toBe(200);
      // The e-mail finds the local record, but it has no local password: wrong, like any other.
      expectError(await signIn('zhaoliu@example.com', ZHAO.password), WRONG);
      const db = server.sqlite();
      try {
        db.prepare("update users set status = 'disabled' where directory_account = 'zhaoliu'").run();
      } finally {
        db.close();
      }
      const res = await signIn('zhaoliu', ZHAO.password);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('账号已停用，请联系管理员');
    });
  });

  describe('what is typed as the account cannot widen the search', () => {
    it('wildcards and filter syntax are literal: "zhang*" and "zhangsan)(uid=*" do not sign in as zhangsan', async () => {
      for (const account of ['zhang*', '*', 'zhangsan)(uid=*', '*)(uid=*', 'zhangsan)(|(uid=*', '\\7a\\68angsan']) {
        expectError(await signIn(account, ZHANG.password), WRONG);
      }
    });

    it('NUL and other control characters are refused before the directory is asked', async () => {
      const res = await signIn('zhangsan\u0000', ZHANG.password);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('账号包含非法字符');
    });

    it('non-ASCII accounts work where the filter allows them (a Chinese cn)', async () => {
      const byName = await startServer(ldapEnv({ LDAP_USER_FILTER: '(|(uid={account})(cn={account}))' }));
      try {
        const res = await signIn('张三', ZHANG.password, byName);
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ name: '张三', department_name: '药物化学部' });
        expectError(await signIn('张*', ZHANG.password, byName), WRONG);
        expectError(await signIn('张三', 'wrong-password-9', byName), WRONG);
      } finally {
        await byName.close();
      }
    });
  });

  describe('passwords are the directory\'s', () => {
    it('forgot-password sends no reset link to a directory account, but a note that the directory manages the password', async () => {
      const client = server.client();
      const res = await client.post('/api/v1/auth/forgot-password', { account: 'zhangsan@example.com' });
      expect(res.status).toBe(200);
      expect(res.body.message).toContain('单位目录（LDAP）账号的密码由单位目录管理');
      const msg = await latestMessage(client, 'zhangsan@example.com');
      expect(msg.kind).toBe('reset_directory');
      expect(msg.token).toBeUndefined();
      expect(msg.body).toContain('密码由单位目录管理');
    });

    it('a reset link that reached a directory account anyway does not set a local password', async () => {
      // Such a link can only predate the directory (issued to the account before it was a directory one).
      const token = 'directory-reset-token-0123456789';
      const db = server.sqlite();
      try {
        const { id } = db.prepare("select id from users where directory_account = 'zhangsan'").get() as { id: string };
        const hash = createHash('sha256').update(token).digest('base64url');
        db.prepare("insert into auth_tokens (token_hash, user_id, purpose, created_at, expires_at, used_at) values (?, ?, 'reset', ?, ?, null)")
          .run(hash, id, new Date().toISOString(), new Date(Date.now() + 3600_000).toISOString());
      } finally {
        db.close();
      }
      const res = await server.client().post('/api/v1/auth/reset-password', { token, password: 'New-passw0rd' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'directory_password', message: '该账号通过单位目录（LDAP）登录，密码由单位目录管理，请通过单位的密码服务或IT部门修改' });
      expectError(await signIn('zhangsan@example.com', 'New-passw0rd'), WRONG);
      expect((await signIn('zhangsan', ZHANG.password)).status).toBe(200);
    });
  });

  describe('SPEC §6 ldap_disabled', () => {
    it('greys out LDAP_DISABLED_TOOLS for directory users only, and refuses to run them for them', async () => {
      const directoryUser = server.client();
      await directoryUser.post('/api/v1/auth/sign-in', { account: 'zhangsan', password: ZHANG.password });
      const local = await signedInUser(server);
      const entries = async (c: typeof directoryUser) =>
        new Map((await c.get<Array<{ tools: Entry[] }>>('/api/v1/tools')).body.data.flatMap((g) => g.tools).map((t) => [t.value, t]));
      const forDirectory = await entries(directoryUser);
      const forLocal = await entries(local.client);
      expect(forDirectory.get('admet')?.ldap_disabled).toBe(true);
      expect(forLocal.get('admet')?.ldap_disabled).toBe(false);
      expect([...forDirectory.values()].filter((t) => t.ldap_disabled).map((t) => t.value)).toEqual(['admet']);

      // Run through MCP with each user's API token: the directory user is refused, the local one is not.
      const mcp = async (c: typeof directoryUser) => {
        const token = (await c.post<{ token: string }>('/api/v1/auth/tokens', { name: 'MCP' })).body.data.token;
        const client = new McpClient({ name: 'csai-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
        return client;
      };
      const asDirectory = await mcp(directoryUser);
      const asLocal = await mcp(local.client);
      try {
        expect((await asDirectory.listTools()).tools.map((t) => t.name)).not.toContain('admet');
        expect((await asLocal.listTools()).tools.map((t) => t.name)).toContain('admet');
        const refused = await asDirectory.callTool({ name: 'admet', arguments: { molecules: ['CCO'] } });
        expect(refused.isError).toBe(true);
        expect(refused.content).toEqual([{ type: 'text', text: '“ADMET计算”不可用：管理员已为单位目录（LDAP）账号停用此工具，如需使用请联系管理员。' }]);
        const allowed = await asLocal.callTool({ name: 'admet', arguments: { molecules: ['CCO'] } });
        expect(allowed.isError).toBe(false);
      } finally {
        await asDirectory.close();
        await asLocal.close();
      }
    });
  });

  describe('TLS', () => {
    it('signs in over LDAPS and over StartTLS with the configured CA; a certificate it cannot verify is refused', async () => {
      const secure = await startSlapd([ZHANG], { tls: true });
      const servers: TestServer[] = [];
      const start = async (over: Record<string, string>) => {
        const s = await startServer(ldapEnv({ LDAP_BIND_DN: '', LDAP_BIND_PASSWORD: '', ...over }));
        servers.push(s);
        return s;
      };
      try {
        const ldaps = await start({ LDAP_URL: secure.ldapsUrl!, LDAP_TLS_CA: secure.caFile! });
        expect((await signIn('zhangsan', ZHANG.password, ldaps)).status).toBe(200);
        const startTls = await start({ LDAP_URL: secure.url, LDAP_STARTTLS: '1', LDAP_TLS_CA: secure.caFile! });
        expect((await signIn('zhangsan', ZHANG.password, startTls)).status).toBe(200);
        // The system CAs do not know the test CA: no sign-in over a connection that may be intercepted.
        const untrusted = await start({ LDAP_URL: secure.ldapsUrl! });
        expectError(await signIn('zhangsan', ZHANG.password, untrusted), DOWN);
      } finally {
        for (const s of servers) await s.close();
        await secure.stop();
      }
    });

    it('an unreadable LDAP_TLS_CA stops the start with its name', async () => {
      await expect(startServer(ldapEnv({ LDAP_TLS_CA: '/nonexistent/ca.pem' }))).rejects.toThrowError(/LDAP_TLS_CA: cannot read \/nonexistent\/ca.pem/);
    });
  });

  describe('when the directory is unreachable', () => {
    it('a directory that is down is answered at once with a clear message; local accounts still sign in', async () => {
      const port = await freePort(); // nothing listens there
      const down = await startServer(ldapEnv({ LDAP_URL: `ldap://127.0.0.1:${port}` }));
      try {
        expectError(await signIn('zhangsan', ZHANG.password, down), DOWN);
        const local = await signedInUser(down);
        expect((await signIn(local.email, local.password, down)).status).toBe(200);
      } finally {
        await down.close();
      }
    });

    it('a directory that accepts and never answers is given up after LDAP_TIMEOUT_MS, not waited for', async () => {
      const silent = await silentServer();
      const hung = await startServer(ldapEnv({ LDAP_URL: silent.url, LDAP_TIMEOUT_MS: '500' }));
      try {
        const started = Date.now();
        const res = await signIn('zhangsan', ZHANG.password, hung);
        const took = Date.now() - started;
        expectError(res, DOWN);
        expect(took).toBeGreaterThanOrEqual(450);
        expect(took).toBeLessThan(5000);
        // The connection it opened is closed again.
        await new Promise((r) => setTimeout(r, 100));
        expect(silent.connections()).toBe(0);
      } finally {
        await hung.close();
        await silent.close();
      }
    });
  });

  describe('local sign-up turned off', () => {
    it('sign-up is refused with a message naming the directory, and the options say so', async () => {
      const closed = await startServer(ldapEnv({ CSAI_LOCAL_SIGNUP: '0' }));
      try {
        const client = closed.client();
        expect((await client.get('/api/v1/auth/options')).body.data).toEqual({ local_signup: false, directory: true });
        const res = await client.post('/api/v1/auth/sign-up', { email: 'someone@example.com', password: 'passw0rd-ok', name: '某人' });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ code: 'signup_disabled', message: '本站已关闭自助注册，请直接使用单位统一账号（LDAP）登录' });
        const db = closed.sqlite();
        try {
          expect(db.prepare('select count(*) as n from users').get()).toEqual({ n: 0 });
        } finally {
          db.close();
        }
        expect((await signIn('zhangsan', ZHANG.password, closed)).status).toBe(200);
      } finally {
        await closed.close();
      }
    });

    it('without a directory, sign-up off sends people to the administrator; on by default', async () => {
      const closed = await startServer({ CSAI_LOCAL_SIGNUP: '0' });
      const open = await startServer();
      try {
        const res = await closed.client().post('/api/v1/auth/sign-up', { email: 'someone@example.com', password: 'passw0rd-ok', name: '某人' });
        expect(res.body).toMatchObject({ code: 'signup_disabled', message: '本站已关闭自助注册，请联系管理员开通账号' });
        expect((await open.client().get('/api/v1/auth/options')).body.data).toEqual({ local_signup: true, directory: false });
      } finally {
        await closed.close();
        await open.close();
      }
    });
  });
});
