import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from '../helpers';
import { answerText, ask, readEvents, type SseEvent } from '../answering-helpers';
import { startChatServer } from '../fake-llm';
import { makePdf, upload, waitParsed } from '../knowledge-helpers';
import { startFakeService, type FakeService } from './web-services';
import { startFakePubChem, type FakePubChem } from './pubchem-server';

// Online results of the tools the MODEL calls (web_search, patent_search) are cited like the online
// results searched before the answer: numbered after the passages, citation events, kept with the answer.

/**
 * An OpenAI-compatible model (fake-llm.ts) that calls tools by tags in the question: [web] →
 * web_search, [patent] → patent_search, [both] → both in one round. Once it has the tools' results
 * it answers citing every [n] they listed (and [1] when the prompt holds a passage).
 */
const startToolCallingModel = () =>
  startChatServer((body, reply) => {
    const question = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    const toolMessages = body.messages.filter((m) => m.role === 'tool');
    const calls: Array<{ name: string; arguments: string }> = [];
    if (!toolMessages.length && body.tools?.length) {
      if (/\[(web|both)\]/.test(question)) calls.push({ name: 'web_search', arguments: '{"query":"aspirin COX"}' });
      if (/\[(patent|both)\]/.test(question)) calls.push({ name: 'patent_search', arguments: '{"text":"aspirin","limit":3}' });
    }
    if (calls.length) {
      reply.chunk({ role: 'assistant', content: null, tool_calls: calls.map((c, i) => ({ index: i, id: `call_${i + 1}`, type: 'function', function: c })) });
      return reply.finish('tool_calls');
    }
    const listed = toolMessages.flatMap((m) => [...(m.content ?? '').matchAll(/^\[(\d+)\] (.*)$/gm)].map((x) => ({ n: Number(x[1]), line: x[2]! })));
    const unique = [...new Map(listed.map((l) => [l.n, l])).values()];
    // Web pages support the sentence on COX; a patent is cited by what its record says (its number and
    // title), as a model would — the citation check drops a [n] whose source does not support its sentence.
    const patents = unique.filter((l) => l.line.includes('（PubChem'));
    const pages = unique.filter((l) => !patents.includes(l));
    const passage = (body.messages[0]?.content ?? '').includes('[1] 《');
    const cited = [...(passage ? [1] : []), ...pages.map((l) => l.n)].map((n) => `[${n}]`).join('');
    const patentSentences = patents.map((l) => `专利 ${l.line.split(/[；（]/)[0]} [${l.n}]。`);
    for (const piece of ['据检索，', '阿司匹林抑制 COX ', `${cited}。`, ...patentSentences]) reply.chunk({ content: piece });
    reply.finish();
  });

let searx: FakeService;
let pubchem: FakePubChem;
let model: Awaited<ReturnType<typeof startToolCallingModel>>;
let server: TestServer;

beforeAll(async () => {
  [searx, pubchem, model] = await Promise.all([startFakeService('searxng', 'web'), startFakePubChem(), startToolCallingModel()]);
  server = await startServer({ SEARXNG_URL: searx.url, WEB_SEARCH_TIMEOUT_MS: '2000', CSAI_PUBCHEM_URL: pubchem.url, LLM_BASE_URL: model.url, LLM_MODEL: 'chat-model' });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await Promise.all([searx?.close(), pubchem?.close(), model?.close()]);
});

const of = (events: SseEvent[], name: string) => events.filter((e) => e.event === name).map((e) => e.data);
const storedCitations = async (client: Awaited<ReturnType<typeof signedInUser>>['client'], channelId: string) =>
  (await client.get<{ items: Array<{ citations: unknown[]; answer: string }> }>(`/api/v1/channel/questions/${channelId}`)).body.data.items[0]!;

describe('online results of a tool the model calls', () => {
  it('web_search: its hits are numbered after the passages, cited as [n] and kept with the stored answer', async () => {
    const { client } = await signedInUser(server);
    searx.set('ok');
    const up = await upload(client, [{ name: 'aspirin.pdf', data: makePdf([['Aspirin'], ['Aspirin acetylates COX-1 at serine 530 and blocks prostaglandin synthesis.']]), type: 'application/pdf' }]);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(client, docId);
    const { questionId, channelId } = await ask(client, '[web] aspirin COX serine', { docIdList: [docId], tools_name: ['web_search'] });
    const { events } = await readEvents(client, questionId);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });

    const system = model.requests.find((r) => (r.messages.at(-1)?.content ?? '').includes('[web] aspirin COX serine'))!.messages[0]!.content ?? '';
    const passages = (system.match(/^\[\d+\] 《/gm) ?? []).length;
    expect(passages).toBeGreaterThanOrEqual(1);
    expect(system).toContain('联网搜索或专利检索工具返回的每条结果带有编号 [n]');
    const [a, b] = [passages + 1, passages + 2];

    // The card's data and what the model read carry the numbers.
    const result = of(events, 'tool_result').find((r) => r.name === 'web_search')!;
    expect(result).toMatchObject({ ok: true, data: { query: 'aspirin COX', hits: [{ n: a, url: 'https://www.example.org/web/aspirin' }, { n: b, site: 'pubs.example.com' }] } });
    expect(result.content).toContain(`[${a}] Aspirin web（example.org）https://www.example.org/web/aspirin`);
    const toolMessage = model.requests.at(-1)!.messages.find((m) => m.role === 'tool')!;
    expect(toolMessage.content).toBe(result.content);

    // Cited exactly like an online result searched before the answer.
    const citations = of(events, 'citation');
    expect(citations.map((c) => c.n)).toEqual([1, a, b]);
    expect(citations[0]).toMatchObject({ n: 1, docId, title: 'aspirin.pdf' });
    expect(citations[1]).toEqual({
      n: a,
      url: 'https://www.example.org/web/aspirin',
      title: 'Aspirin web',
      site: 'example.org',
      snippet: 'Aspirin (web) inhibits COX-1 & COX-2 irreversibly.',
      fetchedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      kind: 'web',
    });
    expect(answerText(events)).toBe(`据检索，阿司匹林抑制 COX [1][${a}][${b}]。`);

    // A reload shows the same citations.
    const stored = await storedCitations(client, channelId);
    expect(stored.citations).toEqual(citations);
    expect(stored.answer).toBe(answerText(events));
  });

  it('with 联网搜索 on, a page found again keeps its number and patent_search hits follow', async () => {
    const { client } = await signedInUser(server);
    searx.set('ok');
    const { questionId, channelId } = await ask(client, '[both] 阿司匹林的专利与作用机制', { if_search_online: true, search_type: 'web', tools_name: ['web_search', 'patent_search'] });
    const { events } = await readEvents(client, questionId);
    const results = of(events, 'tool_result');
    // The engine's own search first ([1], [2]), then the model's two calls.
    expect(results.map((r) => r.name)).toEqual(['web_search', 'web_search', 'patent_search']);
    const nOf = (r: Record<string, unknown>) => (r.data as { hits: Array<{ n?: number }> }).hits.map((h) => h.n);
    expect(nOf(results[0]!)).toEqual([1, 2]);
    expect(nOf(results[1]!)).toEqual([1, 2]);
    expect(nOf(results[2]!)).toEqual([3, 4, 5]);
    expect(results[2]!.content).toContain('[3] US-10000000-B2 Acetylsalicylic acid formulation；申请人：BAYER AG; BAYER PHARMA AG；公开日：2018-06-19（PubChem，https://pubchem.ncbi.nlm.nih.gov/patent/US-10000000-B2）');

    const citations = of(events, 'citation');
    expect(citations.map((c) => c.n)).toEqual([1, 2, 3, 4, 5]);
    // Title, assignee and date from PubChem's patent record; a patent without one is its number only.
    expect(citations[2]).toMatchObject({ n: 3, url: 'https://pubchem.ncbi.nlm.nih.gov/patent/US-10000000-B2', site: 'PubChem', kind: 'patent', title: 'US-10000000-B2 Acetylsalicylic acid formulation', snippet: '申请人：BAYER AG; BAYER PHARMA AG；公开日：2018-06-19' });
    expect(citations[4]).toMatchObject({ n: 5, title: 'JP-2001123456-A', snippet: '', kind: 'patent' });
    expect(answerText(events)).toBe('据检索，阿司匹林抑制 COX [1][2]。专利 US-10000000-B2 Acetylsalicylic acid formulation [3]。' +
      `专利 ${citations[3]!.title} [4]。专利 JP-2001123456-A [5]。`);
    expect((await storedCitations(client, channelId)).citations).toEqual(citations);
  });

  it('a search that fails is told to the model and cites nothing', async () => {
    const { client } = await signedInUser(server);
    searx.set(500);
    const { questionId } = await ask(client, '[web] 失败的搜索', { tools_name: ['web_search'] });
    const { events } = await readEvents(client, questionId);
    expect(of(events, 'tool_result')[0]).toMatchObject({ name: 'web_search', ok: false, content: expect.stringContaining('SearXNG 返回错误（500）') });
    expect(of(events, 'citation')).toEqual([]);
    expect(answerText(events)).toBe('据检索，阿司匹林抑制 COX 。');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
    searx.set('ok');
  });
});
