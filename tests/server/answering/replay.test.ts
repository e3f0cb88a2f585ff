import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, TestServer } from '../helpers';
import { CH, ask, openAiWithKinasePaper, readEvents, until, type startFakeLlm, type SseEvent } from '../answering-helpers';
import { answerOf, foldAnswerEvents, type AnswerState } from '../../../src/contract/answer-fold';
import { answerEvent, type AnswerEvent, type Question } from '../../../src/contract/channel';
import { answerModel } from '../../../src/core/answer-model';
import { answerSoFar } from '../../../src/server/channels/service';

// The one fold, replayed: every answer below is recorded from the real server's event stream and
// the state the browser builds from it (the core's answerModel, started from the question as the
// history gave it, fed the events after its last_event_id) must equal the state the server gives
// (folded from its stored events while the answer runs, written on the row when it ends).
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

/** The question as the history (GET /channel/questions/{channel_id}) gives it. */
async function questionOf(channelId: string, questionId: string): Promise<Question> {
  const list = await alice.get<{ items: Question[] }>(`${CH}/questions/${channelId}?size=100`);
  return list.body.data.items.find((q) => q.question_id === questionId)!;
}

/** The browser's view of an answer: the model started from the question, then fed what the stream sent (parsed with the contract). */
function browser(q: Question, events: SseEvent[]) {
  const model = answerModel(q.question_id);
  model.reset(q);
  model.apply(events.map((e) => answerEvent.parse(e)));
  return model;
}

/** Asks, opens the page (history), follows the stream to its end; returns the recorded log and both states. */
async function watch(question: string, extra: Record<string, unknown> = {}) {
  const { channelId, questionId } = await ask(alice, question, extra);
  const opened = await questionOf(channelId, questionId);
  const { events } = await readEvents(alice, questionId, { lastEventId: opened.last_event_id });
  const client = browser(opened, events).$state.value;
  const stored = answerOf(await questionOf(channelId, questionId));
  return { channelId, questionId, events, client, stored };
}

const same = (client: AnswerState, server: AnswerState) => expect(client).toEqual(server);

describe('an answer watched live and the same answer reloaded', () => {
  it('are the same for a plain answer with thinking', async () => {
    const { client, stored, events } = await watch('[think] 乙醇是什么？', { if_thinking: true });
    expect(events.at(-1)?.event).toBe('done');
    expect(client).toMatchObject({ status: 'done', answer: '这是回答。', thinking: '先想一想，再回答。' });
    same(client, stored);
  });

  it('are the same with a tool call, its result and a notice, whose steps the live view shows too', async () => {
    const { client, stored } = await watch('[tool] 算一下 CCO 的 ADMET', { tools_name: ['admet'], if_search_online: true });
    expect(client.steps.map((s) => s.type)).toEqual(['notice', 'tool_call', 'tool_result']);
    same(client, stored);
  });

  it('are the same when the answer fails mid-stream', async () => {
    const { client, stored } = await watch('[error] 出错的问题');
    expect(client).toMatchObject({ status: 'failed', answer: '部分内容', error: '语言模型服务出错：upstream exploded' });
    same(client, stored);
  });

  it('are the same after a reload mid-answer that resumes with Last-Event-ID', async () => {
    const { channelId, questionId } = await ask(alice, '[hold] 刷新页面 [think]', { if_thinking: true, if_search_online: true });
    // The first tab follows the whole answer; the page is reloaded once the first text arrived.
    const firstTab = readEvents(alice, questionId);
    await readEvents(alice, questionId, { stopAfter: (e) => e.event === 'delta' });
    const reloaded = await questionOf(channelId, questionId);
    expect(reloaded).toMatchObject({ status: 'running', answer: '第一段。' });
    const model = browser(reloaded, []);
    const resumed = readEvents(alice, questionId, { lastEventId: model.$lastEventId.value });
    await until(async () => llm.heldCount, (n) => n > 0);
    llm.release();
    const [live, after] = await Promise.all([firstTab, resumed]);
    // What the reloaded page started from is the live state at the same event.
    same(answerOf(reloaded), foldAnswerEvents(live.events.filter((e) => e.id <= reloaded.last_event_id).map((e) => answerEvent.parse(e))));
    expect(answerOf(reloaded).steps).toEqual([{ type: 'notice', message: '未配置联网搜索服务，本次回答没有进行联网搜索' }]);
    model.apply(after.events.map((e) => answerEvent.parse(e)));
    // The first tab's model started before any event.
    const firstModel = answerModel(questionId);
    firstModel.apply(live.events.map((e) => answerEvent.parse(e)));
    same(model.$state.value, firstModel.$state.value);
    same(model.$state.value, answerOf(await questionOf(channelId, questionId)));
    expect(model.$state.value).toMatchObject({ status: 'done', answer: '第一段。第二段。' });
  });

  it('are the same when the answer is stopped', async () => {
    const { channelId, questionId } = await ask(alice, '[hold] 要停止的问题');
    const opened = await questionOf(channelId, questionId);
    const stream = readEvents(alice, questionId, { lastEventId: opened.last_event_id });
    await until(async () => llm.heldCount, (n) => n > 0);
    expect((await alice.request<{ status: string }>('PUT', `${CH}/stop_questions/${questionId}`)).body.data.status).toBe('stopped');
    llm.release();
    const client = browser(opened, (await stream).events).$state.value;
    expect(client).toMatchObject({ status: 'stopped', answer: '第一段。' });
    same(client, answerOf(await questionOf(channelId, questionId)));
  });

  it('are the same for deep research with its steps and citations, reloaded at every event', async () => {
    const { channelId, questionId, events, client, stored } = await watch('compound X affinity || compound X selectivity kinase [replay]', { docIdList: [docId], deepresearch: true });
    expect(client.steps.filter((s) => s.type === 'research_step').map((s) => (s.type === 'research_step' ? s.step : ''))).toEqual(['plan', 'search', 'search', 'follow_up', 'read', 'write']);
    expect(client.citations.map((c) => c.n)).toEqual([1, 2]);
    same(client, stored);
    // A reload after any event of the whole log (the history folded up to it) resumes to the same
    // answer. The whole log, from its first event: on a loaded machine the page may have opened
    // after the first steps were written, and the stream above began after them.
    const q = await questionOf(channelId, questionId);
    const whole = (await readEvents(alice, questionId, { lastEventId: 0 })).events;
    expect(whole.map((e) => e.id)).toEqual(whole.map((_, i) => i + 1));
    expect(whole.slice(whole.length - events.length)).toEqual(events);
    const parsed = whole.map((e) => answerEvent.parse(e));
    for (const cut of parsed) {
      const page = { ...q, ...foldAnswerEvents(parsed.filter((e) => e.id <= cut.id)), last_event_id: cut.id };
      same(browser(page, whole.filter((e) => e.id > cut.id - 2)).$state.value, stored);
    }
  });
});

describe('the history read while an answer ends', () => {
  // The history reads a question's row, then its events: an answer can end in between. The row
  // then still says running while the events hold the end; the page must open on the end.
  const runningRow = { status: 'running' as const, finished_at: null, answer: null, thinking: null, steps: null, citations: null, error: null };
  const events: AnswerEvent[] = [
    { id: 1, event: 'status', data: { status: 'queued' } },
    { id: 2, event: 'status', data: { status: 'running' } },
    { id: 3, event: 'delta', data: { text: '部分内容' } },
    { id: 4, event: 'error', data: { status: 'failed', message: '语言模型服务出错：upstream exploded' } },
  ];

  it('gives the end the events hold, not the running status of the row read before them', () => {
    const page = answerSoFar(runningRow, events);
    expect(page).toMatchObject({ status: 'failed', answer: '部分内容', error: '语言模型服务出错：upstream exploded' });
    // The page opened on it, with nothing left to stream after its last event, shows the failure.
    const model = answerModel('q1');
    model.reset({ ...page, lastEventId: 4 });
    expect(model.$state.value).toMatchObject({ status: 'failed', error: '语言模型服务出错：upstream exploded' });
    expect(model.$live.value).toBe(false);
  });

  it('keeps the row’s status while the events have not ended (a claimed answer writes its running event after)', () => {
    expect(answerSoFar(runningRow, events.slice(0, 1)).status).toBe('running');
    expect(answerSoFar(runningRow, events.slice(0, 3))).toMatchObject({ status: 'running', answer: '部分内容', error: null });
  });
});
