// The question box model without a browser: its client speaks to the fake CSAI of the widget tests
// (fetch answered by routes, the XHR stand-in for the upload), timers are the test's own.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/core/api';
import { createAskModel, type AskModel } from '../../src/core/ask-model';
import { createI18n } from '../../src/core/i18n';
import { createStatusStore, memoryStorage, type StatusStore } from '../../src/core/status-store';
import { createToastStore, type ToastStore } from '../../src/core/toast';
import { doc, fail, FakeAnswerStream, fakeCsai, FakeXhr, installFakes, ok, type ApiRequest, type FakeApi, type Route } from '../widgets/ask/fake-csai';

/** Timers run when the test says so. */
function manualTimers() {
  const due: (() => void)[] = [];
  return {
    setTimeout: (fn: () => void) => due.push(fn),
    clearTimeout: () => undefined,
    runAll: () => due.splice(0).forEach((fn) => fn()),
    get pending() {
      return due.length;
    },
  };
}

/** Waits (in real time, at most 3 s) until `check` holds: module imports and streams take a few tasks. */
async function until(check: () => boolean) {
  const end = Date.now() + 3000;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

const flush = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
};

describe('the question box model', () => {
  let store: StatusStore;
  let toasts: ToastStore;
  let api: FakeApi | undefined;
  let timers: ReturnType<typeof manualTimers>;
  let model: AskModel;
  let signIns: number;
  let restoreFakes = () => {};
  const calls = (): ApiRequest[] => api?.calls ?? [];

  const make = (routes: Route[] = []) => {
    api = fakeCsai(routes);
    const client = createApiClient({ fetch: globalThis.fetch, toasts, i18n: createI18n(), navigate: () => undefined, readCookies: () => 'XSRF-TOKEN=t' });
    model = createAskModel({ client, store, toasts, t: (k) => k, clientKind: 'web', signIn: () => (signIns += 1), setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout });
    return model;
  };
  /** Adds the files; their upload gets one progress event (half the bytes), then this answer. */
  const addUploaded = async (files: File[], status: number, body: unknown) => {
    const adding = model.addFiles(files);
    await until(() => FakeXhr.sent.length === 1);
    const xhr = FakeXhr.last!;
    const size = xhr.files().reduce((n, f) => n + f.size, 0);
    xhr.progress(size / 2, size);
    xhr.respond(status, body);
    await adding;
  };
  const sent = () => calls().find((c) => c.path === '/channel/init_questions')?.body as Record<string, unknown> | undefined;

  beforeEach(() => {
    store = createStatusStore(memoryStorage());
    toasts = createToastStore();
    timers = manualTimers();
    signIns = 0;
    restoreFakes = installFakes();
  });
  afterEach(() => {
    model?.dispose();
    api?.restore();
    api = undefined;
    restoreFakes();
  });

  it('sends the full SPEC §3 request with the SPEC §4 defaults, then clears the box', async () => {
    store.session.$user_id.value = 'u1';
    store.ask.$knowledgeCSAIDefault.value = ['pub1', 'pub2'];
    make();
    store.ask.$selectedKbs.value = [{ id: 'kb1', name: '药化文献' }];
    const where = await model.send('  阿司匹林的作用机制？ ');
    expect(where).toEqual({ channelId: 'c1', questionId: 'q1' });
    expect(calls().find((c) => c.method === 'POST' && c.path === '/channel')!.body).toEqual({ name: '阿司匹林的作用机制？' });
    expect(sent()).toEqual({
      question: '阿司匹林的作用机制？', channel_id: 'c1', docIdList: [], user_id: 'u1', docIdListKnowledge: [], knowledgeCSAIDefault: ['pub1'], client: 'web',
      kb_ids: ['kb1'], if_search_online: true, search_type: 'all', if_thinking: true, deepresearch: false, tools_name: ['web_search', 'crawl'],
    });
    expect(calls().find((c) => c.path === '/channel/init_questions')!.headers.get('X-CSRF-TOKEN')).toBe('t');
    expect(store.ask.$selectedKbs.value).toEqual([]);
    expect(store.ask.$channel_id.value).toBe('c1');
  });

  it('uploads files with per-file progress, polls their parsing every second, and sends them', async () => {
    let polls = 0;
    make([
      ['GET', '/knowledge_base/doc/d1', () => ok(doc('d1', 'a.pdf', ++polls < 2 ? 1 : 2, polls < 2 ? 40 : 100))],
      ['GET', '/knowledge_base/doc/d2', () => ok(doc('d2', 'b.pdf', 2, 100))],
    ]);
    const seen: string[] = [];
    model.$chips.subscribe((chips) => seen.push(chips.map((c) => `${c.name}:${c.phase}:${c.percent}`).join(',')));
    await addUploaded([new File(['%PDF-1'], 'a.pdf'), new File(['%PDF-2'], 'b.pdf')], 200, { success: true, message: '上传成功', data: { name_id: [{ name: 'a.pdf', docId: 'd1' }, { name: 'b.pdf', docId: 'd2' }] } });
    expect(seen).toContain('a.pdf:uploading:100,b.pdf:uploading:0');
    expect(model.$chips.value.map((c) => c.phase)).toEqual(['parsing', 'parsing']);
    expect(store.ask.$docIdList.value).toEqual(['d1', 'd2']);
    expect(await model.send('总结'), 'not while parsing').toBe(null);
    expect(toasts.$toasts.value[0]).toMatchObject({ title: 'cannot_send', description: 'file_parsing' });
    expect(timers.pending).toBe(1);
    timers.runAll();
    await flush();
    expect(model.$chips.value.map((c) => `${c.phase}:${c.percent}`)).toEqual(['parsing:40', 'done:100']);
    timers.runAll();
    await flush();
    expect(model.$chips.value.map((c) => c.phase)).toEqual(['done', 'done']);
    expect(timers.pending, 'polling stops when nothing parses').toBe(0);
    await model.send('总结这两篇文献');
    expect(sent()).toMatchObject({ docIdList: ['d1', 'd2'], kb_ids: [], knowledgeCSAIDefault: [], docIdListKnowledge: [] });
  });

  it('fails the whole batch on an upload error, and goes to sign-in when the session is refused', async () => {
    make();
    await addUploaded([new File(['%PDF'], 'a.pdf'), new File(['%PDF'], 'b.pdf')], 403, { success: false, message: 'Invalid session key', code: 'forbidden' });
    expect(model.$chips.value.map((c) => c.phase)).toEqual(['failed', 'failed']);
    expect(toasts.$toasts.value[0]).toMatchObject({ title: '需要登录', description: '请先登录后再试' });
    expect(signIns).toBe(1);
  });

  it('keeps SPEC §5 limits: no knowledge base beside files, a wrong type refused with its message', async () => {
    make();
    await model.addFiles([new File(['x'], 'notes.docx')]);
    expect(model.$message.value).toBe('仅支持PDF、JPEG、JPG、PNG、PDB和SDF文件格式');
    store.ask.$selectedKbs.value = [{ id: 'kb1', name: 'A' }];
    await model.addFiles([new File(['%PDF'], 'a.pdf')]);
    expect(model.$message.value).not.toBe('');
    model.toggleKb({ id: 'kb2', name: 'B' });
    model.toggleKb({ id: 'kb3', name: 'C' });
    expect(store.ask.$selectedKbs.value.map((k) => k.id)).toEqual(['kb1', 'kb2']);
  });

  it('says 创建频道失败 with the server message, and retry sends the same question again', async () => {
    let refuse = true;
    make([['POST', '/channel', () => (refuse ? fail(500, '数据库不可用', 'internal') : undefined)]]);
    expect(await model.send('问题')).toBe(null);
    expect(toasts.$toasts.value[0]).toMatchObject({ title: 'channel_failed', description: '数据库不可用' });
    expect(model.$failed.value).toEqual({ question: '问题' });
    refuse = false;
    expect(await model.retry()).toEqual({ channelId: 'c1', questionId: 'q1' });
    expect(sent()).toMatchObject({ question: '问题', channel_id: 'c1' });
    expect(model.$failed.value).toBe(null);
  });

  it('a failed send keeps its channel for the retry; 请稍后重试 without a server message', async () => {
    let refuse = true;
    make([['*', '/channel/init_questions', () => (refuse ? new Response('oops', { status: 502 }) : undefined)]]);
    expect(await model.send('问题', 'c9')).toBe(null);
    expect(toasts.$toasts.value[0]!.title).toBe('send_failed');
    expect(model.$failed.value).toEqual({ question: '问题', channelId: 'c9' });
    refuse = false;
    await model.retry();
    expect(calls().filter((c) => c.method === 'POST' && c.path === '/channel')).toHaveLength(0);
    expect(sent()).toMatchObject({ channel_id: 'c9' });
  });

  it('follows the answer with the one event stream and stops it', async () => {
    make();
    model.follow('q1');
    expect(model.$answering.value).toBe('q1');
    await until(() => FakeAnswerStream.all.length === 1);
    const stream = FakeAnswerStream.all[0]!;
    expect(stream.url).toContain('/channel/questions/q1/events');
    stream.emit(1, 'status', { status: 'running' });
    await model.stop();
    expect(calls().some((c) => c.method === 'PUT' && c.path === '/channel/stop_questions/q1')).toBe(true);
    stream.emit(2, 'done', { status: 'stopped' });
    await until(() => model.$answering.value === null);
    expect(calls().find((c) => c.path.startsWith('/channel/questions/q1/events'))!.headers.get('Last-Event-ID')).toBe('0');
  });

  it('turns preselected ids into chips and drops the ones the server refuses', async () => {
    make([['GET', '/knowledge_base/doc/d7', () => ok(doc('d7', '综述.pdf', 2, 100))]]);
    store.ask.preselectDocuments(['d7', 'nope']);
    await flush();
    expect(model.$chips.value.map((c) => `${c.name}:${c.phase}`)).toEqual(['综述.pdf:done']);
    expect(store.ask.$docIdList.value).toEqual(['d7']);
  });
});
