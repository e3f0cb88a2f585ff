import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { upload, waitParsed } from '../knowledge-helpers';
import { CH, answerText, ask, readEvents } from '../answering-helpers';

// Real documents from Debian packages (scripts/fetch-test-docs.mjs), uploaded through the API.
const ROOT = path.resolve(__dirname, '../../..');
const docsDir = execFileSync(process.execPath, [path.join(ROOT, 'scripts/fetch-test-docs.mjs')], { encoding: 'utf8' }).trim();

let server: TestServer;
let me: Client;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer();
  me = (await signedInUser(server)).client;
  const files = ['zhlipsum.pdf', 'fduthesis-en.pdf'];
  const up = await upload(me, files.map((name) => ({ name, data: fs.readFileSync(path.join(docsDir, name)), type: 'application/pdf' })));
  expect(up.status).toBe(200);
  for (const { name, docId } of up.body.data.name_id) ids[name] = docId;
  for (const id of Object.values(ids)) expect((await waitParsed(me, id, 120_000)).parseStatus).toBe(2);
}, 240_000);
afterAll(async () => server?.close());

describe('the local engine on real parsed PDFs', () => {
  it('answers a Chinese question with a quote and a citation to the right page', async () => {
    const { channelId, questionId } = await ask(me, '乱数假文是什么？', { docIdList: [ids['zhlipsum.pdf']!] });
    const { events } = await readEvents(me, questionId);
    const text = answerText(events);
    expect(text.split('\n')[0]).toContain('未配置大语言模型');
    expect(text).toContain('**《zhlipsum.pdf》**');
    const first = events.find((e) => e.event === 'citation')!.data;
    expect(first).toMatchObject({ n: 1, docId: ids['zhlipsum.pdf'], title: 'zhlipsum.pdf', page: 2 });
    expect(String(first.text)).toContain('乱数假文');
    // The quoted line for [1] names page 2 and holds words of the question.
    expect(text).toMatch(/第2页：“[^”]*乱数假文[^”]*” \[1\]/);
    // A passage sharing only a common word (“什么”) with the question is not quoted.
    expect(text).not.toContain('彭奇');
    const docs = await me.get<string[]>(`${CH}/channel_docs/${channelId}`);
    expect(docs.body.data).toEqual([ids['zhlipsum.pdf']]);
  });

  it('finds the table row on page 3 among two documents, and cites every quoted passage once', async () => {
    const { questionId } = await ask(me, '阿司匹林', { docIdList: [ids['zhlipsum.pdf']!, ids['fduthesis-en.pdf']!] });
    const { events } = await readEvents(me, questionId);
    const citations = events.filter((e) => e.event === 'citation').map((e) => e.data);
    expect(citations[0]).toMatchObject({ page: 3, docId: ids['zhlipsum.pdf'] });
    const text = answerText(events);
    const markers = [...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(markers).toEqual(citations.map((c) => c.n));
    expect(markers).toEqual(markers.map((_, i) => i + 1));
  });
});
