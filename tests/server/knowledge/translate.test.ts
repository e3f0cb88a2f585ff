import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from '../helpers';
import { KB, makePdf, upload, waitParsed } from '../knowledge-helpers';
import { startChatServer, type ChatScript } from '../fake-llm';
import { until } from '../until';

/**
 * A tiny OpenAI-compatible model (fake-llm.ts) that "translates" by tagging the text it was given,
 * streamed in `pieces` parts `gapMs` apart (a pause of `stallMs` after the first part when set); it
 * only streams. `closed` counts requests whose connection went away before the end.
 */
function fakeModel() {
  let failNext = false;
  const pace = { pieces: 1, gapMs: 0, stallMs: 0 };
  let closed = 0;
  let chat: Awaited<ReturnType<typeof startChatServer>> | undefined;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const script: ChatScript = async (request, reply) => {
    if (failNext) {
      failNext = false;
      return reply.fail(400, 'bad model');
    }
    if (!request.stream) return reply.fail(500, 'this test model only streams');
    const text = `译文：${(request.messages.find((m) => m.role === 'user')?.content ?? '').slice(0, 40)}`;
    let ended = false;
    reply.res.on('close', () => {
      if (!ended) closed++;
    });
    const size = Math.ceil(text.length / pace.pieces);
    for (let i = 0; i < pace.pieces; i++) {
      if (reply.res.destroyed) return;
      reply.chunk({ content: text.slice(i * size, (i + 1) * size) });
      await sleep(i === 0 && pace.stallMs ? pace.stallMs : pace.gapMs);
    }
    if (reply.res.destroyed) return;
    ended = true;
    reply.finish();
  };
  return {
    /** The requests received. */
    get seen() {
      return chat?.requests ?? [];
    },
    pace,
    closed: () => closed,
    failOnce: () => (failNext = true),
    listen: async () => (chat = await startChatServer(script)).url,
    close: () => chat?.close(),
  };
}

const model = fakeModel();
let withModel: TestServer;
let withoutModel: TestServer;
/** A short idle limit: 400 ms of silence from the model. */
let impatient: TestServer;
beforeAll(async () => {
  const url = await model.listen();
  withModel = await startServer({ LLM_BASE_URL: url, LLM_MODEL: 'translator-1' });
  withoutModel = await startServer();
  impatient = await startServer({ LLM_BASE_URL: url, LLM_MODEL: 'translator-1', LLM_IDLE_TIMEOUT_MS: '400' });
});
afterAll(async () => {
  await Promise.all([withModel.close(), withoutModel.close(), impatient.close(), model.close()]);
});
afterEach(() => Object.assign(model.pace, { pieces: 1, gapMs: 0, stallMs: 0 }));

describe('translate', () => {
  it('translates a parsed document through the configured model, keeping chemistry intact by instruction', async () => {
    const { client } = await signedInUser(withModel);
    const up = await upload(client, [{ name: 'paper.pdf', data: makePdf([['Aspirin inhibits COX-1.']]) }]);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(client, docId);
    const res = await client.post<{ translation: string; truncated: boolean; model: string }>(`${KB}/translate`, { docId, target_lang: 'zh' });
    expect(res.status).toBe(200);
    expect(res.body.data.translation).toContain('Aspirin inhibits COX-1.');
    expect(res.body.data).toMatchObject({ truncated: false, model: 'translator-1' });
    const sent = model.seen.at(-1)!;
    expect(sent.model).toBe('translator-1');
    expect(sent.messages[0]!.content).toMatch(/简体中文[\s\S]*SMILES/);
  });

  it('sends a text of 20,000 characters whole', async () => {
    const { client } = await signedInUser(withModel);
    const res = await client.post<{ truncated: boolean }>(`${KB}/translate`, { text: 'a'.repeat(20_000), target_lang: 'en' });
    expect(res.status).toBe(200);
    expect(res.body.data.truncated).toBe(false);
    expect(model.seen.at(-1)!.messages[1]!.content).toHaveLength(20_000);
  });

  it('cuts a longer document to its first 20,000 characters and says so', async () => {
    const { client } = await signedInUser(withModel);
    const line = (p: number, l: number) => `Page ${p} line ${l}: kinase inhibitors bind the ATP pocket of CDK2.`;
    const pages = Array.from({ length: 14 }, (_, p) => Array.from({ length: 30 }, (_, l) => line(p + 1, l + 1)));
    const up = await upload(client, [{ name: 'long.pdf', data: makePdf(pages) }]);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(client, docId);
    const res = await client.post<{ truncated: boolean }>(`${KB}/translate`, { docId });
    expect(res.status).toBe(200);
    expect(res.body.data.truncated).toBe(true);
    const sent = model.seen.at(-1)!.messages[1]!.content;
    expect(sent).toHaveLength(20_000);
    expect(sent).toContain('Page 1 line 1');
  });

  it('takes a long translation in pieces: the idle limit applies to the silences, not the whole answer', async () => {
    const { client } = await signedInUser(impatient);
    Object.assign(model.pace, { pieces: 6, gapMs: 150 });
    const started = Date.now();
    const res = await client.post<{ translation: string; model: string }>(`${KB}/translate`, { text: 'Kinase inhibitors bind the ATP pocket.', target_lang: 'zh' });
    expect(Date.now() - started, 'longer than the 400 ms limit in all').toBeGreaterThan(700);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ translation: '译文：Kinase inhibitors bind the ATP pocket.', truncated: false, model: 'translator-1' });
    expect(model.seen.at(-1)!.stream).toBe(true);
  });

  it('stops a model silent for longer than LLM_IDLE_TIMEOUT_MS with 502 and says why', async () => {
    const { client } = await signedInUser(impatient);
    Object.assign(model.pace, { pieces: 3, stallMs: 1500 });
    const res = await client.post(`${KB}/translate`, { text: 'Kinase inhibitors bind the ATP pocket.' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, code: 'llm_failed', message: '语言模型超过 400 毫秒没有输出，翻译失败，请稍后重试' });
    // Nothing cut off is passed off as a translation.
    expect(res.body).not.toHaveProperty('data');
  });

  it('stops the model when the reader stops waiting', async () => {
    const { client } = await signedInUser(withModel);
    await client.get('/api/v1/');
    Object.assign(model.pace, { pieces: 5, gapMs: 400 });
    const before = model.closed();
    const abort = new AbortController();
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
    const sent = fetch(`${client.base}${KB}/translate`, {
      method: 'POST',
      signal: abort.signal,
      headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': client.csrf ?? '', 'x-forwarded-for': client.ip },
      body: JSON.stringify({ text: 'Kinase inhibitors bind the ATP pocket.' }),
    }).catch(() => 'aborted');
    const seen = model.seen.length;
    await until(() => model.seen.length > seen);
    abort.abort();
    expect(await sent).toBe('aborted');
    await until(() => model.closed() > before);
    expect(model.closed(), 'the model’s connection was closed before its end').toBe(before + 1);
  });

  it('reports a failing model as 502 with its reason, not 500', async () => {
    const { client } = await signedInUser(withModel);
    model.failOnce();
    const res = await client.post(`${KB}/translate`, { text: '你好' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, code: 'llm_failed' });
    expect(res.body.message).toContain('翻译失败');
  });

  it('says plainly that translation needs a language model when none is configured', async () => {
    const { client } = await signedInUser(withoutModel);
    const res = await client.post(`${KB}/translate`, { text: 'Hello' });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, code: 'llm_not_configured' });
    expect(res.body.message).toContain('LLM_BASE_URL');
  });

  it('hides other people’s documents and asks signed-out callers to sign in', async () => {
    const owner = await signedInUser(withModel);
    const up = await upload(owner.client, [{ name: 'mine.pdf', data: makePdf([['Secret.']]) }]);
    const docId = up.body.data.name_id[0]!.docId;
    const stranger = await signedInUser(withModel);
    expect((await stranger.client.post(`${KB}/translate`, { docId })).status).toBe(404);
    expect((await withModel.client().post(`${KB}/translate`, { docId })).status).toBe(401);
  });

  it.each([
    [{}, 'docId'],
    [{ docId: 'x', text: 'y' }, 'docId'],
    [{ text: '   ' }, 'text'],
    [{ text: 'a'.repeat(20_001) }, 'text'],
    [{ text: 'hi', target_lang: 'fr' }, 'target_lang'],
    [{ text: 'hi', extra: 1 }, 'extra'],
    [{ text: 42 }, 'text'],
  ])('answers %j with 400 naming %s', async (body, field) => {
    const { client } = await signedInUser(withModel);
    const before = model.seen.length;
    const res = await client.post(`${KB}/translate`, body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(model.seen.length).toBe(before);
  });
});
