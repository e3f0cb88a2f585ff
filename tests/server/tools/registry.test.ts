import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOOL_NAMES, toolCatalogEntry } from '../../../src/contract/tools';
import { createToolRegistry, MAX_TOOL_INPUT_BYTES } from '../../../src/server/tools/registry';
import { ToolInputError, type BuiltTool } from '../../../src/server/tools/types';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { testTools } from '../tool-stand-ins';

type Entry = { id: string; value: string; label: string; description: string; icon: string; enabled: boolean; ldap_disabled: boolean };
type Group = { id: string; label: string; tools: Entry[] };

const errors: unknown[] = [];
const log = { error: (...args: unknown[]) => void errors.push(args) };
const ctx = () => ({ viewer: { userId: 'u1' }, docIds: [], signal: new AbortController().signal });

/** A tool built here to drive the runner: echoes, sleeps, breaks its output or refuses its input on request. */
const probe = (over: Partial<BuiltTool<{ text: string; ms?: number }, { echoed: string }>> = {}): BuiltTool<{ text: string; ms?: number }, { echoed: string }> => ({
  ...toolCatalogEntry('smiles_completion'),
  input: z.object({ text: z.string().min(1, '请提供文字').max(100), ms: z.number().int().min(0).optional() }).strict(),
  output: z.object({ echoed: z.string() }),
  description: '回声。',
  availability: () => ({ enabled: true }),
  async run({ text, ms }, { signal }) {
    if (text === 'refuse') throw new ToolInputError('无法处理这段文字');
    if (text === 'crash') throw new Error('internal detail that must not reach the card');
    if (ms) await new Promise((resolve) => setTimeout(resolve, ms));
    if (text === 'late-crash') throw new Error('failed after the time limit');
    if (signal.aborted) throw new Error('aborted');
    return text === 'broken' ? ({ echoed: 42 } as unknown as { echoed: string }) : { echoed: text };
  },
  summarize: (o) => `回声：${o.echoed}`,
  ...over,
});

describe('the registry runs a tool', () => {
  const registry = createToolRegistry([probe({ timeoutMs: 200 })], { restricted: false, log });

  it('checks the input with its schema and gives the output with its summary', async () => {
    expect(await registry.run('smiles_completion', { text: 'hi' }, ctx())).toEqual({ ok: true, content: '回声：hi', data: { echoed: 'hi' } });
  });

  it.each([
    ['no input', undefined, '缺少参数 text'],
    ['a wrong type', { text: 5 }, '参数 text的类型不正确'],
    ['an unknown field', { text: 'a', extra: 1 }, '不支持的参数：extra'],
    ['an empty text (the schema\'s own message)', { text: '' }, '参数 text：请提供文字'],
    ['a too long text', { text: 'x'.repeat(101) }, '参数 text过大或过长'],
    ['a megabyte of input', { text: 'x'.repeat(MAX_TOOL_INPUT_BYTES) }, '工具参数过大'],
  ])('answers %s with ok:false and a Chinese message', async (_what, input, message) => {
    const result = await registry.run('smiles_completion', input, ctx());
    expect(result.ok).toBe(false);
    expect(result.content).toContain(message);
    expect(result.data).toBeUndefined();
  });

  it('passes a ToolInputError on as is, and hides an internal error behind a generic message', async () => {
    expect(await registry.run('smiles_completion', { text: 'refuse' }, ctx())).toEqual({ ok: false, content: '无法处理这段文字' });
    const crashed = await registry.run('smiles_completion', { text: 'crash' }, ctx());
    expect(crashed).toEqual({ ok: false, content: '工具运行失败，请稍后重试' });
  });

  it('refuses an output that does not match its schema', async () => {
    expect(await registry.run('smiles_completion', { text: 'broken' }, ctx())).toEqual({ ok: false, content: '工具返回的结果格式不正确，已忽略该结果' });
  });

  it('stops a call at its time limit, and throws when the answer is stopped', async () => {
    const started = Date.now();
    expect(await registry.run('smiles_completion', { text: 'slow', ms: 5_000 }, ctx())).toEqual({ ok: false, content: '工具运行超时（超过0秒），已停止' });
    expect(Date.now() - started).toBeLessThan(2_000);
    const stop = new AbortController();
    const running = registry.run('smiles_completion', { text: 'slow', ms: 5_000 }, { ...ctx(), signal: stop.signal });
    stop.abort();
    await expect(running).rejects.toThrow();
  });

  it('leaves nothing unhandled: a stop after a finished call, a failure after the time limit', async () => {
    const stop = new AbortController();
    expect((await registry.run('smiles_completion', { text: 'hi' }, { ...ctx(), signal: stop.signal })).ok).toBe(true);
    stop.abort();
    expect((await registry.run('smiles_completion', { text: 'late-crash', ms: 300 }, ctx())).content).toContain('超时');
    // Vitest fails the file on an unhandled rejection: give both a chance to surface.
    await new Promise((resolve) => setTimeout(resolve, 300));
  });

  it('answers an unknown or unregistered tool with ok:false', async () => {
    expect((await registry.run('nope', {}, ctx())).content).toBe('没有名为“nope”的工具');
    expect(await registry.run('web_search', { query: 'x' }, ctx())).toEqual({ ok: false, content: '没有名为“web_search”的工具' });
  });

  it('answers a tool whose availability says no with its label and reason', async () => {
    const off = createToolRegistry([probe({ availability: () => ({ enabled: false, reason: '请设置 X。' }) })], { restricted: false, log });
    expect(await off.run('smiles_completion', { text: 'hi' }, ctx())).toEqual({ ok: false, content: '“SMILES补全”不可用：请设置 X。' });
  });

  it('lists the registered tools in their catalogue groups and order, whatever the order of registration', () => {
    const both = createToolRegistry([probe(), { ...probe(), ...toolCatalogEntry('intelligence_search') }], { restricted: false, log });
    expect(both.groups().map((g) => [g.id, g.tools.map((t) => [t.value, t.label, t.icon])])).toEqual([
      ['search', [['intelligence_search', '情报数据库检索', 'database']]],
      ['molecule', [['smiles_completion', 'SMILES补全', 'wand']]],
    ]);
    expect(both.select().map((t) => t.name)).toEqual(['intelligence_search', 'smiles_completion']);
  });

  it('refuses two tools of one name at start-up', () => {
    expect(() => createToolRegistry([probe(), probe()], { restricted: false, log })).toThrow(/built twice/);
  });
});

describe('GET /api/v1/tools', () => {
  let server: TestServer;
  let restricted: TestServer;
  let alice: Client;

  beforeAll(async () => {
    server = await startServer({}, undefined, { tools: testTools() });
    restricted = await startServer({ CSAI_TOOLS_RESTRICTED: '1' }, undefined, { tools: testTools() });
    // An administrator: the why and how of a tool that is off are theirs (tests/server/i18n/server-language.test.ts: others').
    const a = await signedInUser(server);
    const db = server.sqlite();
    db.prepare('update users set is_admin = 1 where email = ?').run(a.email);
    db.close();
    alice = a.client;
  });
  afterAll(async () => {
    await server?.close();
    await restricted?.close();
  });

  it('lists every tool of SPEC §9 in its group; each one not usable here says why and how to enable it', async () => {
    const res = await alice.get<Group[]>('/api/v1/tools');
    expect(res.status).toBe(200);
    expect(res.body.data.map((g) => [g.id, g.label])).toEqual([['search', '检索'], ['molecule', '小分子与蛋白'], ['other', '其他']]);
    const tools = res.body.data.flatMap((g) => g.tools);
    expect(tools.map((t) => t.value).sort()).toEqual([...TOOL_NAMES].sort());
    for (const t of tools) {
      expect(t.id).toBe(t.value);
      expect(t.icon).not.toBe('');
      expect(t.ldap_disabled).toBe(false);
      if (!t.enabled) expect(t.description).toMatch(/不可用：.*(升级|设置|配置|安装|启用)/);
    }
    // Unconfigured, web search says exactly what to set.
    const web = tools.find((x) => x.value === 'web_search')!;
    expect(web.enabled).toBe(false);
    expect(web.description).toMatch(/不可用：未配置联网搜索服务：请设置 SEARXNG_URL.*TAVILY_API_KEY.*BOCHA_API_KEY.*WEB_SEARCH_CUSTOM_URL/);
    // Built but not configured: says which variable to set.
    const patents = tools.find((x) => x.value === 'patent_search')!;
    expect(patents.enabled).toBe(false);
    expect(patents.description).toContain('SURECHEMBL_URL');
    expect(tools.find((t) => t.value === 'admet')!.enabled).toBe(true);
    expect(tools.find((t) => t.value === 'page_crawl')!.enabled).toBe(true);
  });

  it('with CSAI_TOOLS_RESTRICTED=1 disables ADMET and omits docking submission and task query (SPEC §6)', async () => {
    const b = await signedInUser(restricted);
    const db = restricted.sqlite();
    db.prepare('update users set is_admin = 1 where email = ?').run(b.email);
    db.close();
    const bob = b.client;
    const res = await bob.get<Group[]>('/api/v1/tools');
    const tools = res.body.data.flatMap((g) => g.tools);
    expect(tools.map((t) => t.value)).not.toContain('docking_submit');
    expect(tools.map((t) => t.value)).not.toContain('task_query');
    const admet = tools.find((t) => t.value === 'admet')!;
    expect(admet.enabled).toBe(false);
    expect(admet.description).toContain('CSAI_TOOLS_RESTRICTED');
  });
});
