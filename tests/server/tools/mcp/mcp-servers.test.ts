import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerView } from '../../../../src/contract/mcp-servers';
import { signedInUser, startServer, type Client, type TestServer } from '../../helpers';
import { answerText, ask, readEvents } from '../../answering-helpers';
import { startChatServer } from '../../fake-llm';
import { startMcpHttpServer } from '../../mcp-test-server';
import { testTools } from '../../tool-stand-ins';

const API = '/api/v1/mcp_servers';
type Group = { id: string; label: string; tools: Array<{ value: string; enabled: boolean; description: string }> };

/**
 * An OpenAI-compatible model (fake-llm.ts) that calls `mcp__calc__add` with {a: 2, b: 3} when it is offered,
 * then answers with what the tool said.
 */
const startToolCallingLlm = () =>
  startChatServer((request, reply) => {
    const last = request.messages.at(-1)!;
    if (request.tools?.some((t) => t.function.name === 'mcp__calc__add') && last.role !== 'tool') {
      reply.chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'mcp__calc__add', arguments: '{"a":2,"b":3}' } }] });
      return reply.finish('tool_calls');
    }
    reply.chunk({ role: 'assistant', content: last.role === 'tool' ? `工具说：${last.content ?? ''}` : '没有工具。' });
    reply.finish();
  });

let server: TestServer;
let remote: Awaited<ReturnType<typeof startMcpHttpServer>>;
let llm: Awaited<ReturnType<typeof startToolCallingLlm>>;
let admin: Client;
let alice: Client;

beforeAll(async () => {
  remote = await startMcpHttpServer();
  llm = await startToolCallingLlm();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-mcp-cfg-'));
  const configFile = path.join(dir, 'mcp.json');
  fs.writeFileSync(configFile, JSON.stringify({ servers: [{ name: 'local', title: '本地工具', transport: 'stdio', command: process.execPath, args: [path.resolve('tests/server/mcp-stdio-server.mjs')] }] }));
  server = await startServer({ LLM_BASE_URL: llm.url, LLM_API_KEY: 'k', LLM_MODEL: 'm', CSAI_MCP_ALLOWED_HOSTS: '127.0.0.1', CSAI_MCP_CONFIG: configFile }, undefined, { tools: testTools() });
  const a = await signedInUser(server);
  const db = server.sqlite();
  db.prepare('update users set is_admin = 1 where id = ?').run(a.id);
  db.close();
  admin = a.client;
  alice = (await signedInUser(server)).client;
});
afterAll(async () => {
  await server?.close();
  await remote?.kill();
  await llm?.close();
});

const groups = async (client: Client) => (await client.get<Group[]>('/api/v1/tools')).body.data;
const rows = () => {
  const db = server.sqlite();
  try {
    return db.prepare('select name from mcp_servers').all();
  } finally {
    db.close();
  }
};

describe('the MCP servers admin API', () => {
  it('is for administrators only', async () => {
    expect((await server.client().get(API)).status).toBe(401);
    for (const res of [await alice.get(API), await alice.post(API, { name: 'x', transport: 'http', url: remote.url }), await alice.request('DELETE', `${API}/whatever`)]) {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('只有管理员可以管理 MCP 服务器');
    }
    expect(rows()).toEqual([]);
  });

  it('lists the configuration file’s stdio server, read-only', async () => {
    const list = await admin.get<McpServerView[]>(API);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ name: 'local', transport: 'stdio', origin: 'config', target: expect.stringContaining('mcp-stdio-server.mjs') })]);
    const del = await admin.request('DELETE', `${API}/${list.body.data[0]!.id}`);
    expect(del.status).toBe(403);
    expect(del.body.message).toContain('只能在配置文件中删除');
  });

  it.each([
    ['a bad URL', { name: 'x', transport: 'http', url: 'not a url' }, 400, '服务器地址必须是 http:// 或 https:// 开头的有效网址'],
    ['a non-http scheme', { name: 'x', transport: 'http', url: 'file:///etc/passwd' }, 400, '服务器地址必须是 http:// 或 https:// 开头的有效网址'],
    ['credentials in the URL', { name: 'x', transport: 'http', url: 'http://u:p@127.0.0.1/mcp' }, 400, '不能包含用户名或密码'],
    ['a stdio command from the browser', { name: 'x', transport: 'stdio', url: 'http://127.0.0.1/' }, 400, 'stdio 服务器只能在服务器配置文件中添加'],
    ['an extra field (a command)', { name: 'x', transport: 'http', url: 'http://127.0.0.1/', command: 'rm -rf /' }, 400, ''],
    ['a bad name', { name: 'Bad Name', transport: 'http', url: 'http://127.0.0.1/' }, 400, '名称只能包含小写字母、数字和连字符'],
    ['a name with __', { name: 'a__b', transport: 'http', url: 'http://127.0.0.1/' }, 400, '名称只能包含小写字母、数字和连字符'],
    ['the configuration file’s name', { name: 'local', transport: 'http', url: 'http://127.0.0.1:1/mcp' }, 409, '已有名为“local”的 MCP 服务器，请换一个名称'],
    ['an unreachable server', { name: 'gone', transport: 'http', url: 'http://127.0.0.1:1/mcp' }, 400, '无法连接 MCP 服务器：连接被拒绝（服务器未运行或端口错误）'],
    ['an intranet host not in the allow-list', { name: 'intranet', transport: 'http', url: 'http://127.0.0.2:9/mcp' }, 400, 'CSAI_MCP_ALLOWED_HOSTS'],
    // The same address check for SSE, and for IPv6 forms of a loopback address.
    ['an intranet host over SSE', { name: 'intranet', transport: 'sse', url: 'http://127.0.0.2:9/sse' }, 400, '无法连接 MCP 服务器：拒绝访问内网或保留地址：127.0.0.2（内网的 MCP 服务器须由运维在 CSAI_MCP_ALLOWED_HOSTS 中列出）'],
    ['an IPv4-compatible loopback', { name: 'intranet', transport: 'http', url: 'http://[::127.0.0.1]:9/mcp' }, 400, '无法连接 MCP 服务器：拒绝访问内网或保留地址：::7f00:1'],
    ['an IPv4-compatible loopback over SSE', { name: 'intranet', transport: 'sse', url: 'http://[::127.0.0.1]:9/sse' }, 400, '无法连接 MCP 服务器：拒绝访问内网或保留地址：::7f00:1'],
    ['a NAT64 loopback', { name: 'intranet', transport: 'sse', url: 'http://[64:ff9b::127.0.0.1]:9/sse' }, 400, '拒绝访问内网或保留地址'],
    ['something that is not an MCP server', { name: 'web', transport: 'http', url: 'THE_TEST_SERVER/elsewhere' }, 400, '无法连接 MCP 服务器：服务器返回 HTTP 404：该地址可能不是 MCP 端点，或传输方式（Streamable HTTP）选错了'],
    ['an SSE server that is not one', { name: 'websse', transport: 'sse', url: 'THE_TEST_SERVER/elsewhere' }, 400, '无法连接 MCP 服务器：服务器返回 HTTP 404：该地址可能不是 MCP 端点，或传输方式（SSE）选错了'],
  ])('refuses %s with a clear message and keeps nothing', async (_what, body, status, message) => {
    // The test MCP server's port is known only once it runs: an HTTP page of it that is not MCP.
    const payload = { ...body, url: body.url.replace('THE_TEST_SERVER', `http://127.0.0.1:${remote.port}`) };
    const res = await admin.post(API, payload);
    expect(res.status).toBe(status);
    expect(res.body.message).toContain(message);
    expect(rows()).toEqual([]);
    expect((await admin.get<McpServerView[]>(API)).body.data.map((s) => s.name)).toEqual(['local']);
  });
});

describe('an MCP server added by an administrator', () => {
  let added: McpServerView;

  it('is connected, stored and its tools appear in GET /tools in an MCP group with its name', async () => {
    const res = await admin.post<McpServerView>(API, { name: 'calc', title: '计算器', transport: 'http', url: remote.url });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('MCP 服务器已添加');
    added = res.body.data;
    expect(added).toMatchObject({ name: 'calc', status: 'ready', origin: 'admin' });
    expect(rows()).toEqual([{ name: 'calc' }]);
    const again = await admin.post(API, { name: 'calc', transport: 'http', url: remote.url });
    expect(again.status).toBe(409);

    const list = await groups(alice);
    const group = list.find((g) => g.id === 'mcp:calc')!;
    expect(group.label).toBe('MCP · 计算器');
    expect(group.tools.map((t) => [t.value, t.enabled])).toEqual([['mcp__calc__add', true], ['mcp__calc__fail', true], ['mcp__calc__hold', true], ['mcp__calc__lookup_by_name', true]]);
    // The SPEC §9 groups are still first and unchanged.
    expect(list.slice(0, 3).map((g) => g.id)).toEqual(['search', 'molecule', 'other']);
    expect(list.find((g) => g.id === 'mcp:local')!.label).toBe('MCP · 本地工具');
  });

  it('the model calls its tool through the same loop, with tool_call and tool_result events', async () => {
    const { questionId } = await ask(alice, '2 加 3 等于几？', { tools_name: ['mcp__calc__add'] });
    const { events } = await readEvents(alice, questionId);
    expect(events.find((e) => e.event === 'tool_call')?.data).toMatchObject({ name: 'mcp__calc__add', arguments: '{"a":2,"b":3}' });
    expect(events.find((e) => e.event === 'tool_result')?.data).toMatchObject({ name: 'mcp__calc__add', ok: true, content: '和为 5', data: { sum: 5 } });
    expect(answerText(events)).toBe('工具说：和为 5');
    expect(llm.requests[0]!.tools!.map((t) => t.function.name)).toEqual(['mcp__calc__add']);
  });

  it('is removed without a restart: its tools leave GET /tools and the model is no longer offered them', async () => {
    const res = await admin.request('DELETE', `${API}/${added.id}`);
    expect(res.status).toBe(200);
    expect(rows()).toEqual([]);
    expect((await groups(alice)).some((g) => g.id === 'mcp:calc')).toBe(false);
    expect((await admin.request('DELETE', `${API}/${added.id}`)).status).toBe(404);
    const before = llm.requests.length;
    const { questionId } = await ask(alice, '再算一次', { tools_name: ['mcp__calc__add'] });
    const { events } = await readEvents(alice, questionId);
    expect(events.some((e) => e.event === 'tool_call')).toBe(false);
    expect(llm.requests.slice(before).every((r) => !r.tools)).toBe(true);
  });
});
