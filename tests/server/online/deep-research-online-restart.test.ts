import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, signUp } from '../helpers';
import { makePdf, upload, waitParsed } from '../knowledge-helpers';
import { ask, readEvents, startFakeLlm, type SseEvent } from '../answering-helpers';
import { killed, spawnServerProcess } from '../process-helpers';
import { startFakeService, type FakeService } from './web-services';

// kill -9 of the server while an online deep-research report is being written: the next start
// resumes it without searching the web again (the searches are saved with the research's state).
let llm: Awaited<ReturnType<typeof startFakeLlm>> | undefined;
let searx: FakeService | undefined;
afterAll(async () => {
  await llm?.close();
  await searx?.close();
});

const stepKeys = (events: SseEvent[]) => events.filter((e) => e.event === 'research_step').map((e) => `${String(e.data.step)}:${String(e.data.index ?? 0)}`);

describe('online deep research across a crash', () => {
  it('does not repeat a web search after a restart, and shows each search once', async () => {
    llm = await startFakeLlm();
    searx = await startFakeService('searxng', 'web');
    const env = { LLM_BASE_URL: llm.url, LLM_MODEL: 'chat-model', LLM_IDLE_TIMEOUT_MS: '5000', SEARXNG_URL: searx.url };
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-research-online-'));
    const first = await spawnServerProcess(dataDir, env);
    const client = new Client(first.url);
    const { account, password } = await signUp(client);
    expect((await client.post('/api/v1/auth/sign-in', { account, password })).status).toBe(200);
    const up = await upload(client, [{ name: 'kinase.pdf', data: makePdf([['Title page'], ['Results', 'Compound X binds the kinase with nanomolar affinity.']]), type: 'application/pdf' }]);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(client, docId);

    const { questionId } = await ask(client, 'compound X affinity || compound X selectivity kinase [hold] [deepkill]', {
      docIdList: [docId],
      deepresearch: true,
      if_search_online: true,
      search_type: 'web',
    });
    const before = await readEvents(client, questionId, { stopAfter: (e) => e.event === 'delta' });
    // Each search's best two pages are read (page crawl; offline or refused, the snippet stands in).
    const steps = ['plan:0', 'search:1', 'web:1', 'read_page:1', 'read_page:2', 'search:2', 'web:2', 'read_page:3', 'read_page:4', 'follow_up:1', 'read:0', 'write:0'];
    expect(stepKeys(before.events)).toEqual(steps);
    expect(searx.requests).toHaveLength(2);
    await killed(first.child);
    llm.release();

    const second = await spawnServerProcess(dataDir, env);
    try {
      const again = client.at(second.url);
      const all = (await readEvents(again, questionId)).events;
      expect(all.at(-1)).toMatchObject({ event: 'done' });
      // No search was made again, and every step is shown once.
      expect(searx.requests).toHaveLength(2);
      expect(stepKeys(all)).toEqual([...steps, 'resume:1']);
      // The writer's prompt after the restart still holds the saved web results.
      const writer = llm.requests.filter((r) => r.messages.some((m) => (m.content ?? '').includes('[deepkill]'))).at(-1)!;
      expect(writer.messages[0]!.content).toContain('联网搜索：example.org，https://www.example.org/web/aspirin');
    } finally {
      await killed(second.child);
    }
  }, 120_000);
});
