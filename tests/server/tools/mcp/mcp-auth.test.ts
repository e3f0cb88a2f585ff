import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerView } from '../../../../src/contract/mcp-servers';
import { signedInUser, startServer, type Client, type TestServer } from '../../helpers';
import { startMcpHttpServer } from '../../mcp-test-server';
import { testTools } from '../../tool-stand-ins';

// MCP servers that require authentication: a Bearer token or a header of the
// administrator's choosing, sent on every Streamable HTTP / SSE request, stored encrypted and
// shown only masked. The remote servers are real SDK servers that answer 401 without the header.

const API = '/api/v1/mcp_servers';
const TOKEN = 'tok-0123456789abcdef';
const KEY = 'key-abcdefghijklmnop';
const SECRET = 'a-server-secret-for-the-mcp-auth-test';

let bearerRemote: Awaited<ReturnType<typeof startMcpHttpServer>>;
let keyRemote: Awaited<ReturnType<typeof startMcpHttpServer>>;
let server: TestServer;
let dataDir: string;
let env: Record<string, string>;
let admin: Client;
let alice: Client;

const adminOf = async (s: TestServer) => {
  const a = await signedInUser(s);
  const db = s.sqlite();
  db.prepare('update users set is_admin = 1 where id = ?').run(a.id);
  db.close();
  return a.client;
};
const rows = () => {
  const db = server.sqlite();
  try {
    return db.prepare('select name, auth_type, auth_header, auth_secret from mcp_servers order by name').all() as Array<{ name: string; auth_type: string | null; auth_header: string | null; auth_secret: string | null }>;
  } finally {
    db.close();
  }
};
const byName = async (client: Client, name: string) => (await client.get<McpServerView[]>(API)).body.data.find((s) => s.name === name)!;

beforeAll(async () => {
  [bearerRemote, keyRemote] = await Promise.all([
    startMcpHttpServer({ requireHeader: { name: 'Authorization', value: `Bearer ${TOKEN}` } }),
    startMcpHttpServer({ requireHeader: { name: 'X-API-Key', value: KEY } }),
  ]);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-mcp-auth-'));
  const configFile = path.join(dataDir, 'mcp.json');
  // The operator's own server, with its token in the configuration file.
  fs.writeFileSync(configFile, JSON.stringify({ servers: [{ name: 'ops', transport: 'http', url: bearerRemote.url, auth: { type: 'bearer', token: TOKEN } }] }));
  env = { CSAI_MCP_ALLOWED_HOSTS: '127.0.0.1', CSAI_MCP_CONFIG: configFile, CSAI_SECRET: SECRET };
  server = await startServer(env, dataDir, { tools: testTools() });
  admin = await adminOf(server);
  alice = (await signedInUser(server)).client;
});
afterAll(async () => {
  await server?.close();
  await Promise.all([bearerRemote?.kill(), keyRemote?.kill()]);
});

describe('adding an MCP server that requires authentication', () => {
  it('without authentication: refused with what to set, nothing kept', async () => {
    const res = await admin.post(API, { name: 'calc', transport: 'http', url: bearerRemote.url });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('无法连接 MCP 服务器：服务器要求认证（HTTP 401）：请为它设置认证（Bearer 令牌或自定义请求头）');
    expect(rows()).toEqual([]);
  });

  it('with a wrong token: refused, saying the token was not accepted', async () => {
    const res = await admin.post(API, { name: 'calc', transport: 'http', url: bearerRemote.url, auth: { type: 'bearer', token: 'tok-wrong-0000000000' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('无法连接 MCP 服务器：认证失败（HTTP 401）：服务器不接受所设置的 Bearer 令牌，请检查它是否正确或已过期');
    expect(rows()).toEqual([]);
  });

  it('with its Bearer token (Streamable HTTP): connected; the token is stored encrypted and only ever shown masked', async () => {
    const res = await admin.post<McpServerView>(API, { name: 'calc', transport: 'http', url: bearerRemote.url, auth: { type: 'bearer', token: TOKEN } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'calc', status: 'ready', auth: { type: 'bearer', header: 'Authorization', hint: '••••cdef' } });
    expect(res.body.data.tools.map((t) => t.remote_name)).toContain('add');
    const list = await admin.get(API);
    for (const text of [JSON.stringify(res.body), JSON.stringify(list.body)]) expect(text).not.toContain(TOKEN);
    const [row] = rows().filter((r) => r.name === 'calc');
    expect(row).toMatchObject({ auth_type: 'bearer', auth_header: 'Authorization', auth_secret: expect.stringMatching(/^v1\./) });
    expect(row!.auth_secret).not.toContain(TOKEN);
    const tools = (await alice.get<Array<{ id: string; tools: Array<{ value: string; enabled: boolean }> }>>('/api/v1/tools')).body.data.find((g) => g.id === 'mcp:calc')!;
    expect(tools.tools.every((t) => t.enabled)).toBe(true);
  });

  it('with a custom header over SSE: the header goes with the event stream and every message', async () => {
    const before = keyRemote.rejected;
    const res = await admin.post<McpServerView>(API, { name: 'keyed', title: '带密钥', transport: 'sse', url: keyRemote.sseUrl, auth: { type: 'header', name: 'X-API-Key', value: KEY } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'ready', transport: 'sse', auth: { type: 'header', header: 'X-API-Key', hint: '••••mnop' } });
    expect(res.body.data.tools).toHaveLength(4);
    expect(keyRemote.rejected).toBe(before);
    expect(JSON.stringify((await admin.get(API)).body)).not.toContain(KEY);
  });

  it('a short secret is masked entirely', async () => {
    const remote = await startMcpHttpServer({ requireHeader: { name: 'X-Token', value: 'short' } });
    try {
      const res = await admin.post<McpServerView>(API, { name: 'short', transport: 'http', url: remote.url, auth: { type: 'header', name: 'X-Token', value: 'short' } });
      expect(res.body.data).toMatchObject({ status: 'ready', auth: { hint: '••••' } });
      expect((await admin.request('DELETE', `${API}/${res.body.data.id}`)).status).toBe(200);
    } finally {
      await remote.kill();
    }
  });

  it.each([
    ['an unknown kind', { type: 'basic', token: 'x' }, '认证方式只能是 bearer（Bearer 令牌）或 header（自定义请求头）'],
    ['an empty token', { type: 'bearer', token: '  ' }, '令牌不能为空'],
    ['a token with a space', { type: 'bearer', token: 'two words' }, '令牌只能包含可见的 ASCII 字符'],
    ['a token in Chinese', { type: 'bearer', token: '令牌令牌' }, '令牌只能包含可见的 ASCII 字符'],
    ['a token of 5000 characters', { type: 'bearer', token: 'x'.repeat(5000) }, '令牌不能超过4096个字符'],
    ['a header name with a space', { type: 'header', name: 'X Key', value: 'v' }, '请求头名称只能包含英文字母、数字'],
    ['a header the connection sets itself', { type: 'header', name: 'Host', value: 'evil.example' }, '该请求头由连接本身使用'],
    ['the MCP session header', { type: 'header', name: 'Mcp-Session-Id', value: 'x' }, '该请求头由连接本身使用'],
    ['a value that injects a header', { type: 'header', name: 'X-Key', value: 'v\r\nX-Evil: 1' }, '请求头的值只能包含可见的 ASCII 字符和空格'],
    ['a header without its value', { type: 'header', name: 'X-Key' }, '请填写请求头的值'],
    ['an extra field', { type: 'bearer', token: 'abc', header: 'X-Other' }, ''],
  ])('refuses %s in Chinese and keeps nothing', async (_what, auth, message) => {
    const before = rows();
    const res = await admin.post(API, { name: 'bad', transport: 'http', url: bearerRemote.url, auth });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect(rows()).toEqual(before);
  });
});

describe('changing the authentication of a stored server', () => {
  it('a revoked key marks the server down with a clear reason; setting the new key brings it back', async () => {
    const keyed = await byName(admin, 'keyed');
    keyRemote.requireHeader({ name: 'X-API-Key', value: 'key-rotated-0000000000' });
    const down = await admin.post<McpServerView>(`${API}/${keyed.id}/reconnect`);
    expect(down.body.data).toMatchObject({ status: 'down', reason: '无法连接 MCP 服务器：认证失败（HTTP 401）：服务器不接受所设置的请求头 X-API-Key，请检查它是否正确或已过期' });
    const group = (await alice.get<Array<{ id: string; tools: Array<{ enabled: boolean; description: string }> }>>('/api/v1/tools')).body.data.find((g) => g.id === 'mcp:keyed')!;
    expect(group.tools.every((t) => !t.enabled && t.description.includes('认证失败（HTTP 401）'))).toBe(true);

    const res = await admin.request<McpServerView>('PUT', `${API}/${keyed.id}/auth`, { body: { auth: { type: 'header', name: 'X-API-Key', value: 'key-rotated-0000000000' } } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('MCP 服务器的认证已更新');
    expect(res.body.data).toMatchObject({ status: 'ready', auth: { header: 'X-API-Key', hint: '••••0000' } });
    expect(rows().find((r) => r.name === 'keyed')!.auth_secret).not.toContain('key-rotated');
  });

  it('removing it: stored without authentication, and down because the server requires some', async () => {
    const calc = await byName(admin, 'calc');
    const res = await admin.request<McpServerView>('PUT', `${API}/${calc.id}/auth`, { body: { auth: null } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('MCP 服务器的认证已取消');
    expect(res.body.data.auth).toBeUndefined();
    expect(res.body.data).toMatchObject({ status: 'down', reason: expect.stringContaining('服务器要求认证（HTTP 401）') });
    expect(rows().find((r) => r.name === 'calc')).toEqual({ name: 'calc', auth_type: null, auth_header: null, auth_secret: null });
    const back = await admin.request<McpServerView>('PUT', `${API}/${calc.id}/auth`, { body: { auth: { type: 'bearer', token: TOKEN } } });
    expect(back.body.data.status).toBe('ready');
  });

  it('refuses bad requests clearly', async () => {
    const calc = await byName(admin, 'calc');
    const ops = await byName(admin, 'ops');
    const cases: Array<[string, unknown, number, string]> = [
      [`${API}/${calc.id}/auth`, {}, 400, '请提供认证方式（auth），或用 null 取消认证'],
      [`${API}/${calc.id}/auth`, { auth: { type: 'header', name: 'Content-Length', value: '1' } }, 400, '该请求头由连接本身使用'],
      [`${API}/no-such-server/auth`, { auth: null }, 404, 'MCP 服务器不存在或已被删除'],
      [`${API}/${ops.id}/auth`, { auth: null }, 403, '认证只能在配置文件中修改'],
    ];
    for (const [url, body, status, message] of cases) {
      const res = await admin.request('PUT', url, { body });
      expect(res.status).toBe(status);
      expect(res.body.message).toContain(message);
    }
    expect((await alice.request('PUT', `${API}/${calc.id}/auth`, { body: { auth: null } })).status).toBe(403);
    expect((await server.client().request('PUT', `${API}/${calc.id}/auth`, { body: { auth: null } })).status).toBe(401);
    expect((await byName(admin, 'calc')).status).toBe('ready');
  });

  it('the configuration file’s server is connected with its token, shown masked', async () => {
    expect(await byName(admin, 'ops')).toMatchObject({ origin: 'config', status: 'ready', auth: { type: 'bearer', hint: '••••cdef' } });
  });
});

describe('after a restart', () => {
  it('the stored secrets connect again; with another server secret they cannot be read and the server says so', async () => {
    await server.close();
    server = await startServer(env, dataDir, { tools: testTools() });
    admin = await adminOf(server);
    const until = async (name: string) => {
      for (let i = 0; i < 200; i++) {
        const s = await byName(admin, name);
        if (s.status !== 'connecting') return s;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`${name} still connecting`);
    };
    expect(await until('calc')).toMatchObject({ status: 'ready', auth: { hint: '••••cdef' } });
    expect(await until('keyed')).toMatchObject({ status: 'ready' });

    await server.close();
    server = await startServer({ ...env, CSAI_SECRET: 'another-secret-entirely-000000000' }, dataDir, { tools: testTools() });
    admin = await adminOf(server);
    const calc = await until('calc');
    expect(calc).toMatchObject({ status: 'down', auth: { type: 'bearer', hint: '••••' } });
    expect(calc.reason).toBe('无法连接 MCP 服务器：无法解密保存的认证信息（服务器密钥 CSAI_SECRET 或 data/secret.key 已更换），请在 MCP 服务器管理页重新设置该服务器的认证');
    // Setting it again mends it.
    const res = await admin.request<McpServerView>('PUT', `${API}/${calc.id}/auth`, { body: { auth: { type: 'bearer', token: TOKEN } } });
    expect(res.body.data.status).toBe('ready');
  });
});
