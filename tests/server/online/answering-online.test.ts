import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from '../helpers';
import { answerText, ask, readEvents, startFakeLlm, type SseEvent } from '../answering-helpers';
import { startFakeService, type FakeService } from './web-services';

// Online search in answers and deep research, end to end over HTTP: the server's web search is a
// local server speaking SearXNG's protocol; literature is a source handed in as the runtime would.
let searx: FakeService;
let server: TestServer;
let bare: TestServer;
let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let llmServer: TestServer;
const literatureQueries: string[] = [];
const pagesRead: string[] = [];

beforeAll(async () => {
  searx = await startFakeService('searxng', 'web');
  llm = await startFakeLlm();
  const literature = async ({ query }: { query: string }) => {
    literatureQueries.push(query);
    return [
      // The same page as the web's first hit (another form of its URL): merged into one.
      { url: 'http://example.org/web/aspirin/', title: 'dup', site: 'dup', snippet: 'dup', kind: 'literature' as const },
      { url: 'https://pubmed.example.gov/123', title: 'Aspirin and COX: a review', site: 'PubMed', snippet: 'Aspirin acetylates COX-1 serine 530.', kind: 'literature' as const },
    ];
  };
  const readPage = async (url: string) => {
    pagesRead.push(url);
    if (url.includes('ibuprofen')) throw new Error('网页读取失败：连接超时');
    return { title: 'Aspirin — full page', markdown: 'Aspirin irreversibly acetylates COX-1, the full page says.' };
  };
  server = await startServer({ SEARXNG_URL: searx.url, WEB_SEARCH_TIMEOUT_MS: '2000' }, undefined, { online: { literature }, readPage });
  bare = await startServer();
  llmServer = await startServer({ SEARXNG_URL: searx.url, LLM_BASE_URL: llm.url, LLM_MODEL: 'chat-model' });
}, 60_000);
afterAll(async () => {
  await Promise.all([server?.close(), bare?.close(), llmServer?.close()]);
  await Promise.all([searx?.close(), llm?.close()]);
});

const citations = (events: SseEvent[]) => events.filter((e) => e.event === 'citation').map((e) => e.data);
const notices = (events: SseEvent[]) => events.filter((e) => e.event === 'status' && e.data.message).map((e) => e.data.message);

describe('online search in an answer (local engine)', () => {
  it('网页: searches the web service, quotes the snippets and cites each page with its site', async () => {
    const { client } = await signedInUser(server);
    searx.set('ok');
    searx.requests.length = 0;
    const { questionId, channelId } = await ask(client, '阿司匹林 COX 抑制', { if_search_online: true, search_type: 'web' });
    const events = (await readEvents(client, questionId)).events;
    expect(searx.requests).toHaveLength(1);
    expect(events.find((e) => e.event === 'tool_call')?.data).toMatchObject({ name: 'web_search' });
    expect(events.find((e) => e.event === 'tool_result')?.data).toMatchObject({ name: 'web_search', ok: true, data: { hits: [{ n: 1 }, { n: 2 }] } });
    expect(citations(events)).toEqual([
      { n: 1, url: 'https://www.example.org/web/aspirin', title: 'Aspirin web', site: 'example.org', snippet: 'Aspirin (web) inhibits COX-1 & COX-2 irreversibly.', fetchedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), kind: 'web' },
      expect.objectContaining({ n: 2, url: 'https://pubs.example.com/web/ibuprofen?utm_source=x', site: 'pubs.example.com' }),
    ]);
    const text = answerText(events);
    expect(text).toContain('未配置大语言模型，以下内容直接摘自联网搜索结果的摘要');
    // The site is escaped like a title (no link from it); markdown shows it as example.org.
    expect(text).toMatch(/example\\\.org《Aspirin web》：“Aspirin \(web\) inhibits COX-1 & COX-2 irreversibly\.” \[1\]/);
    expect(notices(events)).toEqual([]);
    // The stored answer keeps them (a reload shows the same citations).
    const list = await client.get<{ items: Array<{ citations: unknown[] }> }>(`/api/v1/channel/questions/${channelId}`);
    expect(list.body.data.items[0]!.citations).toEqual(citations(events));
  });

  it('全部: web and literature merged, the same page once', async () => {
    const { client } = await signedInUser(server);
    searx.set('ok');
    const { questionId } = await ask(client, '阿司匹林 COX', { if_search_online: true, search_type: 'all' });
    const events = (await readEvents(client, questionId)).events;
    const urls = citations(events).map((c) => c.url);
    // Best of each source first: the web's 1st, literature's 1st (the same page: dropped), then each one's 2nd.
    expect(urls).toEqual(['https://www.example.org/web/aspirin', 'https://pubs.example.com/web/ibuprofen?utm_source=x', 'https://pubmed.example.gov/123']);
    expect(citations(events)[2]).toMatchObject({ site: 'PubMed', kind: 'literature' });
  });

  it('专利 with no patent service: says so once and searches nothing', async () => {
    const { client } = await signedInUser(server);
    searx.requests.length = 0;
    const { questionId } = await ask(client, '阿司匹林 专利', { if_search_online: true, search_type: 'patent' });
    const events = (await readEvents(client, questionId)).events;
    expect(notices(events)).toEqual(['未配置专利检索服务，本次回答没有检索专利']);
    expect(searx.requests).toHaveLength(0);
    expect(citations(events)).toEqual([]);
  });

  it('a failing service is said, and the answer goes on', async () => {
    const { client } = await signedInUser(server);
    searx.set(500);
    const { questionId } = await ask(client, '阿司匹林 COX', { if_search_online: true, search_type: 'web' });
    const events = (await readEvents(client, questionId)).events;
    expect(events.find((e) => e.event === 'tool_result')?.data).toMatchObject({ ok: false, content: expect.stringContaining('SearXNG 返回错误（500）') });
    expect(events.at(-1)).toMatchObject({ event: 'done' });
    searx.set('ok');
  });

  it('online search off: nothing is searched', async () => {
    const { client } = await signedInUser(server);
    searx.requests.length = 0;
    const { questionId } = await ask(client, '阿司匹林 COX', { if_search_online: false, search_type: 'web' });
    await readEvents(client, questionId);
    expect(searx.requests).toHaveLength(0);
  });
});

describe('what the client is told before sending', () => {
  it('GET /online/status and the web_search tool say what is configured; what to set only to administrators', async () => {
    const on = (await signedInUser(server)).client;
    expect((await on.get('/api/v1/online/status')).body.data).toEqual({ web: true, literature: true, patents: false, missing: {} });
    const signedIn = await signedInUser(bare);
    const off = signedIn.client;
    const status = await off.get<{ web: boolean; missing: { web?: string } }>('/api/v1/online/status');
    // An ordinary user is not shown environment variable names.
    expect(status.body.data).toEqual({ web: false, literature: false, patents: false, missing: {} });
    expect((await fetch(`${bare.url}/api/v1/online/status`).then((r) => r.text()))).not.toContain('SEARXNG_URL');
    const db = bare.sqlite();
    db.prepare('update users set is_admin = 1 where email = ?').run(signedIn.email);
    db.close();
    const asAdmin = await off.get<{ web: boolean; missing: { web?: string } }>('/api/v1/online/status');
    expect(asAdmin.body.data.missing.web).toMatch(/SEARXNG_URL.*TAVILY_API_KEY.*BOCHA_API_KEY.*WEB_SEARCH_CUSTOM_URL/);
    const diag = await off.get<{ online: { web: boolean; setup: { web?: string } } }>('/api/v1/diagnostics');
    expect(diag.body.data.online).toMatchObject({ web: false, setup: { web: expect.stringContaining('SEARXNG_URL') } });
    const plain = (await signedInUser(bare)).client;
    expect((await plain.get<{ online: unknown }>('/api/v1/diagnostics')).body.data.online).toEqual({ web: false, literature: false, patents: false, setup: {} });
    const tool = async (c: typeof on) => (await c.get<Array<{ tools: Array<{ value: string; enabled: boolean }> }>>('/api/v1/tools')).body.data.flatMap((g) => g.tools).find((t) => t.value === 'web_search');
    expect(await tool(on)).toMatchObject({ enabled: true });
    expect(await tool(off)).toMatchObject({ enabled: false });
    // Unconfigured, an answer with online search on says so once; with it off (the question box's default here), never.
    const { questionId } = await ask(off, '阿司匹林', { if_search_online: true });
    expect(notices((await readEvents(off, questionId)).events)).toEqual(['未配置联网搜索服务，本次回答没有进行联网搜索']);
    const quiet = await ask(off, '阿司匹林', { if_search_online: false });
    const quietEvents = (await readEvents(off, quiet.questionId)).events;
    expect(notices(quietEvents)).toEqual([]);
    expect(answerText(quietEvents)).not.toContain('未配置联网搜索服务');
  });

  it('GET /online/status tells which sources exist, never their addresses or keys', async () => {
    const res = await fetch(`${server.url}/api/v1/online/status`);
    const text = await res.text();
    expect(text).not.toContain('127.0.0.1');
  });
});

describe('online search with a language model', () => {
  it('gives the model the hits, numbered after the passages, and cites the pages it refers to', async () => {
    const { client } = await signedInUser(llmServer);
    searx.set('ok');
    llm.requests.length = 0;
    const { questionId } = await ask(client, '阿司匹林 作用机制', { if_search_online: true, search_type: 'web' });
    const events = (await readEvents(client, questionId)).events;
    const system = llm.requests.at(-1)!.messages[0]!.content ?? '';
    expect(system).toContain('[1] Aspirin web（example.org，https://www.example.org/web/aspirin）');
    expect(system).toContain('联网搜索到的结果');
    // The fake model cites [1] when its prompt holds numbered sources.
    expect(answerText(events)).toContain('[1]');
    expect(citations(events)[0]).toMatchObject({ n: 1, url: 'https://www.example.org/web/aspirin', site: 'example.org' });
  });
});

describe('deep research online (local engine)', () => {
  it('searches each sub-question online, reads the best pages, shows each step and cites the pages', async () => {
    const { client } = await signedInUser(server);
    searx.set('ok');
    searx.requests.length = 0;
    pagesRead.length = 0;
    const { questionId } = await ask(client, '阿司匹林的作用机制是什么？以及布洛芬的用途有哪些？', { deepresearch: true, if_search_online: true, search_type: 'web' });
    const events = (await readEvents(client, questionId)).events;
    const steps = events.filter((e) => e.event === 'research_step').map((e) => e.data);
    const plan = steps[0]!.plan as string[];
    expect(searx.requests).toHaveLength(plan.length);
    expect(steps.filter((s) => s.step === 'web').map((s) => s.index)).toEqual(plan.map((_, i) => i + 1));
    expect(steps.find((s) => s.step === 'web')!.detail).toContain('找到 2 条结果');
    // The first two web hits of each sub-question are read; one page fails and keeps its snippet.
    expect(pagesRead).toHaveLength(plan.length * 2);
    expect(steps.filter((s) => s.step === 'read_page').map((s) => s.title)).toContain('网页未能读取');
    expect(steps.filter((s) => s.step === 'read_page').map((s) => s.title)).toContain('阅读网页');
    const text = answerText(events);
    expect(text).toContain('the full page says');
    const cited = citations(events);
    expect(cited.length).toBeGreaterThan(0);
    // Each page once in the whole report.
    expect(new Set(cited.map((c) => c.url)).size).toBe(cited.length);
    expect(cited[0]).toMatchObject({ url: 'https://www.example.org/web/aspirin', site: 'example.org', kind: 'web' });
  });

  it('with no service for the type, says so once', async () => {
    const { client } = await signedInUser(server);
    const { questionId } = await ask(client, '阿司匹林 专利 布洛芬 专利', { deepresearch: true, if_search_online: true, search_type: 'patent' });
    const steps = (await readEvents(client, questionId)).events.filter((e) => e.event === 'research_step' && e.data.step === 'web').map((e) => e.data.detail);
    expect(steps).toEqual(['未配置专利检索服务，本次深度研究只检索所选的文件和知识库']);
  });
});
