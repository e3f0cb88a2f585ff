import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, signedInUser, startServer, type TestServer } from '../helpers';
import { upload, waitParsed } from '../knowledge-helpers';
import { CH, answerText, ask, readEvents, type SseEvent } from '../answering-helpers';

// Deep research with the local engine (no model) over real PDFs uploaded through the API.
const ROOT = path.resolve(__dirname, '../../..');
const docsDir = execFileSync(process.execPath, [path.join(ROOT, 'scripts/fetch-test-docs.mjs')], { encoding: 'utf8' }).trim();

let server: TestServer;
let me: Client;
let account: { email: string; password: string };
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer();
  const user = await signedInUser(server);
  me = user.client;
  account = { email: user.email, password: user.password };
  const files = ['zhlipsum.pdf', 'fduthesis-en.pdf'];
  const up = await upload(me, files.map((name) => ({ name, data: fs.readFileSync(path.join(docsDir, name)), type: 'application/pdf' })));
  expect(up.status).toBe(200);
  for (const { name, docId } of up.body.data.name_id) ids[name] = docId;
  for (const id of Object.values(ids)) expect((await waitParsed(me, id, 120_000)).parseStatus).toBe(2);
}, 240_000);
afterAll(async () => server?.close());

const QUESTION = '乱数假文是什么？以及阿司匹林的用途有哪些？';
const stepKeys = (events: SseEvent[]) => events.filter((e) => e.event === 'research_step').map((e) => `${String(e.data.step)}:${String(e.data.index ?? 0)}`);

describe('deep research with the local engine', () => {
  let full: SseEvent[] = [];

  it('plans by splitting the question, searches each part, and writes a sectioned report citing the right pages', async () => {
    const { questionId } = await ask(me, QUESTION, { docIdList: [ids['zhlipsum.pdf']!, ids['fduthesis-en.pdf']!], deepresearch: true, if_search_online: true });
    full = (await readEvents(me, questionId)).events;
    const steps = full.filter((e) => e.event === 'research_step').map((e) => e.data);
    expect(steps[0]).toMatchObject({ step: 'plan', plan: ['乱数假文是什么', '阿司匹林的用途有哪些', QUESTION], progress: { current: 1, total: 6 } });
    expect(stepKeys(full)).toEqual(['plan:0', 'web:0', 'search:1', 'search:2', 'search:3', 'read:0', 'write:0']);
    expect(steps[1]!.detail).toBe('未配置联网搜索服务，本次深度研究只检索所选的文件和知识库');

    const text = answerText(full);
    const lines = text.split('\n');
    expect(lines[0]).toContain('未配置大语言模型');
    expect(lines.filter((l) => l.includes('未配置大语言模型'))).toHaveLength(1);
    for (const heading of ['### 引言', '### 1. 乱数假文是什么', '### 2. 阿司匹林的用途有哪些', `### 3. ${QUESTION}`, '### 结论']) expect(lines).toContain(heading);
    const citations = full.filter((e) => e.event === 'citation').map((e) => e.data);
    // The section on 乱数假文 quotes page 2, the one on 阿司匹林 the table on page 3 of zhlipsum.pdf.
    const section = (title: string) => text.slice(text.indexOf(title), text.indexOf('\n### ', text.indexOf(title) + 1));
    const firstIn = (title: string) => Number(/\[(\d+)\]/.exec(section(title))![1]);
    expect(citations.find((c) => c.n === firstIn('### 1. 乱数假文是什么'))).toMatchObject({ docId: ids['zhlipsum.pdf'], page: 2 });
    expect(citations.find((c) => c.n === firstIn('### 2. 阿司匹林的用途有哪些'))).toMatchObject({ docId: ids['zhlipsum.pdf'], page: 3 });
    for (const c of citations) expect(c.bbox).toHaveLength(4);
    // Every passage is cited once, numbered in order of appearance; the conclusion only refers back.
    expect(citations.map((c) => c.n)).toEqual(citations.map((_, i) => i + 1));
    const beforeConclusion = text.slice(0, text.indexOf('### 结论'));
    expect([...beforeConclusion.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]))).toEqual(citations.map((c) => c.n));
    expect(full.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
  });

  it('without chosen documents says no model is configured and asks for documents', async () => {
    const { questionId } = await ask(me, '阿司匹林的作用机制是什么？以及布洛芬的副作用有哪些？', { deepresearch: true });
    const { events } = await readEvents(me, questionId);
    expect(answerText(events).split('\n')[0]).toBe('未配置大语言模型，因此无法直接回答这个问题。');
    expect(answerText(events)).toContain('深度研究需要资料来源');
    expect(events.filter((e) => e.event === 'research_step' && e.data.step === 'search').map((e) => String(e.data.detail))).toEqual([
      '阿司匹林的作用机制是什么 —— 没有选择文件或知识库，跳过文档检索',
      '布洛芬的副作用有哪些 —— 没有选择文件或知识库，跳过文档检索',
      '阿司匹林的作用机制是什么？以及布洛芬的副作用有哪些？ —— 没有选择文件或知识库，跳过文档检索',
    ]);
    expect(events.at(-1)?.event).toBe('done');
  });

  it('after a restart, runs cut off while searching and while writing resume and end with the same report, no event repeated', async () => {
    const docIdList = [ids['zhlipsum.pdf']!, ids['fduthesis-en.pdf']!];
    const midSearch = await ask(me, QUESTION, { docIdList, deepresearch: true });
    const midWrite = await ask(me, QUESTION, { docIdList, deepresearch: true });
    const tooOften = await ask(me, QUESTION, { docIdList, deepresearch: true });
    for (const q of [midSearch, midWrite, tooOften]) await readEvents(me, q.questionId);
    // Put the database in the states a crash leaves (events after the crash point never stored).
    const db = server.sqlite();
    const cutAfter = (questionId: string, keep: (e: { type: string; data: string }) => boolean) => {
      const rows = db.prepare('select seq, type, data from question_events where question_id = ? order by seq').all(questionId) as Array<{ seq: number; type: string; data: string }>;
      const last = rows.findLastIndex(keep);
      db.prepare('delete from question_events where question_id = ? and seq > ?').run(questionId, rows[last]!.seq);
      db.prepare("update questions set status = 'running', finished_at = null, answer = null where id = ?").run(questionId);
    };
    // 1. Killed after the first sub-question was searched (its step stored), before the second.
    cutAfter(midSearch.questionId, (e) => e.type === 'research_step' && e.data.includes('"index":1'));
    const row = db.prepare('select findings from research_runs where question_id = ?').get(midSearch.questionId) as { findings: string };
    const findings = JSON.parse(row.findings) as unknown[];
    db.prepare("update research_runs set completed = 'plan', findings = ? where question_id = ?").run(JSON.stringify(findings.slice(0, 1)), midSearch.questionId);
    // 2. Killed while writing: the report's first lines stored, the rest (and some citations) not.
    let deltas = 0;
    cutAfter(midWrite.questionId, (e) => e.type === 'delta' && ++deltas <= 8);
    db.prepare("update research_runs set completed = 'read' where question_id = ?").run(midWrite.questionId);
    // 3. Interrupted by three restarts already (it may be what brings the server down): not resumed again.
    deltas = 0;
    cutAfter(tooOften.questionId, (e) => e.type === 'delta' && ++deltas <= 8);
    db.prepare("update research_runs set completed = 'read', resumes = 3 where question_id = ?").run(tooOften.questionId);
    db.close();
    const dataDir = server.dataDir;
    await server.close();

    server = await startServer({}, dataDir);
    me = server.client();
    expect((await me.post('/api/v1/auth/sign-in', { account: account.email, password: account.password })).status).toBe(200);
    const cases = [
      // The resume step comes right after the steps stored before the crash.
      { q: midSearch, steps: ['plan:0', 'search:1', 'resume:1', 'search:2', 'search:3', 'read:0', 'write:0'] },
      { q: midWrite, steps: ['plan:0', 'search:1', 'search:2', 'search:3', 'read:0', 'write:0', 'resume:1'] },
    ];
    for (const { q, steps } of cases) {
      const { events } = await readEvents(me, q.questionId);
      expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
      expect(stepKeys(events)).toEqual(steps);
      expect(answerText(events)).toBe(answerText(full));
      const cited = events.filter((e) => e.event === 'citation').map((e) => e.data);
      expect(cited.map((c) => c.n).sort((a, b) => Number(a) - Number(b))).toEqual(full.filter((e) => e.event === 'citation').map((e) => e.data.n));
      expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
      const list = await me.get<{ items: Array<{ question_id: string; status: string; answer: string }> }>(`${CH}/questions/${q.channelId}`);
      expect(list.body.data.items.find((x) => x.question_id === q.questionId)).toMatchObject({ status: 'done', answer: answerText(full) });
    }
    // The saved state of research that had ended before the restart is gone; the interrupted runs keep theirs.
    const check = server.sqlite();
    const kept = (check.prepare('select question_id from research_runs').all() as Array<{ question_id: string }>).map((r) => r.question_id);
    check.close();
    expect(kept.sort()).toEqual([midSearch.questionId, midWrite.questionId, tooOften.questionId].sort());
    const failed = await readEvents(me, tooOften.questionId);
    expect(failed.events.at(-1)?.data).toEqual({ status: 'failed', message: '服务重启，回答被中断，请重新提问' });
    expect(stepKeys(failed.events)).not.toContain('resume:4');
  });
});

