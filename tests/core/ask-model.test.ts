// The question box model without a browser: its client speaks to a fake CSAI (fetch answered by
// routes, XHR for the upload), timers are the test's own.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/core/api';
import { createAskModel, type AskModel } from '../../src/core/ask-model';
import { createI18n } from '../../src/core/i18n';
import { createStatusStore, memoryStorage, type StatusStore } from '../../src/core/status-store';
import { createToastStore, type ToastStore } from '../../src/core/toast';

type Call = { method: string; path: string; body: unknown; headers: Headers };
type Route = (c: Call) => Response | undefined;
const ok = (data: unknown) => new Response(JSON.stringify({ success: true, data, message: '' }), { status: 200, headers: { 'Content-Type': 'application/json' } });
const fail = (status: number, message: string, code = 'bad_request') => new Response(JSON.stringify({ success: false, message, code }), { status, headers: { 'Content-Type': 'application/json' } });
const doc = (docId: string, title: string, parseStatus: 1 | 2 | 3, parse_progress = 0) => ({
  docId, title, type: 1, parseStatus, parse_progress, progress_texts: [], img_id: null, download_url: '', download_key: '', folder_id: 'folder_for_question_channel',
  size: 10, page_count: 1, owner_id: 'u1', owner_name: '王', is_owner: true, created_at: '2026-01-01T00:00:00Z',
});
const tools = [{ id: 'search', label: '搜索', tools: [
  { id: 'web', label: '网页搜索', value: 'web_search', description: '', icon: '', enabled: true, ldap_disabled: false },
  { id: 'admet', label: 'ADMET', value: 'admet', description: '', icon: '', enabled: true, ldap_disabled: true },
] }];

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

/** An XHR that answers the upload with the given envelope after one progress event. */
function installXhr(answer: () => { status: number; body: unknown }) {
  const real = globalThis.XMLHttpRequest;
  class FakeXhr extends EventTarget {
    status = 0;
    responseText = '';
    withCredentials = false;
    readonly upload = new EventTarget();
    open() {}
    setRequestHeader() {}
    getAllResponseHeaders() {
      return 'content-type: application/json\r\n';
    }
    abort() {}
    send(body: FormData) {
      const size = body.getAll('files').reduce((n, f) => n + (f instanceof Blob ? f.size : 0), 0);
      this.upload.dispatchEvent(Object.assign(new Event('progress'), { lengthComputable: true, loaded: size / 2, total: size }));
      const { status, body: out } = answer();
      this.status = status;
      this.responseText = JSON.stringify(out);
      this.dispatchEvent(new Event('load'));
    }
  }
  Object.defineProperty(globalThis, 'XMLHttpRequest', { value: FakeXhr, configurable: true, writable: true });
  return () => Object.defineProperty(globalThis, 'XMLHttpRequest', { value: real, configurable: true, writable: true });
}

describe('the question box model', () => {
  let store: StatusStore;
  let toasts: ToastStore;
  let calls: Call[];
  let timers: ReturnType<typeof manualTimers>;
  let model: AskModel;
  let signIns: number;
  let restoreXhr = () => {};

  const make = (routes: Route[] = []) => {
    const all: Route[] = [
      ...routes,
      (c) => (c.path === '/tools' ? ok(tools) : undefined),
      (c) => (c.method === 'POST' && c.path === '/channel' ? ok({ id: 'c1', name: String((c.body as { name: string }).name), question_count: 0, created_at: '', updated_at: '' }) : undefined),
      (c) => (c.path === '/channel/init_questions' ? ok({ question_id: 'q1', channel_id: String((c.body as { channel_id: string }).channel_id), status: 'queued' }) : undefined),
      (c) => (c.path === '/knowledge_base/folder/check_folder' ? ok({ all_parsed: true, folders: [] }) : undefined),
    ];
    const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://csai.test');
      const call = { method: init.method ?? 'GET', path: url.pathname.replace(/^\/api\/v1/, '') + url.search, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined, headers: new Headers(init.headers) };
      calls.push(call);
      for (const r of all) {
        const res = r(call);
        if (res) return res;
      }
      return fail(404, '接口不存在', 'not_found');
    };
    const client = createApiClient({ fetch, toasts, i18n: createI18n(), navigate: () => undefined, readCookies: () => 'XSRF-TOKEN=t' });
    model = createAskModel({ client, store, toasts, t: (k) => k, clientKind: 'web', signIn: () => (signIns += 1), setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout });
    return model;
  };
  const sent = () => calls.find((c) => c.path === '/channel/init_questions')?.body as Record<string, unknown> | undefined;

  beforeEach(() => {
    store = createStatusStore(memoryStorage());
    toasts = createToastStore();
    calls = [];
    timers = manualTimers();
    signIns = 0;
  });
  afterEach(() => {
    model?.dispose();
    restoreXhr();
  });

  it('sends the full SPEC §3 request with the SPEC §4 defaults, then clears the box', async () => {
    store.session.$user_id.value = 'u1';
    store.ask.$knowledgeCSAIDefault.value = ['pub1', 'pub2'];
    make();
    store.ask.$selectedKbs.value = [{ id: 'kb1', name: '药化文献' }];
    const where = await model.send('  阿司匹林的作用机制？ ');
    expect(where).toEqual({ channelId: 'c1', questionId: 'q1' });
    expect(calls.find((c) => c.method === 'POST' && c.path === '/channel')!.body).toEqual({ name: '阿司匹林的作用机制？' });
    expect(sent()).toEqual({
      question: '阿司匹林的作用机制？', channel_id: 'c1', docIdList: [], user_id: 'u1', docIdListKnowledge: [], knowledgeCSAIDefault: ['pub1'], client: 'web',
      kb_ids: ['kb1'], if_search_online: true, search_type: 'all', if_thinking: true, deepresearch: false, tools_name: ['web_search'],
    });
    expect(calls.find((c) => c.path === '/channel/init_questions')!.headers.get('X-CSRF-TOKEN')).toBe('t');
    expect(store.ask.$selectedKbs.value).toEqual([]);
    expect(store.ask.$channel_id.value).toBe('c1');
  });

  it('uploads files with per-file progress, polls their parsing every second, and sends them', async () => {
    restoreXhr = installXhr(() => ({ status: 200, body: { success: true, message: '上传成功', data: { name_id: [{ name: 'a.pdf', docId: 'd1' }, { name: 'b.pdf', docId: 'd2' }] } } }));
    let polls = 0;
    make([(c) => (c.path === '/knowledge_base/doc/d1' ? ok(doc('d1', 'a.pdf', ++polls < 2 ? 1 : 2, polls < 2 ? 40 : 100)) : c.path === '/knowledge_base/doc/d2' ? ok(doc('d2', 'b.pdf', 2, 100)) : undefined)]);
    const seen: string[] = [];
    model.$chips.subscribe((chips) => seen.push(chips.map((c) => `${c.name}:${c.phase}:${c.percent}`).join(',')));
    await model.addFiles([new File(['%PDF-1'], 'a.pdf'), new File(['%PDF-2'], 'b.pdf')]);
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
    restoreXhr = installXhr(() => ({ status: 403, body: { success: false, message: 'Invalid session key', code: 'forbidden' } }));
    make();
    await model.addFiles([new File(['%PDF'], 'a.pdf'), new File(['%PDF'], 'b.pdf')]);
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
    make([(c) => (c.method === 'POST' && c.path === '/channel' && refuse ? fail(500, '数据库不可用', 'internal') : undefined)]);
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
    make([(c) => (c.path === '/channel/init_questions' && refuse ? new Response('oops', { status: 502 }) : undefined)]);
    expect(await model.send('问题', 'c9')).toBe(null);
    expect(toasts.$toasts.value[0]!.title).toBe('send_failed');
    expect(model.$failed.value).toEqual({ question: '问题', channelId: 'c9' });
    refuse = false;
    await model.retry();
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/channel')).toHaveLength(0);
    expect(sent()).toMatchObject({ channel_id: 'c9' });
  });

  it('follows the answer with the one event stream and stops it', async () => {
    let release: (() => void) | undefined;
    make([
      (c) => {
        if (!c.path.startsWith('/channel/questions/q1/events')) return undefined;
        const body = new ReadableStream<Uint8Array>({
          start(ctl) {
            ctl.enqueue(new TextEncoder().encode(': stream\n\nid: 1\nevent: status\ndata: {"status":"running"}\n\n'));
            release = () => ctl.enqueue(new TextEncoder().encode('id: 2\nevent: done\ndata: {"status":"stopped"}\n\n'));
          },
        });
        return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
      },
      (c) => (c.method === 'PUT' && c.path === '/channel/stop_questions/q1' ? ok({ question_id: 'q1', status: 'stopped' }) : undefined),
    ]);
    model.follow('q1');
    expect(model.$answering.value).toBe('q1');
    await until(() => release !== undefined);
    await model.stop();
    expect(calls.some((c) => c.method === 'PUT' && c.path === '/channel/stop_questions/q1')).toBe(true);
    release!();
    await until(() => model.$answering.value === null);
    expect(calls.find((c) => c.path.startsWith('/channel/questions/q1/events'))!.headers.get('Last-Event-ID')).toBe('0');
  });

  it('turns preselected ids into chips and drops the ones the server refuses', async () => {
    make([(c) => (c.path === '/knowledge_base/doc/d7' ? ok(doc('d7', '综述.pdf', 2, 100)) : undefined)]);
    store.ask.preselectDocuments(['d7', 'nope']);
    await flush();
    expect(model.$chips.value.map((c) => `${c.name}:${c.phase}`)).toEqual(['综述.pdf:done']);
    expect(store.ask.$docIdList.value).toEqual(['d7']);
  });
});
