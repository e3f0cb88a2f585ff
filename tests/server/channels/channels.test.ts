import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { KB, makePdf, upload, waitParsed } from '../knowledge-helpers';
import { CH, answerText, ask, readEvents } from '../answering-helpers';
import { channelNameFor, isSendableQuestion } from '../../../src/core/validation';

let server: TestServer;
let alice: Client;
let bob: Client;
let aliceId: string;

beforeAll(async () => {
  server = await startServer();
  const a = await signedInUser(server, { name: 'Alice' });
  alice = a.client;
  aliceId = a.id;
  bob = (await signedInUser(server, { name: 'Bob' })).client;
});
afterAll(async () => server?.close());

const count = (table: string) => {
  const db = server.sqlite();
  try {
    return (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('channels', () => {
  it('are named after the first 50 characters of the question, trimmed', async () => {
    const long = `  ${'苯'.repeat(60)}  `;
    const res = await alice.post<{ id: string; name: string }>(CH, { name: long });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('苯'.repeat(50));
    const emoji = await alice.post<{ name: string }>(CH, { name: `${'a'.repeat(49)}😀tail` });
    expect(emoji.body.data.name).toBe(`${'a'.repeat(49)}😀`);
  });

  it('start from any question the question box accepts, named after its first line (issue 32 §2)', async () => {
    const questions = [
      '第一行\n第二行',
      '请解释这段代码：\n```python\nfrom rdkit import Chem\nprint(Chem.MolFromSmiles("CCO"))\n```',
      '```python\nprint(1)\n```',
      '\r\n\t 布洛芬\u200b 的\u202e 结构\r\n',
      `${'苯'.repeat(60)}\n尾`,
    ];
    for (const q of questions) {
      expect(isSendableQuestion(q), q).toBe(true);
      const created = await alice.post<{ id: string; name: string }>(CH, { name: channelNameFor(q) });
      expect(created.status, JSON.stringify(q)).toBe(200);
      expect(created.body.data.name).not.toMatch(/[\u0000-\u001f\u200b\u202e]/);
      const sent = await alice.post<{ question_id: string }>(`${CH}/init_questions`, { question: q, channel_id: created.body.data.id, if_search_online: false });
      expect(sent.status, JSON.stringify(q)).toBe(200);
    }
    expect((await alice.post<{ name: string }>(CH, { name: channelNameFor(questions[1]!) })).body.data.name).toBe('请解释这段代码：');
    expect((await alice.post<{ name: string }>(CH, { name: channelNameFor(questions[2]!) })).body.data.name).toBe('print(1)');
  });

  it('refuse an empty, missing or malformed name and create nothing', async () => {
    const before = count('channels');
    for (const body of [{ name: '' }, { name: '   \n ' }, {}, { name: 12 }, { name: 'ok', extra: 1 }, '{bad json', { name: '\u200b' }, { name: 'a\u202eb' }]) {
      const res = await alice.post(CH, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toMatch(/[\u4e00-\u9fff]/);
    }
    expect((await alice.post(CH, { name: '' })).body.message).toBe('频道名称不能为空');
    expect(count('channels')).toBe(before);
  });

  it('are listed per user with paging and a literal search, newest activity first', async () => {
    const a = await alice.post<{ id: string }>(CH, { name: '阿司匹林的作用机制' });
    const b = await alice.post<{ id: string }>(CH, { name: '100%_纯度 检测' });
    await bob.post(CH, { name: '阿司匹林 Bob' });
    const found = await alice.get<{ items: Array<{ id: string; name: string }>; total: number }>(`${CH}?page=1&size=10&search=${encodeURIComponent('阿司匹林')}`);
    expect(found.status).toBe(200);
    expect(found.body.data.items.map((c) => c.id)).toEqual([a.body.data.id]);
    const literal = await alice.get<{ items: Array<{ id: string }> }>(`${CH}?search=${encodeURIComponent('%_')}`);
    expect(literal.body.data.items.map((c) => c.id)).toEqual([b.body.data.id]);
    const page = await alice.get<{ items: Array<{ id: string }>; total: number; page: number; size: number }>(`${CH}?page=1&size=1`);
    expect(page.body.data.items[0]!.id).toBe(b.body.data.id);
    expect(page.body.data.size).toBe(1);
    expect(page.body.data.total).toBeGreaterThanOrEqual(3);
    const bobs = await bob.get<{ items: Array<{ name: string }> }>(CH);
    expect(bobs.body.data.items.map((c) => c.name)).toEqual(['阿司匹林 Bob']);
    for (const q of ['page=0', 'size=101', 'page=x', `search=${'长'.repeat(101)}`]) expect((await alice.get(`${CH}?${q}`)).status, q).toBe(400);
  });

  it('can be renamed by their owner only', async () => {
    const c = await alice.post<{ id: string }>(CH, { name: '旧名字' });
    const renamed = await alice.request<{ name: string }>('PUT', `${CH}/${c.body.data.id}`, { body: { name: '  新名字  ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('新名字');
    expect((await bob.request('PUT', `${CH}/${c.body.data.id}`, { body: { name: '偷改' } })).status).toBe(404);
    expect((await alice.request('PUT', `${CH}/${c.body.data.id}`, { body: { name: ' ' } })).status).toBe(400);
    expect((await alice.request('PUT', `${CH}/nope`, { body: { name: 'x' } })).status).toBe(404);
    const list = await alice.get<{ items: Array<{ id: string; name: string }> }>(`${CH}?search=${encodeURIComponent('名字')}`);
    expect(list.body.data.items).toEqual([expect.objectContaining({ id: c.body.data.id, name: '新名字' })]);
  });

  it('are deleted with their questions and events, by their owner only', async () => {
    const { channelId, questionId } = await ask(alice, '删除测试的问题');
    await readEvents(alice, questionId);
    expect((await bob.request('DELETE', `${CH}/${channelId}`)).status).toBe(404);
    const del = await alice.request('DELETE', `${CH}/${channelId}`);
    expect(del.status).toBe(200);
    const db = server.sqlite();
    try {
      expect(db.prepare('select count(*) as n from questions where id = ?').get(questionId)).toEqual({ n: 0 });
      expect(db.prepare('select count(*) as n from question_events where question_id = ?').get(questionId)).toEqual({ n: 0 });
    } finally {
      db.close();
    }
    expect((await alice.get(`${CH}/questions/${channelId}`)).status).toBe(404);
    expect((await alice.request('DELETE', `${CH}/${channelId}`)).status).toBe(404);
  });

  it('need a signed-in user', async () => {
    const anon = server.client();
    expect((await anon.get(CH)).status).toBe(401);
    expect((await anon.post(CH, { name: 'x' })).status).toBe(401);
    expect((await anon.post(`${CH}/init_questions`, { question: 'x', channel_id: 'x' })).status).toBe(401);
    expect((await anon.get(`${CH}/questions/x/events`)).status).toBe(401);
    expect((await anon.get(`${CH}/channel_docs/x`)).status).toBe(401);
    expect((await anon.request('PUT', `${CH}/stop_questions/x`)).status).toBe(401);
  });
});

describe('sending a question', () => {
  let channelId: string;
  beforeAll(async () => {
    channelId = (await alice.post<{ id: string }>(CH, { name: '校验' })).body.data.id;
  });

  const send = (body: Record<string, unknown>, who = alice) => who.post(`${CH}/init_questions`, { question: '问题', channel_id: channelId, ...body });

  it('refuses bad inputs with the SPEC messages and stores nothing', async () => {
    const before = count('questions');
    const cases: Array<[Record<string, unknown>, number, string | RegExp]> = [
      [{ question: '' }, 400, '问题不能为空'],
      [{ question: '  \n\t ' }, 400, '问题不能为空'],
      [{ docIdList: ['1', '2', '3', '4', '5', '6', '7'] }, 400, '最多只能选择6个文件'],
      [{ kb_ids: ['a', 'b', 'c'] }, 400, '最多只能选择2个知识库'],
      [{ kb_ids: ['a'], knowledgeCSAIDefault: ['b', 'c'] }, 400, '最多只能选择2个知识库'],
      [{ docIdList: ['d1'], kb_ids: ['k1'] }, 400, '已经选择文件，不能选择知识库'],
      [{ docIdList: ['d1'], docIdListKnowledge: ['k1'] }, 400, '已经选择文件，不能选择知识库'],
      [{ question: 5 }, 400, /question/],
      [{ if_thinking: 'yes' }, 400, /if_thinking/],
      [{ docIdList: 'd1' }, 400, /docIdList/],
      [{ search_type: 'ALL; drop' }, 400, 'search_type 无效'],
      [{ tools_name: [''] }, 400, '工具名称不能为空'],
      [{ surprise: true }, 400, /surprise/],
      [{ channel_id: '' }, 400, '请提供频道'],
      [{ channel_id: 'missing' }, 404, '频道不存在'],
      [{ docIdList: ['missing-doc'] }, 404, '文档不存在'],
      [{ kb_ids: ['missing-kb'] }, 404, '知识库不存在'],
    ];
    for (const [body, status, message] of cases) {
      const res = await send(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.success).toBe(false);
      if (typeof message === 'string') expect(res.body.message, JSON.stringify(body)).toBe(message);
      else expect(`${res.body.message} ${res.body.field ?? ''}`, JSON.stringify(body)).toMatch(message);
    }
    expect((await alice.post(`${CH}/init_questions`, '{"question":')).status).toBe(400);
    expect(count('questions')).toBe(before);
  });

  it('refuses another user\'s channel, files and knowledge bases as missing', async () => {
    const bobChannel = (await bob.post<{ id: string }>(CH, { name: 'Bob 的频道' })).body.data.id;
    expect((await send({ channel_id: bobChannel })).status).toBe(404);
    const up = await upload(bob, [{ name: 'bob.pdf', data: makePdf([['Bob secret notes']]), type: 'application/pdf' }]);
    const bobDoc = up.body.data.name_id[0]!.docId;
    await waitParsed(bob, bobDoc);
    const res = await send({ docIdList: [bobDoc] });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('文档不存在');
    const kb = await bob.post<{ id: string }>(`${KB}/folder`, { name: 'Bob 的知识库' });
    expect((await send({ kb_ids: [kb.body.data.id] })).body.message).toBe('知识库不存在');
  });

  it('waits for files and knowledge bases still parsing (SPEC §8)', async () => {
    const up = await upload(alice, [{ name: 'parsing.pdf', data: makePdf([['Parsing soon']]), type: 'application/pdf' }]);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(alice, docId);
    const kb = await alice.post<{ id: string }>(`${KB}/folder`, { name: '解析中的知识库' });
    const inKb = await upload(alice, [{ name: 'kb.pdf', data: makePdf([['Knowledge base text']]), type: 'application/pdf' }], kb.body.data.id);
    const kbDoc = inKb.body.data.name_id[0]!.docId;
    await waitParsed(alice, kbDoc);
    const db = server.sqlite();
    db.prepare('update kb_documents set parse_status = 1 where id in (?, ?)').run(docId, kbDoc);
    try {
      const file = await send({ docIdList: [docId] });
      expect(file.status).toBe(409);
      expect(file.body.message).toBe('文件正在解析中，请等待上传完成');
      const knowledge = await send({ kb_ids: [kb.body.data.id] });
      expect(knowledge.status).toBe(409);
      expect(knowledge.body.message).toBe('知识库解析中，请等待解析完成');
      const picked = await send({ docIdListKnowledge: [kbDoc] });
      expect(picked.body.message).toBe('知识库解析中，请等待解析完成');
    } finally {
      db.prepare('update kb_documents set parse_status = 2 where id in (?, ?)').run(docId, kbDoc);
      db.close();
    }
    expect((await send({ docIdList: [docId] })).status).toBe(200);
  });
});

describe('the local engine (no language model configured)', () => {
  it('answers from a real uploaded PDF, citing the right page', async () => {
    const pdf = makePdf([
      ['Introduction', 'This report covers several compounds.'],
      ['Aspirin pharmacology', 'Aspirin irreversibly inhibits cyclooxygenase COX-1 and COX-2.', 'This reduces prostaglandin synthesis.'],
      ['Caffeine', 'Caffeine is an adenosine receptor antagonist.'],
    ]);
    const up = await upload(alice, [{ name: 'drugs.pdf', data: pdf, type: 'application/pdf' }]);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(alice, docId);
    const { channelId, questionId } = await ask(alice, 'How does aspirin inhibit cyclooxygenase?', { docIdList: [docId] });
    const stream = await readEvents(alice, questionId);
    expect(stream.status).toBe(200);
    const names = stream.events.map((e) => e.event);
    expect(names[0]).toBe('status');
    expect(names.at(-1)).toBe('done');
    expect(stream.events.map((e) => e.id)).toEqual(stream.events.map((_, i) => i + 1));
    const text = answerText(stream.events);
    expect(text.split('\n')[0]).toBe('未配置大语言模型，以下内容直接摘自所选文档中与问题最相关的段落，未经模型归纳。');
    expect(text).toContain('drugs.pdf');
    expect(text).toMatch(/第2页：“[^”]*cyclooxygenase[^”]*” \[1\]/);
    const citations = stream.events.filter((e) => e.event === 'citation').map((e) => e.data);
    expect(citations[0]).toMatchObject({ n: 1, docId, title: 'drugs.pdf', page: 2 });
    expect(citations[0]!.bbox).toHaveLength(4);
    expect(String(citations[0]!.text)).toContain('cyclooxygenase');

    const list = await alice.get<{ items: Array<Record<string, unknown>> }>(`${CH}/questions/${channelId}?page=1&size=10`);
    const q = list.body.data.items[0]!;
    expect(q).toMatchObject({ question_id: questionId, status: 'done', answer: text, engine: 'local', docIdList: [docId], last_event_id: stream.events.length });
    expect(q.citations).toEqual(citations);
    const docs = await alice.get<string[]>(`${CH}/channel_docs/${channelId}`);
    expect(docs.body.data).toEqual([docId]);
    expect((await bob.get(`${CH}/channel_docs/${channelId}`)).status).toBe(404);
    // Stopping it now changes nothing, and says so rather than "stopped".
    const stop = await alice.request<{ status: string }>('PUT', `${CH}/stop_questions/${questionId}`);
    expect(stop.status).toBe(200);
    expect(stop.body).toMatchObject({ message: '回答已结束，无需停止', data: { status: 'done' } });
  });

  it('answers in Chinese from a knowledge base', async () => {
    const kb = await alice.post<{ id: string }>(`${KB}/folder`, { name: '药理知识库' });
    const up = await upload(alice, [{ name: 'kb.pdf', data: makePdf([['Overview'], ['Ibuprofen', 'Ibuprofen is a nonsteroidal anti-inflammatory drug (NSAID).']]), type: 'application/pdf' }], kb.body.data.id);
    await waitParsed(alice, up.body.data.name_id[0]!.docId);
    const { questionId } = await ask(alice, 'Ibuprofen 是什么类型的药物？', { kb_ids: [kb.body.data.id] });
    const { events } = await readEvents(alice, questionId);
    expect(answerText(events)).toContain('Ibuprofen');
    expect(events.find((e) => e.event === 'citation')?.data).toMatchObject({ page: 2, title: 'kb.pdf' });
  });

  it('answers from a knowledge base shared with the asker, and refuses it once the share is withdrawn', async () => {
    const kb = await bob.post<{ id: string }>(`${KB}/folder`, { name: 'Bob 分享的知识库' });
    const up = await upload(bob, [{ name: 'shared.pdf', data: makePdf([['Shared notes', 'Remdesivir is a nucleotide analogue prodrug.']]), type: 'application/pdf' }], kb.body.data.id);
    await waitParsed(bob, up.body.data.name_id[0]!.docId);
    const share = await bob.post<{ records: Array<{ share_id: string }> }>(`${KB}/share_folder`, { folder_id: kb.body.data.id, user_ids: [aliceId] });
    expect(share.status).toBe(200);
    const { questionId } = await ask(alice, 'What is remdesivir?', { kb_ids: [kb.body.data.id] });
    const { events } = await readEvents(alice, questionId);
    expect(events.find((e) => e.event === 'citation')?.data).toMatchObject({ title: 'shared.pdf', page: 1 });
    await bob.post(`${KB}/cancel_share`, { share_id: share.body.data.records[0]!.share_id });
    const refused = await alice.post(`${CH}/init_questions`, { question: 'again', channel_id: (await alice.post<{ id: string }>(CH, { name: 'x' })).body.data.id, kb_ids: [kb.body.data.id] });
    expect(refused.status).toBe(404);
  });

  it('turns thinking and online search on when the request leaves them out (SPEC §4), and accepts user_id', async () => {
    const channel = (await alice.post<{ id: string }>(CH, { name: '默认开关' })).body.data.id;
    const res = await alice.post<{ question_id: string }>(`${CH}/init_questions`, { question: '默认开关', channel_id: channel, user_id: 'someone-else', knowledgeCSAIDefault: [], docIdListKnowledge: [] });
    expect(res.status).toBe(200);
    const list = await alice.get<{ items: Array<{ question_id: string; if_search_online: boolean; if_thinking: boolean; search_type: string; deepresearch: boolean }> }>(`${CH}/questions/${channel}`);
    expect(list.body.data.items[0]).toMatchObject({ question_id: res.body.data.question_id, if_search_online: true, if_thinking: true, search_type: 'all', deepresearch: false });
    const off = await alice.post<{ question_id: string }>(`${CH}/init_questions`, { question: '关掉', channel_id: channel, if_search_online: false, if_thinking: false });
    const after = await alice.get<{ items: Array<{ question_id: string; if_search_online: boolean; if_thinking: boolean }> }>(`${CH}/questions/${channel}`);
    expect(after.body.data.items.find((q) => q.question_id === off.body.data.question_id)).toMatchObject({ if_search_online: false, if_thinking: false });
  });

  it('says plainly what it can do when no document is chosen, and which toggles it could not honour', async () => {
    const { channelId, questionId } = await ask(alice, '阿司匹林的副作用有哪些？', { if_search_online: true, tools_name: ['web_search'] });
    const { events } = await readEvents(alice, questionId);
    const text = answerText(events);
    expect(text).toContain('未配置大语言模型');
    expect(text).toContain('请在输入框的“文件”或“知识库”标签中选择文档后再提问');
    const notices = events.filter((e) => e.event === 'status' && e.data.message).map((e) => e.data.message);
    expect(notices).toEqual(['未配置联网搜索服务，本次回答没有进行联网搜索', '所选工具暂未提供，本次回答没有使用工具']);
    expect(events.some((e) => e.event === 'citation')).toBe(false);
    const list = await alice.get<{ items: Array<{ steps: unknown[] }> }>(`${CH}/questions/${channelId}`);
    expect(list.body.data.items[0]!.steps).toEqual(notices.map((message) => ({ type: 'notice', message })));
  });

  it('streams with no-cache headers and resumes after Last-Event-ID; a second tab sees the same events', async () => {
    const { questionId } = await ask(alice, '同一个答案');
    const first = await readEvents(alice, questionId);
    expect(first.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('x-accel-buffering')).toBe('no');
    const second = await readEvents(alice, questionId);
    expect(second.events).toEqual(first.events);
    const resumed = await readEvents(alice, questionId, { lastEventId: 2 });
    expect(resumed.events).toEqual(first.events.slice(2));
    const past = await readEvents(alice, questionId, { lastEventId: 9999 });
    expect(past.events).toEqual([]);
    expect((await readEvents(bob, questionId)).status).toBe(404);
    const bad = await readEvents(alice, questionId, { lastEventId: -1 });
    expect(bad.status).toBe(400);
  });
});

describe('questions', () => {
  it('can be liked, disliked with a comment, and cleared by their owner', async () => {
    const { questionId } = await ask(alice, '评价测试');
    await readEvents(alice, questionId);
    const like = await alice.post(`${CH}/answer/effect`, { question_id: questionId, effect: 'like' });
    expect(like.body.data).toEqual({ question_id: questionId, effect: 'like', effect_comment: null });
    const dislike = await alice.post(`${CH}/answer/effect`, { question_id: questionId, effect: 'dislike', comment: ' 引用不准确 ' });
    expect(dislike.body.data).toEqual({ question_id: questionId, effect: 'dislike', effect_comment: '引用不准确' });
    const clear = await alice.post(`${CH}/answer/effect`, { question_id: questionId, effect: 'clear' });
    expect(clear.body.data).toEqual({ question_id: questionId, effect: null, effect_comment: null });
    expect((await bob.post(`${CH}/answer/effect`, { question_id: questionId, effect: 'like' })).status).toBe(404);
    for (const body of [{ question_id: questionId, effect: 'love' }, { question_id: questionId }, { effect: 'like' }, { question_id: questionId, effect: 'like', comment: 'x'.repeat(1001) }]) {
      expect((await alice.post(`${CH}/answer/effect`, body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('can be deleted with their events by their owner only', async () => {
    const { channelId, questionId } = await ask(alice, '删除这个问题');
    await readEvents(alice, questionId);
    expect((await bob.request('DELETE', `${CH}/questions/${questionId}`)).status).toBe(404);
    expect((await alice.request('DELETE', `${CH}/questions/${questionId}`)).status).toBe(200);
    const list = await alice.get<{ items: unknown[]; total: number }>(`${CH}/questions/${channelId}`);
    expect(list.body.data.total).toBe(0);
    expect((await alice.request('DELETE', `${CH}/questions/${questionId}`)).status).toBe(404);
    expect((await alice.get(`${CH}/questions/${questionId}/events`)).status).toBe(404);
  });

  it('of another user are not found, and stopping a finished answer leaves it done', async () => {
    const { channelId, questionId } = await ask(alice, '停止一个已完成的回答');
    await readEvents(alice, questionId);
    expect((await bob.get(`${CH}/questions/${channelId}`)).status).toBe(404);
    expect((await bob.request('PUT', `${CH}/stop_questions/${questionId}`)).status).toBe(404);
    const stop = await alice.request<{ status: string }>('PUT', `${CH}/stop_questions/${questionId}`);
    expect(stop.status).toBe(200);
    expect(stop.body.data.status).toBe('done');
  });

  it('in a channel are listed newest first with paging', async () => {
    const first = await ask(alice, '第一个问题');
    await readEvents(alice, first.questionId);
    const second = await ask(alice, '第二个问题', {}, first.channelId);
    await readEvents(alice, second.questionId);
    const page1 = await alice.get<{ items: Array<{ question_id: string }>; total: number }>(`${CH}/questions/${first.channelId}?page=1&size=1`);
    expect(page1.body.data.total).toBe(2);
    expect(page1.body.data.items.map((q) => q.question_id)).toEqual([second.questionId]);
    const page2 = await alice.get<{ items: Array<{ question_id: string }> }>(`${CH}/questions/${first.channelId}?page=2&size=1`);
    expect(page2.body.data.items.map((q) => q.question_id)).toEqual([first.questionId]);
  });
});

describe('tools', () => {
  it('lists the SPEC §9 groups; tools not usable here are disabled and say why', async () => {
    const res = await alice.get<Array<{ id: string; label: string; tools: Array<Record<string, unknown>> }>>('/api/v1/tools');
    expect(res.status).toBe(200);
    expect(res.body.data.map((g) => g.label)).toEqual(['检索', '小分子与蛋白', '其他']);
    const tools = res.body.data.flatMap((g) => g.tools);
    expect(tools.map((t) => t.label)).toEqual(['情报数据库检索', '联网搜索', '网页抓取', 'ADMET计算', '分子专利检索', '化学名转SMILES', 'SMILES补全', '对接任务提交', '任务查询', '代码生成与执行']);
    for (const t of tools) {
      expect(Object.keys(t).sort()).toEqual(['description', 'enabled', 'icon', 'id', 'label', 'ldap_disabled', 'value']);
      if (!t.enabled) expect(t.description).toMatch(/不可用：.+/);
    }
  });
});

describe('the answer stream on a portal page', () => {
  it('carries the CORS headers of an allowed origin', async () => {
    const portal = await startServer({ CSAI_CORS_ORIGINS: 'https://eln.example.com' });
    try {
      const user = (await signedInUser(portal)).client;
      const { questionId } = await ask(user, '跨域');
      const res = await fetch(`${portal.url}${CH}/questions/${questionId}/events`, {
        headers: { origin: 'https://eln.example.com', cookie: [...user.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') },
      });
      expect(res.headers.get('access-control-allow-origin')).toBe('https://eln.example.com');
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(await res.text()).toContain('event: done');
    } finally {
      await portal.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('lists every channel call of SPEC §7 and the tools call', async () => {
    const res = await server.client().get<unknown>('/api/docs/json');
    const paths = (res.body as unknown as { paths: Record<string, Record<string, unknown>> }).paths;
    const expected: Array<[string, string]> = [
      ['get', '/api/v1/channel/'],
      ['post', '/api/v1/channel/'],
      ['put', '/api/v1/channel/{channel_id}'],
      ['delete', '/api/v1/channel/{channel_id}'],
      ['post', '/api/v1/channel/init_questions'],
      ['get', '/api/v1/channel/questions/{channel_id}'],
      ['delete', '/api/v1/channel/questions/{question_id}'],
      ['get', '/api/v1/channel/questions/{question_id}/events'],
      ['post', '/api/v1/channel/answer/effect'],
      ['put', '/api/v1/channel/stop_questions/{id}'],
      ['get', '/api/v1/channel/channel_docs/{id}'],
      ['get', '/api/v1/tools/'],
    ];
    for (const [method, path] of expected) expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
  });
});
