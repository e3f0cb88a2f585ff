import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { makePdf, upload, waitParsed } from '../knowledge-helpers';
import { CH, answerText, ask, openAiWithKinasePaper, readEvents, startFakeLlm, until, type SseEvent } from '../answering-helpers';

// Deep research with the openai engine against the fake OpenAI-compatible server.
let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let server: TestServer;
let alice: Client;
let docId: string;

beforeAll(async () => {
  ({ llm, server, alice, docId } = await openAiWithKinasePaper());
});
afterAll(async () => {
  await server?.close();
  await llm?.close();
});

const requestsFor = (tag: string) => llm.requests.filter((r) => r.messages.some((m) => m.role === 'user' && (m.content ?? '').includes(tag)));
const isPlanner = (r: { messages: Array<{ content: string | null }> }) => (r.messages[0]?.content ?? '').includes('"sub_questions"');
const steps = (events: SseEvent[]) => events.filter((e) => e.event === 'research_step').map((e) => e.data);
const questionOf = async (channelId: string, questionId: string) => {
  const list = await alice.get<{ items: Array<Record<string, unknown> & { question_id: string }> }>(`${CH}/questions/${channelId}?size=100`);
  return list.body.data.items.find((q) => q.question_id === questionId)!;
};

describe('deep research with a language model', () => {
  it('plans with the model, searches each sub-question, and streams a cited report', async () => {
    const question = 'compound X affinity || compound X selectivity kinase [deep1]';
    const { channelId, questionId } = await ask(alice, question, { docIdList: [docId], deepresearch: true, if_search_online: true });
    const { events } = await readEvents(alice, questionId);
    const s = steps(events);
    expect(s.map((x) => x.step)).toEqual(['plan', 'web', 'search', 'search', 'follow_up', 'read', 'write']);
    expect(s[0]).toMatchObject({ title: '拆解问题', plan: ['compound X affinity', 'compound X selectivity kinase'], progress: { current: 1, total: 5 } });
    expect(s[1]).toMatchObject({ title: '联网搜索', detail: '未配置联网搜索服务，本次深度研究只检索所选的文件和知识库' });
    expect(s[2]).toMatchObject({ index: 1, title: '检索子问题 1/2', progress: { current: 2, total: 5 } });
    expect(String(s[2]!.detail)).toMatch(/compound X affinity —— 找到 \d+ 个相关段落/);
    expect(s[4]).toMatchObject({ step: 'follow_up', index: 1, title: '补充检索（第 1 轮）', detail: '已读到的资料足以回答，不再追加子问题' });
    expect(s[6]).toMatchObject({ title: '撰写报告', progress: { current: 5, total: 5 } });

    // A planning request, one asking what is missing (shown what each sub-question found), and the
    // writing request; the writer sees the passages numbered per sub-question.
    const calls = requestsFor('[deep1]');
    expect(calls.map(isPlanner)).toEqual([true, false, false]);
    expect(calls[1]!.messages[0]!.content).toContain('"follow_ups"');
    expect(calls[1]!.messages[1]!.content).toMatch(/^子问题 1：compound X affinity\n- 《kinase\.pdf》 第2页：Results Compound X binds the kinase/m);
    const writer = calls[2]!.messages[0]!.content ?? '';
    expect(writer).toContain('深度研究报告');
    expect(writer).toContain('## 子问题 1：compound X affinity');
    expect(writer).toMatch(/\[1\] 《kinase\.pdf》 第2页\nResults Compound X binds the kinase/);

    const text = answerText(events);
    expect(text).toContain('## 引言');
    expect(text).toContain('## 结论');
    const citations = events.filter((e) => e.event === 'citation').map((e) => e.data);
    expect(citations.map((c) => c.n)).toEqual([1, 2]);
    expect(citations[0]).toMatchObject({ docId, title: 'kinase.pdf', page: 2 });
    expect(citations[0]!.bbox).toHaveLength(4);
    expect(citations[1]).toMatchObject({ docId, page: 3 });
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
    // Steps come before the report, and the stored answer holds the same steps and citations.
    expect(events.findIndex((e) => e.event === 'delta')).toBeGreaterThan(events.findLastIndex((e) => e.event === 'research_step'));
    const q = await questionOf(channelId, questionId);
    expect(q).toMatchObject({ status: 'done', answer: text, deepresearch: true });
    expect((q.steps as Array<{ type: string }>).filter((x) => x.type === 'research_step')).toHaveLength(7);
    expect(q.citations).toEqual(citations);
  });

  it('falls back to the question itself when the planner does not answer JSON', async () => {
    const question = 'compound X affinity [badplan]';
    const { questionId } = await ask(alice, question, { docIdList: [docId], deepresearch: true });
    const { events } = await readEvents(alice, questionId);
    const s = steps(events);
    expect(s[0]).toMatchObject({ step: 'plan', detail: '模型给出的研究计划无法解析，改为直接研究原问题', plan: [question] });
    expect(s.map((x) => x.step)).toEqual(['plan', 'search', 'follow_up', 'read', 'write']);
    expect(events.at(-1)?.event).toBe('done');
    expect(answerText(events)).toContain('## 结论');
  });

  it('shows the model reasoning as thinking when thinking is on, with the reasoning model', async () => {
    const { questionId } = await ask(alice, 'compound X affinity [think] [deep2]', { docIdList: [docId], deepresearch: true, if_thinking: true });
    const { events } = await readEvents(alice, questionId);
    expect(events.filter((e) => e.event === 'thinking').map((e) => e.data.text).join('')).toBe('先拆解问题。组织报告结构。');
    expect(requestsFor('[deep2]').map((r) => r.model)).toEqual(['reasoning-model', 'reasoning-model', 'reasoning-model']);
  });

  it('gives the earlier turns of the channel to the planner and the writer', async () => {
    const first = await ask(alice, '第一轮普通问题');
    await readEvents(alice, first.questionId);
    const { questionId } = await ask(alice, '深入研究上一个问题 [deep4]', { deepresearch: true }, first.channelId);
    await readEvents(alice, questionId);
    const calls = llm.requests.filter((r) => (r.messages.at(-1)?.content ?? '').includes('[deep4]'));
    expect(calls).toHaveLength(2);
    for (const r of calls) expect(r.messages.slice(1, 3)).toEqual([{ role: 'user', content: '第一轮普通问题' }, { role: 'assistant', content: '这是回答。' }]);
  });

  it('writes a report without citations when no documents are chosen, and says the search was skipped', async () => {
    const { questionId } = await ask(alice, 'general question || another part [deep3]', { deepresearch: true });
    const { events } = await readEvents(alice, questionId);
    const search = steps(events).filter((x) => x.step === 'search');
    expect(search.map((x) => String(x.detail))).toEqual(['general question —— 没有选择文件或知识库，跳过文档检索', 'another part —— 没有选择文件或知识库，跳过文档检索']);
    expect(requestsFor('[deep3]')[1]!.messages[0]!.content).toContain('用户没有选择文档');
    expect(events.some((e) => e.event === 'citation')).toBe(false);
    expect(events.at(-1)?.event).toBe('done');
  });

  it('stops while planning: the answer is stopped, nothing is planned, no event follows the end', async () => {
    const { channelId, questionId } = await ask(alice, 'compound X [holdplan]', { docIdList: [docId], deepresearch: true });
    await until(async () => llm.heldCount, (n) => n > 0);
    const stop = await alice.request<{ status: string }>('PUT', `${CH}/stop_questions/${questionId}`);
    expect(stop.body.data.status).toBe('stopped');
    llm.release();
    const { events } = await readEvents(alice, questionId);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'stopped' } });
    expect(steps(events)).toEqual([]);
    expect(await questionOf(channelId, questionId)).toMatchObject({ status: 'stopped' });
  });

  it('stops while writing: the report so far is kept, the steps before it too', async () => {
    const { channelId, questionId } = await ask(alice, 'compound X affinity [hold]', { docIdList: [docId], deepresearch: true });
    await readEvents(alice, questionId, { stopAfter: (e) => e.event === 'delta' });
    const stop = await alice.request<{ status: string }>('PUT', `${CH}/stop_questions/${questionId}`);
    expect(stop.body.data.status).toBe('stopped');
    llm.release();
    const { events } = await readEvents(alice, questionId);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'stopped' } });
    expect(answerText(events)).toBe('# 报告\n\n第一段 [1]。');
    expect(steps(events).map((x) => x.step)).toEqual(['plan', 'search', 'follow_up', 'read', 'write']);
    expect(await questionOf(channelId, questionId)).toMatchObject({ status: 'stopped', answer: '# 报告\n\n第一段 [1]。' });
  });

  it('reads in follow-up rounds: what the model finds missing is searched too and becomes a section of the report', async () => {
    const { questionId } = await ask(alice, 'compound X affinity [followup] [deep5]', { docIdList: [docId], deepresearch: true });
    const { events } = await readEvents(alice, questionId);
    const s = steps(events);
    // Three rounds at most, one new sub-question each (the model's repeat of sub-question 1 is dropped).
    expect(s.map((x) => x.step)).toEqual(['plan', 'search', 'follow_up', 'search', 'follow_up', 'search', 'follow_up', 'search', 'read', 'write']);
    expect(s[2]).toMatchObject({ index: 1, title: '补充检索（第 1 轮）', detail: '根据已读到的资料追加 1 个子问题', plan: ['compound X kinase B selectivity round 1'] });
    expect(s[7]).toMatchObject({ index: 4, title: '检索子问题 4/4' });
    expect(String(s[3]!.detail)).toMatch(/^compound X kinase B selectivity round 1 —— 找到 [1-9]\d* 个相关段落$/);
    const calls = requestsFor('[deep5]');
    expect(calls).toHaveLength(5); // plan, three rounds, report
    // Each round is shown what the earlier rounds found; the report has a section per sub-question.
    expect(calls[3]!.messages[1]!.content).toContain('子问题 3：compound X kinase B selectivity round 2');
    const writer = calls[4]!.messages[0]!.content ?? '';
    expect(writer).toContain('## 子问题 4：compound X kinase B selectivity round 3');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
  });

  it('ends the rounds when the model does not answer the JSON asked for', async () => {
    const { questionId } = await ask(alice, 'compound X affinity [badfollowup] [deep6]', { docIdList: [docId], deepresearch: true });
    const { events } = await readEvents(alice, questionId);
    expect(steps(events).map((x) => x.step)).toEqual(['plan', 'search', 'follow_up', 'read', 'write']);
    expect(requestsFor('[deep6]')).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
  });

  it('an empty, huge or malformed deep-research question gets the SPEC messages and stores nothing', async () => {
    const channel = (await alice.post<{ id: string }>(CH, { name: '深度研究校验' })).body.data.id;
    const send = (body: Record<string, unknown>) => alice.post(`${CH}/init_questions`, { channel_id: channel, deepresearch: true, ...body });
    const empty = await send({ question: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('问题不能为空');
    const huge = await send({ question: '甲'.repeat(20_001) });
    expect(huge.status).toBe(400);
    expect(huge.body.message).toBe('问题不能超过20000个字符');
    const bad = await send({ question: '有效问题', deepresearch: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, field: 'deepresearch' });
    const tooMany = await send({ question: '有效问题', docIdList: ['1', '2', '3', '4', '5', '6', '7'] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('最多只能选择6个文件');
    const list = await alice.get<{ total: number }>(`${CH}/questions/${channel}`);
    expect(list.body.data.total).toBe(0);
    // The largest question allowed still runs: its plan is cut to the limits.
    const big = `compound X affinity ${'很长的问题。'.repeat(3000)}`;
    const { questionId } = await ask(alice, big, { docIdList: [docId], deepresearch: true }, channel);
    const { events } = await readEvents(alice, questionId);
    expect(events.at(-1)?.event).toBe('done');
    const plan = steps(events)[0]!.plan as string[];
    expect(plan.length).toBeGreaterThan(0);
    for (const s of plan) expect([...s].length).toBeLessThanOrEqual(301);
  });
});

describe('deep research with its time budget used up', () => {
  let budgetServer: TestServer;
  let bob: Client;
  let bobDoc: string;
  beforeAll(async () => {
    // CSAI_DEEP_RESEARCH_MINUTES=0: no time for follow-up rounds; the report is written at once.
    budgetServer = await startServer({ LLM_BASE_URL: llm.url, LLM_MODEL: 'chat-model', LLM_IDLE_TIMEOUT_MS: '2000', CSAI_DEEP_RESEARCH_MINUTES: '0' });
    bob = (await signedInUser(budgetServer)).client;
    const up = await upload(bob, [{ name: 'kinase.pdf', data: makePdf([['Title page'], ['Results', 'Compound X binds the kinase with nanomolar affinity.']]), type: 'application/pdf' }]);
    bobDoc = up.body.data.name_id[0]!.docId;
    await waitParsed(bob, bobDoc);
  });
  afterAll(async () => {
    await budgetServer?.close();
  });

  it('asks for no follow-up round and writes the report', async () => {
    const { questionId } = await ask(bob, 'compound X affinity [followup] [deep7]', { docIdList: [bobDoc], deepresearch: true });
    const { events } = await readEvents(bob, questionId);
    expect(steps(events).map((x) => x.step)).toEqual(['plan', 'search', 'read', 'write']);
    expect(requestsFor('[deep7]').map(isPlanner)).toEqual([true, false]);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
  });
});
