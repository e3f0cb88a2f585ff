import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config';
import { type Db } from '../../../src/server/db/database';
import { openTestDatabase } from '../postgres-harness';
import { startMcpManager, type McpManager } from '../../../src/server/tools/mcp/manager';
import { exposedToolName } from '../../../src/server/tools/mcp/names';
import { createToolRegistry, type ToolRegistry } from '../../../src/server/tools/registry';
import type { ToolContext } from '../../../src/server/tools/types';
import { startMcpHttpServer } from '../mcp-test-server';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-mcp-'));
const configFile = path.join(dataDir, 'mcp.json');
fs.writeFileSync(configFile, JSON.stringify({ servers: [{ name: 'local', title: '本地工具', transport: 'stdio', command: process.execPath, args: [path.resolve('tests/server/mcp-stdio-server.mjs')] }] }));
const log = Fastify({ logger: false }).log;
const ctx = (signal: AbortSignal = AbortSignal.timeout(30_000)): ToolContext => ({ viewer: { userId: 'u1' }, docIds: [], signal });

let db: Db;
let manager: McpManager;
let registry: ToolRegistry;
let remote: Awaited<ReturnType<typeof startMcpHttpServer>>;

async function until(check: () => boolean, what: string, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
const server = (name: string) => manager.list().find((s) => s.name === name)!;

beforeAll(async () => {
  db = await openTestDatabase(dataDir);
  const t = new Date().toISOString();
  await db.insertInto('users').values({ id: 'u1', email: 'admin@example.com', phone: null, name: '管理员', password_hash: 'x', department_id: null, is_admin: 1, status: 'active', created_at: t, activated_at: t }).execute();
  remote = await startMcpHttpServer();
  const config = loadConfig({ CSAI_DATA_DIR: dataDir, CSAI_MCP_ALLOWED_HOSTS: '127.0.0.1', CSAI_MCP_CONFIG: configFile });
  // No automatic reconnection during the test (it would race the assertions); reconnect() is tested.
  manager = await startMcpManager({ config, db, log, secret: Buffer.from('test-secret'), callTimeoutMs: 1500, retryMs: 600_000 });
  registry = createToolRegistry([], { restricted: false, log, sources: [manager.source] });
  await until(() => server('local').status !== 'connecting', 'the stdio server');
});
afterAll(async () => {
  await manager?.close();
  await remote?.kill().catch(() => undefined);
  await db?.destroy();
});

describe('MCP tool names', () => {
  it('are mcp__<server>__<tool>, only with characters models accept, at most 64, never shared', () => {
    expect(exposedToolName('calc', 'lookup.by name', new Set())).toBe('mcp__calc__lookup_by_name');
    const long = exposedToolName('calc', 'x'.repeat(100), new Set());
    expect(long).toMatch(/^mcp__calc__x+_[0-9a-f]{8}$/);
    expect(long.length).toBe(64);
    const first = exposedToolName('calc', 'a.b', new Set());
    expect(exposedToolName('calc', 'a b', new Set([first]))).not.toBe(first);
  });
});

describe('a stdio MCP server from the configuration file', () => {
  it('lists its tools in an MCP group with its name, and the registry runs them', async () => {
    expect(server('local')).toMatchObject({ status: 'ready', origin: 'config', transport: 'stdio', title: '本地工具' });
    const group = registry.groups().find((g) => g.id === 'mcp:local')!;
    expect(group.label).toBe('MCP · 本地工具');
    expect(group.tools.map((t) => [t.value, t.enabled])).toEqual([['mcp__local__echo', true], ['mcp__local__die', true]]);
    expect(registry.select(['mcp__local__echo']).map((t) => t.name)).toEqual(['mcp__local__echo']);
    expect(registry.select(['mcp__local__echo'])[0]!.inputSchema).toMatchObject({ type: 'object', required: ['text'] });
    expect(await registry.run('mcp__local__echo', { text: '你好' }, ctx())).toEqual({ ok: true, content: 'echo: 你好' });
  });

  it('a server that dies mid-call gives a clear error; its tools are then disabled with the reason; reconnecting brings them back', async () => {
    const result = await registry.run('mcp__local__die', {}, ctx());
    expect(result.ok).toBe(false);
    expect(result.content).toMatch(/^MCP 服务器“本地工具”在调用“die”时断开连接（.+）；它的工具已停用，恢复连接后自动启用$/);
    expect(server('local').status).toBe('down');
    const echo = registry.groups().find((g) => g.id === 'mcp:local')!.tools.find((t) => t.value === 'mcp__local__echo')!;
    expect(echo.enabled).toBe(false);
    expect(echo.description).toMatch(/不可用：.*断开/);
    expect(registry.select().map((t) => t.name)).not.toContain('mcp__local__echo');
    expect(registry.isEnabled('mcp__local__echo')).toBe(false);
    expect((await registry.run('mcp__local__echo', { text: 'x' }, ctx())).content).toMatch(/^“echo”不可用：.*断开/);

    expect((await manager.reconnect(server('local').id)).status).toBe('ready');
    expect(await registry.run('mcp__local__echo', { text: 'again' }, ctx())).toEqual({ ok: true, content: 'echo: again' });
  });

  it('cannot be removed from the browser side', async () => {
    await expect(manager.remove(server('local').id)).rejects.toThrow('只能在配置文件中删除');
  });
});

describe('a Streamable HTTP MCP server added at run time', () => {
  it('is connected before it is kept, and its tools are offered at once (no restart)', async () => {
    const added = await manager.add({ name: 'calc', title: '计算器', transport: 'http', url: remote.url }, 'u1');
    expect(added).toMatchObject({ status: 'ready', origin: 'admin', target: remote.url });
    expect(added.tools.map((t) => t.name)).toEqual(['mcp__calc__add', 'mcp__calc__fail', 'mcp__calc__hold', 'mcp__calc__lookup_by_name']);
    expect(registry.groups().find((g) => g.id === 'mcp:calc')!.tools[0]).toMatchObject({ label: '加法', description: '两个数相加', enabled: true });
    expect(registry.select().map((t) => t.name)).toContain('mcp__calc__add');
    expect(await db.selectFrom('mcp_servers').select(['name', 'transport', 'url']).execute()).toEqual([{ name: 'calc', transport: 'http', url: remote.url }]);
  });

  it('calls a tool: text for the model, structured content for the card', async () => {
    expect(await registry.run('mcp__calc__add', { a: 2, b: 3 }, ctx())).toEqual({ ok: true, content: '和为 5', data: { sum: 5 } });
    expect(await registry.run('mcp__calc__lookup_by_name', {}, ctx())).toEqual({ ok: true, content: 'found' });
  });

  it('surfaces a tool error, a protocol error and bad arguments in Chinese, and the server stays up', async () => {
    expect(await registry.run('mcp__calc__fail', {}, ctx())).toEqual({ ok: false, content: 'MCP 工具“fail”报告错误：数据库维护中' });
    const bad = await registry.run('mcp__calc__add', { a: 'two' }, ctx());
    expect(bad.ok).toBe(false);
    expect(bad.content).toMatch(/^MCP 服务器“计算器”返回错误：.*a and b must be numbers/);
    expect((await registry.run('mcp__calc__add', [1, 2], ctx())).content).toBe('工具参数必须是 JSON 对象');
    expect((await registry.run('mcp__calc__add', { a: 'x'.repeat(300 * 1024) }, ctx())).content).toContain('工具参数过大');
    expect((await registry.run('mcp__calc__nope', {}, ctx())).content).toBe('没有名为“mcp__calc__nope”的工具');
    expect(server('calc').status).toBe('ready');
  });

  it('a call past the time limit is stopped; a stop by the asker throws', async () => {
    expect(await registry.run('mcp__calc__hold', {}, ctx())).toEqual({ ok: false, content: '工具运行超时（超过2秒），已停止' });
    remote.release();
    const stop = new AbortController();
    const running = registry.run('mcp__calc__hold', {}, ctx(stop.signal));
    await until(() => remote.heldCount > 0, 'the held call');
    stop.abort();
    await expect(running).rejects.toThrow();
    remote.release();
    expect(server('calc').status).toBe('ready');
  });

  it('a server killed mid-call gives a clear error, then its tools are disabled with the reason', async () => {
    const running = registry.run('mcp__calc__hold', {}, ctx());
    await until(() => remote.heldCount > 0, 'the held call');
    await remote.kill();
    const result = await running;
    expect(result.ok).toBe(false);
    expect(result.content).toMatch(/^MCP 服务器“计算器”在调用“hold”时断开连接（.+）；它的工具已停用，恢复连接后自动启用$/);
    const tools = registry.groups().find((g) => g.id === 'mcp:calc')!.tools;
    expect(tools.every((t) => !t.enabled && t.description.includes('不可用'))).toBe(true);
    // Reconnecting to a server that is gone keeps it down, with why.
    const again = await manager.reconnect(server('calc').id);
    expect(again.status).toBe('down');
    expect(again.reason).toContain('无法连接 MCP 服务器：连接被拒绝');
  });

  it('an SSE server works the same way', async () => {
    const second = await startMcpHttpServer();
    try {
      const added = await manager.add({ name: 'calc-sse', title: '计算器 SSE', transport: 'sse', url: second.sseUrl }, 'u1');
      expect(added).toMatchObject({ status: 'ready', transport: 'sse' });
      expect(await registry.run('mcp__calc-sse__add', { a: 20, b: 22 }, ctx())).toEqual({ ok: true, content: '和为 42', data: { sum: 42 } });
      await manager.remove(added.id);
    } finally {
      await second.kill();
    }
  });

  it('is removed at once, from the list, the registry and the database', async () => {
    await manager.remove(server('calc').id);
    expect(manager.list().map((s) => s.name)).toEqual(['local']);
    expect(registry.groups().some((g) => g.id === 'mcp:calc')).toBe(false);
    expect((await registry.run('mcp__calc__add', { a: 1, b: 1 }, ctx())).content).toBe('没有名为“mcp__calc__add”的工具');
    expect(await db.selectFrom('mcp_servers').selectAll().execute()).toEqual([]);
  });
});
