import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from '../helpers';
import { localizeMessage } from '../../../src/server/i18n';

// Issue 32 §2: what the server writes to a user follows the language they chose (users.language):
// the tool list (and who sees how to enable a tool that is off), error messages, tool texts.
let server: TestServer;

type Group = { id: string; label: string; tools: Array<{ value: string; label: string; description: string; enabled: boolean }> };
const HAN = /\p{Script=Han}/u;

beforeAll(async () => {
  // No web search, patent or docking service here: those tools are off and say why.
  server = await startServer();
});
afterAll(async () => server?.close());

async function user(lang: 'zh' | 'en', admin = false) {
  const u = await signedInUser(server);
  if (admin) {
    const db = server.sqlite();
    db.prepare('update users set is_admin = 1 where email = ?').run(u.email);
    db.close();
  }
  const set = await u.client.request('PUT', '/api/v1/auth/me/language', { body: { language: lang } });
  expect(set.status).toBe(200);
  return u;
}

const toolsOf = async (u: Awaited<ReturnType<typeof user>>) => {
  const res = await u.client.get<Group[]>('/api/v1/tools');
  expect(res.status).toBe(200);
  return res.body.data.filter((g) => !g.id.startsWith('mcp:'));
};
const web = (groups: Group[]) => groups.flatMap((g) => g.tools).find((t) => t.value === 'web_search')!;

describe('the tool list', () => {
  it('shows an ordinary user that a tool is off and to ask the administrator, without install hints or variable names', async () => {
    const groups = await toolsOf(await user('zh'));
    const off = groups.flatMap((g) => g.tools).filter((t) => !t.enabled);
    expect(off.length).toBeGreaterThan(0);
    for (const t of off) {
      expect(t.description).toContain('（不可用：此工具在本服务器上未启用，如需使用请联系管理员。）');
      expect(t.description).not.toMatch(/[A-Z][A-Z0-9]*_[A-Z0-9_]+|apt-get|npm run|安装/);
    }
    expect(web(groups)).toMatchObject({ label: '联网搜索', enabled: false });
    // Nor a usable tool's administrator notes (the sandbox's memory cap, OPSIN missing).
    expect(JSON.stringify(groups)).not.toMatch(/prlimit|cgroup|apt-get/);
  });

  it('shows an administrator why and how to enable it', async () => {
    const groups = await toolsOf(await user('zh', true));
    expect(web(groups).description).toMatch(/不可用：未配置联网搜索服务：请设置 SEARXNG_URL.*TAVILY_API_KEY/);
  });

  it('is in English for a user who reads English: labels, groups, descriptions, and the same rule for hints', async () => {
    const groups = await toolsOf(await user('en'));
    expect(groups.map((g) => g.label)).toEqual(['Search', 'Molecules and proteins', 'Other']);
    expect(web(groups).label).toBe('Web search');
    expect(web(groups).description).toContain('(unavailable: This tool is not enabled on this server; contact your administrator to use it.)');
    for (const t of groups.flatMap((g) => g.tools)) expect(`${t.label} ${t.description}`, t.value).not.toMatch(HAN);
    expect(JSON.stringify(groups)).not.toContain('SEARXNG_URL');

    const admin = await toolsOf(await user('en', true));
    expect(web(admin).description).toMatch(/\(unavailable: No web search service is configured: set at least one of SEARXNG_URL/);
    expect(web(admin).description).not.toMatch(HAN);
  });

  it('is the same on /test (GET /diagnostics) for each role', async () => {
    const plain = (await (await user('en')).client.get<{ tools: Array<{ value: string; group: string; description: string }> }>('/api/v1/diagnostics')).body.data.tools;
    const w = plain.find((t) => t.value === 'web_search')!;
    expect(w.group).toBe('Search');
    expect(w.description).toContain('contact your administrator');
    expect(w.description).not.toContain('SEARXNG_URL');
    const admin = (await (await user('zh', true)).client.get<{ tools: Array<{ value: string; description: string }> }>('/api/v1/diagnostics')).body.data.tools;
    expect(admin.find((t) => t.value === 'web_search')!.description).toContain('SEARXNG_URL');
  });
});

describe('error messages', () => {
  it('are Chinese (as SPEC writes them) for a Chinese user and English for an English one', async () => {
    const zh = await user('zh');
    const en = await user('en');
    const missing = '/api/v1/knowledge_base/doc/no-such-document';
    const zhRes = await zh.client.get(missing);
    const enRes = await en.client.get(missing);
    expect(zhRes.status).toBe(enRes.status);
    expect(zhRes.body.message).toMatch(HAN);
    expect(enRes.body.message).not.toMatch(HAN);
    expect(enRes.body.message).toBe(localizeMessage(zhRes.body.message, 'en'));
    // A refused body: the validation message too.
    const bad = async (u: Awaited<ReturnType<typeof user>>) => (await u.client.request('PUT', '/api/v1/auth/me/language', { body: { language: 'en', extra: 1 } })).body.message;
    expect(await bad(en)).toBe('Unsupported parameter: extra');
    // (The request above changed nothing: still English.)
    expect(await bad(zh)).toBe('不支持的参数：extra');
  });

  it('follow the Accept-Language of a visitor who is not signed in, and stay Chinese without one', async () => {
    const anon = server.client();
    expect((await anon.get('/api/v1/diagnostics')).body.message).toBe('请先登录');
    expect((await anon.request('GET', '/api/v1/diagnostics', { headers: { 'accept-language': 'en' } })).body.message).toBe('Please sign in first');
    expect((await anon.request('GET', '/api/v1/diagnostics', { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } })).body.message).toBe('请先登录');
  });
});

describe('localizeMessage', () => {
  it('keeps Chinese as written, translates known messages and shapes, and leaves an unknown message as it is', () => {
    expect(localizeMessage('文档不存在', 'zh')).toBe('文档不存在');
    expect(localizeMessage('文档不存在', 'en')).toBe('Document not found');
    expect(localizeMessage('工具运行超时（超过30秒），已停止', 'en')).toBe('The tool ran longer than 30 s and was stopped');
    expect(localizeMessage('“联网搜索”不可用：本服务器未启动后台任务服务。', 'en')).toBe('“Web search” is unavailable: This server has not started the background task service.');
    expect(localizeMessage('缺少参数 language', 'en')).toBe('Missing parameter language');
    expect(localizeMessage('某个没有译文的消息', 'en')).toBe('某个没有译文的消息');
    expect(localizeMessage('Signature has expired', 'en')).toBe('Signature has expired');
  });
});
