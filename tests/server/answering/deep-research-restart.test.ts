import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, signUp } from '../helpers';
import { answerText, ask, readEvents, startFakeLlm, uploadKinasePaper, type SseEvent } from '../answering-helpers';
import { killed, spawnServerProcess } from '../process-helpers';

// kill -9 of the server while a deep-research report is being written; the next start resumes it.
let llm: Awaited<ReturnType<typeof startFakeLlm>> | undefined;
afterAll(async () => llm?.close());

const stepKeys = (events: SseEvent[]) => events.filter((e) => e.event === 'research_step').map((e) => `${String(e.data.step)}:${String(e.data.index ?? 0)}`);

describe('deep research across a crash', () => {
  it('resumes after its last finished step and completes one coherent report without repeated events', async () => {
    llm = await startFakeLlm();
    const env = { LLM_BASE_URL: llm.url, LLM_MODEL: 'chat-model', LLM_IDLE_TIMEOUT_MS: '5000' };
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-research-'));
    const first = await spawnServerProcess(dataDir, env);
    const client = new Client(first.url);
    const { account, password } = await signUp(client);
    expect((await client.post('/api/v1/auth/sign-in', { account, password })).status).toBe(200);
    const docId = await uploadKinasePaper(client);

    const { questionId } = await ask(client, 'compound X affinity || compound X selectivity kinase [hold] [deepkill]', { docIdList: [docId], deepresearch: true });
    // The report has begun (its first paragraph is stored), and the model is still writing: kill the server.
    const before = await readEvents(client, questionId, { stopAfter: (e) => e.event === 'delta' });
    expect(stepKeys(before.events)).toEqual(['plan:0', 'search:1', 'search:2', 'follow_up:1', 'read:0', 'write:0']);
    await killed(first.child);
    llm.release();

    const second = await spawnServerProcess(dataDir, env);
    try {
      const again = client.at(second.url);
      const all = (await readEvents(again, questionId)).events;
      // Ids run 1..n without a gap or a repeat; the earlier events are untouched.
      expect(all.map((e) => e.id)).toEqual(all.map((_, i) => i + 1));
      expect(all.slice(0, before.events.length)).toEqual(before.events);
      // Every step once, plus the one saying the research resumed; no step is redone.
      expect(stepKeys(all)).toEqual(['plan:0', 'search:1', 'search:2', 'follow_up:1', 'read:0', 'write:0', 'resume:1']);
      expect(all.find((e) => e.event === 'research_step' && e.data.step === 'resume')?.data).toMatchObject({ title: '服务重启后继续研究' });
      // One report: the stored beginning, then the model's continuation.
      expect(answerText(all)).toBe('# 报告\n\n第一段 [1]。第二段，接着写 [2]。\n\n## 结论\n综上 [1][2]。');
      expect(all.filter((e) => e.event === 'citation').map((e) => e.data)).toMatchObject([
        { n: 1, docId, page: 2 },
        { n: 2, docId, page: 3 },
      ]);
      expect(all.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
      // Neither the plan nor the follow-up round was asked for again; the writer was asked to continue what was stored.
      const calls = llm.requests.filter((r) => r.messages.some((m) => (m.content ?? '').includes('[deepkill]')));
      const kind = (r: (typeof calls)[number]) => ((c) => (c.includes('"sub_questions"') ? 'plan' : c.includes('"follow_ups"') ? 'follow_up' : 'write'))(r.messages[0]!.content ?? '');
      expect(calls.map(kind)).toEqual(['plan', 'follow_up', 'write', 'write']);
      expect(calls[3]!.messages.slice(-2)).toMatchObject([
        { role: 'assistant', content: '# 报告\n\n第一段 [1]。' },
        { role: 'user', content: expect.stringContaining('中断') },
      ]);
      // A client that had read up to the kill resumes with Last-Event-ID and gets exactly the rest.
      const rest = await readEvents(again, questionId, { lastEventId: before.events.at(-1)!.id });
      expect(rest.events).toEqual(all.slice(before.events.length));
    } finally {
      await killed(second.child);
    }
  }, 120_000);
});
