import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from './helpers';
import { KB, makePdf, upload, waitParsed } from './knowledge-helpers';

/** A tiny OpenAI-compatible /chat/completions that "translates" by tagging the text it was given. */
function fakeModel() {
  const seen: Array<{ model: string; messages: Array<{ role: string; content: string }> }> = [];
  let failNext = false;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const request = JSON.parse(body) as (typeof seen)[number];
      seen.push(request);
      if (failNext) {
        failNext = false;
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'bad model' } }));
        return;
      }
      const text = request.messages.find((m) => m.role === 'user')?.content ?? '';
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'x', object: 'chat.completion', created: 0, model: request.model,
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `译文：${text.slice(0, 40)}` } }],
        }),
      );
    });
  });
  return {
    seen,
    failOnce: () => (failNext = true),
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const model = fakeModel();
let withModel: TestServer;
let withoutModel: TestServer;
beforeAll(async () => {
  const url = await model.listen();
  withModel = await startServer({ LLM_BASE_URL: url, LLM_MODEL: 'translator-1' });
  withoutModel = await startServer();
});
afterAll(async () => {
  await Promise.all([withModel.close(), withoutModel.close(), model.close()]);
});

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
