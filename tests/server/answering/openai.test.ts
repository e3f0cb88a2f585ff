import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { makePdf, upload, waitParsed } from '../knowledge-helpers';
import { CH, answerText, ask, readEvents, startFakeLlm, until, type SseEvent } from '../answering-helpers';
import { testTools } from '../tool-stand-ins';
import { MAX_TOOL_ROUNDS, OTHER_PASSAGES_HEADING } from '../../../src/server/answering/openai-engine';

let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let server: TestServer;
let alice: Client;

beforeAll(async () => {
  llm = await startFakeLlm();
  server = await startServer({
    LLM_BASE_URL: llm.url,
    LLM_API_KEY: 'test-key',
    LLM_MODEL: 'chat-model',
    LLM_REASONING_MODEL: 'reasoning-model',
    // Short enough for the stall test, long enough that a busy machine's pause (e.g. a 1 MB tool
    // argument being read) is not taken for a stalled model.
    LLM_IDLE_TIMEOUT_MS: '3000',
  }, undefined, { tools: testTools() });
  alice = (await signedInUser(server)).client;
});
afterAll(async () => {
  await server?.close();
  await llm?.close();
});

const questionOf = async (client: Client, channelId: string, questionId: string) => {
  const list = await client.get<{ items: Array<Record<string, unknown> & { question_id: string }> }>(`${CH}/questions/${channelId}?size=100`);
  return list.body.data.items.find((q) => q.question_id === questionId)!;
};
const storedEvents = (questionId: string) => {
  const db = server.sqlite();
  try {
    return db.prepare('select seq, type, data from question_events where question_id = ? order by seq').all(questionId) as Array<{ seq: number; type: string; data: string }>;
  } finally {
    db.close();
  }
};
const lastRequestFor = (tag: string) => [...llm.requests].reverse().find((r) => r.messages.some((m) => m.role === 'user' && (m.content ?? '').includes(tag)))!;

describe('the openai engine', () => {
  it('streams the answer chunk by chunk, persists every event and cites the passage it used', async () => {
    const up = await upload(alice, [{ name: 'paper.pdf', data: makePdf([['Title page'], ['Results', 'Compound X binds the kinase with nanomolar affinity.']]), type: 'application/pdf' }]);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(alice, docId);
    // Paced as a slow model streams: the event writer merges deltas that wait for the same write,
    // so pieces 5 ms apart may arrive as fewer deltas when a write is slow (PostgreSQL under load).
    const { channelId, questionId } = await ask(alice, 'What affinity does compound X have for the kinase? [paced]', { docIdList: [docId], tools_name: [] });
    const { events } = await readEvents(alice, questionId);
    const deltas = events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(answerText(events)).toBe('根据文献，答案如下 [1]。');
    expect(events.find((e) => e.event === 'citation')?.data).toMatchObject({ n: 1, docId, title: 'paper.pdf', page: 2 });
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
    expect(storedEvents(questionId).map((r) => ({ id: r.seq, event: r.type, data: JSON.parse(r.data) as unknown }))).toEqual(events);

    const request = lastRequestFor('compound X');
    expect(request.stream).toBe(true);
    expect(request.model).toBe('chat-model');
    expect(request.tools).toBeUndefined();
    const system = request.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('使用提问者所用的语言回答');
    expect(system.content).toContain('[1] 《paper.pdf》 第2页');
    expect(system.content).toContain('nanomolar affinity');
    expect(await questionOf(alice, channelId, questionId)).toMatchObject({ status: 'done', engine: 'openai', answer: '根据文献，答案如下 [1]。' });
  });

  it('gives the model retrieval’s best passages and keeps them cited: the ones its answer left out are listed after it', async () => {
    const pages = [
      ['Kinase assay', 'Compound Y inhibits the kinase with an IC50 of 12 nM in the enzyme assay.'],
      ['Selectivity', 'Compound Y is selective for the kinase over forty related kinases.'],
      ['Cell data', 'In cells, compound Y blocks kinase signalling at 100 nM.'],
      ['Methods', 'The kinase was expressed in insect cells and purified.'],
    ];
    const up = await upload(alice, [{ name: 'kinase-y.pdf', data: makePdf(pages), type: 'application/pdf' }]);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(alice, docId);
    const { questionId } = await ask(alice, 'How does compound Y act on the kinase?', { docIdList: [docId], tools_name: [] });
    const { events } = await readEvents(alice, questionId);
    const text = answerText(events);
    // The stand-in model cites [1] only; every page was given to it.
    const system = lastRequestFor('compound Y act').messages[0]!.content ?? '';
    for (const n of [1, 2, 3, 4]) expect(system).toContain(`[${n}] 《kinase-y.pdf》`);
    expect(text.startsWith('根据文献，答案如下 [1]。')).toBe(true);
    const citations = events.filter((e) => e.event === 'citation').map((e) => e.data);
    // What the model cited comes first, then retrieval's other best passages, each cited once.
    expect(citations[0]).toMatchObject({ n: 1, docId });
    expect(citations.map((c) => c.n)).toEqual([1, 2, 3, 4]);
    expect(new Set(citations.map((c) => c.page))).toEqual(new Set([1, 2, 3, 4]));
    expect(text).toContain(`\n\n${OTHER_PASSAGES_HEADING}\n- 《kinase-y.pdf》第`);
    expect([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]))).toEqual([1, 2, 3, 4]);
    // The stored answer keeps the list.
    expect(storedEvents(questionId).filter((r) => r.type === 'citation')).toHaveLength(4);
  });

  it('gives earlier turns of the channel to the model', async () => {
    const first = await ask(alice, '第一轮问题');
    await readEvents(alice, first.questionId);
    const second = await ask(alice, '第二轮问题 follow-up', {}, first.channelId);
    await readEvents(alice, second.questionId);
    const roles = lastRequestFor('follow-up').messages.map((m) => `${m.role}:${m.content ?? ''}`);
    expect(roles.slice(1)).toEqual(['user:第一轮问题', 'assistant:这是回答。', 'user:第二轮问题 follow-up']);
  });

  it('turns reasoning_content into thinking events with the reasoning model when thinking is on', async () => {
    const on = await ask(alice, '[think] 为什么？', { if_thinking: true });
    const withThinking = await readEvents(alice, on.questionId);
    expect(withThinking.events.filter((e) => e.event === 'thinking').map((e) => e.data.text).join('')).toBe('先想一想，再回答。');
    expect(lastRequestFor('[think] 为什么？').model).toBe('reasoning-model');
    expect(await questionOf(alice, on.channelId, on.questionId)).toMatchObject({ thinking: '先想一想，再回答。', answer: '这是回答。' });

    const off = await ask(alice, '[think] 不要思考', { if_thinking: false });
    const without = await readEvents(alice, off.questionId);
    expect(without.events.some((e) => e.event === 'thinking')).toBe(false);
    expect(lastRequestFor('[think] 不要思考').model).toBe('chat-model');
  });

  it('runs the function-calling loop: a call, its result (kept with its data), then the answer', async () => {
    const { channelId, questionId } = await ask(alice, '[tool] 算一下 CCO 的 ADMET', { tools_name: ['admet'] });
    const { events } = await readEvents(alice, questionId);
    const kinds = events.map((e) => e.event);
    expect(kinds.indexOf('tool_call')).toBeLessThan(kinds.indexOf('tool_result'));
    expect(kinds.indexOf('tool_result')).toBeLessThan(kinds.indexOf('delta'));
    expect(events.find((e) => e.event === 'tool_call')?.data).toEqual({ call_id: 'call_1', name: 'admet', arguments: '{"molecules":["CCO"]}' });
    const result = events.find((e) => e.event === 'tool_result')!.data;
    expect(result).toMatchObject({ call_id: 'call_1', name: 'admet', ok: true });
    expect(result.data).toBeDefined();
    expect(String(result.content)).not.toBe('');
    expect(answerText(events)).toContain(`工具说：${String(result.content)}`);
    // The model was offered the registry's tool with the JSON Schema of its zod input.
    const first = llm.requests.find((r) => r.messages.some((m) => m.role === 'user' && (m.content ?? '').includes('[tool] 算一下')))!;
    expect(first.tools).toEqual([{ type: 'function', function: expect.objectContaining({ name: 'admet', parameters: expect.objectContaining({ type: 'object' }) }) }]);
    const followUp = lastRequestFor('[tool] 算一下');
    expect(followUp.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1', content: result.content });
    // Stored like every event: the reloaded answer has the same steps, data included.
    const q = await questionOf(alice, channelId, questionId);
    expect(q.steps).toEqual([
      { type: 'tool_call', call_id: 'call_1', name: 'admet', arguments: '{"molecules":["CCO"]}' },
      { type: 'tool_result', ...result },
    ]);
  });

  it('offers every usable tool when the request names none (SPEC §4: all on), and none for an empty list', async () => {
    const all = await ask(alice, '[tool] 默认全部工具');
    await readEvents(alice, all.questionId);
    const offered = (lastRequestFor('[tool] 默认全部工具').tools ?? []) as Array<{ function: { name: string } }>;
    expect(offered.map((t) => t.function.name)).toEqual(expect.arrayContaining(['admet']));
    expect(offered.map((t) => t.function.name)).not.toContain('web_search');
    const none = await ask(alice, '不用工具的问题', { tools_name: [] });
    await readEvents(alice, none.questionId);
    expect(lastRequestFor('不用工具的问题').tools).toBeUndefined();
  });

  it('puts bad tool input into the card as a Chinese message; the answer still finishes', async () => {
    for (const tag of ['[badtool]', '[bigtool]']) {
      const { questionId } = await ask(alice, `${tag} 坏参数`, { tools_name: ['admet'] });
      const { events } = await readEvents(alice, questionId);
      const result = events.find((e) => e.event === 'tool_result')!.data;
      expect(result).toMatchObject({ name: 'admet', ok: false });
      expect(result.data).toBeUndefined();
      expect(String(result.content)).toMatch(/\p{Script=Han}/u);
      expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
    }
  });

  it(`stops offering tools after ${MAX_TOOL_ROUNDS} rounds and makes the model answer`, async () => {
    const { questionId } = await ask(alice, '[loop] 一直调用工具', { tools_name: ['admet'] });
    const { events } = await readEvents(alice, questionId);
    expect(events.filter((e) => e.event === 'tool_call')).toHaveLength(MAX_TOOL_ROUNDS);
    expect(events.filter((e) => e.event === 'tool_result')).toHaveLength(MAX_TOOL_ROUNDS);
    expect(events.some((e) => e.event === 'status' && String(e.data.message).includes(`${MAX_TOOL_ROUNDS}轮上限`))).toBe(true);
    expect(lastRequestFor('[loop] 一直调用工具').tools).toBeUndefined();
    expect(answerText(events)).not.toBe('');
    expect(events.at(-1)).toMatchObject({ event: 'done' });
  });

  it('keeps what was written when the model fails mid-stream, and says why', async () => {
    const { channelId, questionId } = await ask(alice, '[error] 出错的问题');
    const { events } = await readEvents(alice, questionId);
    expect(answerText(events)).toBe('部分内容');
    const last = events.at(-1)!;
    expect(last.event).toBe('error');
    expect(last.data).toEqual({ status: 'failed', message: '语言模型服务出错：upstream exploded' });
    expect(await questionOf(alice, channelId, questionId)).toMatchObject({ status: 'failed', answer: '部分内容', error: '语言模型服务出错：upstream exploded' });
  });

  it('reports an HTTP error of the model service', async () => {
    const { questionId } = await ask(alice, '[http500] 服务器错误');
    const { events } = await readEvents(alice, questionId);
    expect(events.at(-1)?.data).toEqual({ status: 'failed', message: '语言模型服务返回错误（500）：model overloaded' });
  });

  it('gives up on a stalled stream after the idle timeout, keeping the start', async () => {
    const { channelId, questionId } = await ask(alice, '[stall] 卡住的问题');
    const { events } = await readEvents(alice, questionId);
    expect(answerText(events)).toBe('开始回答');
    expect(events.at(-1)?.data).toEqual({ status: 'failed', message: '语言模型服务长时间没有响应，已停止生成' });
    expect(await questionOf(alice, channelId, questionId)).toMatchObject({ status: 'failed', answer: '开始回答' });
  });

  it('stops on request: stopped when the call returns, nothing written after it, the text so far kept', async () => {
    const { channelId, questionId } = await ask(alice, '[hold] 要停止的问题');
    const head = await readEvents(alice, questionId, { stopAfter: (e) => e.event === 'delta' });
    expect(answerText(head.events)).toBe('第一段。');
    // While it runs, the list shows the answer so far.
    expect(await questionOf(alice, channelId, questionId)).toMatchObject({ status: 'running', answer: '第一段。', finished_at: null });
    const stop = await alice.request<{ status: string }>('PUT', `${CH}/stop_questions/${questionId}`);
    expect(stop.status).toBe(200);
    expect(stop.body.data).toEqual({ question_id: questionId, status: 'stopped' });
    llm.release(); // the model would go on; nothing of it may arrive
    const { events } = await readEvents(alice, questionId);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'stopped' } });
    expect(answerText(events)).toBe('第一段。');
    const rows = storedEvents(questionId);
    expect(rows.at(-1)?.type).toBe('done');
    expect(rows.filter((r) => r.type === 'done' || r.type === 'error')).toHaveLength(1);
    expect(await questionOf(alice, channelId, questionId)).toMatchObject({ status: 'stopped', answer: '第一段。' });
    // Stopping again changes nothing.
    expect((await alice.request<{ status: string }>('PUT', `${CH}/stop_questions/${questionId}`)).body.data.status).toBe('stopped');
    expect(storedEvents(questionId)).toEqual(rows);
  });

  it('resumes after a reload with Last-Event-ID, and a second tab sees the same answer', async () => {
    const { questionId } = await ask(alice, '[hold] 刷新页面');
    const before = await readEvents(alice, questionId, { stopAfter: (e) => e.event === 'delta' });
    const lastId = before.events.at(-1)!.id;
    const secondTab = readEvents(alice, questionId);
    const reloaded = readEvents(alice, questionId, { lastEventId: lastId });
    await until(async () => llm.heldCount, (n) => n > 0);
    llm.release();
    const [tab, after] = await Promise.all([secondTab, reloaded]);
    expect(after.events.every((e) => e.id > lastId)).toBe(true);
    expect(answerText([...before.events, ...after.events])).toBe('第一段。第二段。');
    expect([...before.events, ...after.events]).toEqual(tab.events);
  });

  it('queues a third concurrent answer of the same user until one ends', async () => {
    const bob = (await signedInUser(server)).client;
    const a = await ask(bob, '[hold] 一');
    const b = await ask(bob, '[hold] 二');
    const c = await ask(bob, '[hold] 三');
    await until(async () => llm.heldCount, (n) => n >= 2);
    const statusOf = async (q: { channelId: string; questionId: string }) => (await questionOf(bob, q.channelId, q.questionId)).status;
    expect([await statusOf(a), await statusOf(b), await statusOf(c)]).toEqual(['running', 'running', 'queued']);
    const queuedHead = await readEvents(bob, c.questionId, { stopAfter: (_e, all) => all.length >= 2 });
    expect(queuedHead.events.map((e) => e.data)).toEqual([
      { status: 'queued' },
      { status: 'queued', message: '排队中：每人同时最多进行2个回答，前面的回答结束后自动开始' },
    ]);
    // Another user is not held up by Bob's queue.
    const other = await ask(alice, '别人的问题');
    expect((await readEvents(alice, other.questionId)).events.at(-1)?.event).toBe('done');
    // Stopping a queued answer ends it at once.
    await alice.request('PUT', `${CH}/stop_questions/${c.questionId}`); // not Alice's: 404, no effect
    expect(await statusOf(c)).toBe('queued');
    llm.release();
    const ends = await Promise.all([a, b].map((q) => readEvents(bob, q.questionId)));
    await until(async () => llm.heldCount, (n) => n >= 1);
    llm.release();
    const final = await readEvents(bob, c.questionId);
    for (const e of [...ends.slice(0, 2), final]) expect(answerText(e.events)).toBe('第一段。第二段。');
    expect([await statusOf(a), await statusOf(b), await statusOf(c)]).toEqual(['done', 'done', 'done']);
  });

  it('stops a queued answer at once', async () => {
    const carol = (await signedInUser(server)).client;
    const held = [await ask(carol, '[hold] A'), await ask(carol, '[hold] B')];
    const queued = await ask(carol, '[hold] C');
    await until(async () => llm.heldCount, (n) => n >= 2);
    const stop = await carol.request<{ status: string }>('PUT', `${CH}/stop_questions/${queued.questionId}`);
    expect(stop.body.data.status).toBe('stopped');
    const { events } = await readEvents(carol, queued.questionId);
    // Only waiting (status queued, perhaps with the queue notice), then the end: it never ran.
    expect(events.slice(0, -1).every((e: SseEvent) => e.event === 'status' && e.data.status === 'queued')).toBe(true);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'stopped' } });
    llm.release();
    for (const q of held) expect((await readEvents(carol, q.questionId)).events.at(-1)?.event).toBe('done');
  });
});

describe('a user with many questions waiting', () => {
  it('is refused a new one beyond 20 queued, and nothing is stored for it', async () => {
    const dave = (await signedInUser(server)).client;
    const channelId = (await dave.post<{ id: string }>(CH, { name: '很多问题' })).body.data.id;
    const asked = [];
    for (let i = 0; i < 22; i++) asked.push(await ask(dave, `[hold] 问题${i}`, {}, channelId));
    const refused = await dave.post(`${CH}/init_questions`, { question: '[hold] 再多一个', channel_id: channelId });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('排队中的问题已有20个，请等待前面的回答完成后再提问');
    const list = await dave.get<{ total: number }>(`${CH}/questions/${channelId}`);
    expect(list.body.data.total).toBe(22);
    for (const q of asked) await dave.request('PUT', `${CH}/stop_questions/${q.questionId}`);
    llm.release();
  });
});

describe('a user posting many questions at once', () => {
  it('is still refused beyond 20 queued: the count and the insert are one step', async () => {
    const erin = (await signedInUser(server)).client;
    const channelId = (await erin.post<{ id: string }>(CH, { name: '同时很多问题' })).body.data.id;
    const posted = await Promise.all(
      Array.from({ length: 30 }, (_, i) => erin.post<{ question_id: string }>(`${CH}/init_questions`, { question: `[hold] 同时${i}`, channel_id: channelId, if_search_online: false, if_thinking: false })),
    );
    const accepted = posted.filter((r) => r.status === 200).map((r) => r.body.data.question_id);
    for (const r of posted.filter((p) => p.status !== 200)) {
      expect(r.status).toBe(429);
      expect(r.body.message).toBe('排队中的问题已有20个，请等待前面的回答完成后再提问');
    }
    await until(async () => llm.heldCount, (n) => n >= 2);
    const list = await erin.get<{ total: number; items: Array<{ status: string }> }>(`${CH}/questions/${channelId}?size=50`);
    expect(list.body.data.total).toBe(accepted.length);
    expect(list.body.data.items.filter((q) => q.status === 'queued').length).toBeLessThanOrEqual(20);
    expect(accepted.length).toBeGreaterThanOrEqual(20);
    expect(accepted.length).toBeLessThanOrEqual(22);
    for (const id of accepted) await erin.request('PUT', `${CH}/stop_questions/${id}`);
    llm.release();
  });
});

describe('deleting while an answer is written', () => {
  it('ends the open streams and writes nothing more, for a question and for a whole channel', async () => {
    const one = await ask(alice, '[hold] 删除进行中的问题');
    const stream = readEvents(alice, one.questionId);
    await until(async () => llm.heldCount, (n) => n >= 1);
    expect((await alice.request('DELETE', `${CH}/questions/${one.questionId}`)).status).toBe(200);
    const ended = await stream;
    expect(answerText(ended.events)).toBe('第一段。');
    expect(ended.events.some((e) => e.event === 'done' || e.event === 'error')).toBe(false);
    llm.release();
    expect(storedEvents(one.questionId)).toEqual([]);

    const two = await ask(alice, '[hold] 删除整个频道');
    const stream2 = readEvents(alice, two.questionId);
    await until(async () => llm.heldCount, (n) => n >= 1);
    expect((await alice.request('DELETE', `${CH}/${two.channelId}`)).status).toBe(200);
    await stream2;
    llm.release();
    expect(storedEvents(two.questionId)).toEqual([]);
    expect((await alice.get(`${CH}/questions/${two.channelId}`)).status).toBe(404);
  });
});

describe('an unreachable model service', () => {
  it('fails the answer with a message naming the configuration', async () => {
    const dead = await startServer({ LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'm' });
    try {
      const user = (await signedInUser(dead)).client;
      const { questionId } = await ask(user, '连不上');
      const { events } = await readEvents(user, questionId);
      expect(events.at(-1)?.data).toEqual({ status: 'failed', message: '无法连接语言模型服务，请检查 LLM_BASE_URL 或稍后重试' });
    } finally {
      await dead.close();
    }
  });
});
