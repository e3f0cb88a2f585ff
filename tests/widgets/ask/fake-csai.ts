// The CSAI API as the question box and the conversations use it (tools, folders, a channel, a
// question, the answer event streams the test feeds), on the shared fake API (../fake-api), and
// the XMLHttpRequest stand-in for uploads with progress; the records of a conversation, and the
// page set-up the browser tests of <csai-ask> and <csai-channels> share.
import type { Question } from '../../../src/contract/channel';
import { statusStore } from '../../../src/core/status-store';
import { mount, part, waitFor } from '../harness';
import { fakeApi, installFakeXhr, ok, type FakeApi, type Route } from '../fake-api';

export { fail, FakeXhr, ok, type ApiRequest, type FakeApi, type Route } from '../fake-api';

/** A folder as the server lists it. */
export const folder = (id: string, name: string) => ({
  id, name, isShared: false, is_public: false, is_owner: true, owner_id: 'u1', owner_name: '王', doc_count: 3, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
});
/** A document as the server returns it. */
export const doc = (docId: string, title: string, parseStatus: 1 | 2 | 3, parse_progress = 0) => ({
  docId, title, type: 1, parseStatus, parse_progress, progress_texts: [], img_id: null, download_url: '', download_key: '', folder_id: 'folder_for_question_channel',
  size: 10, page_count: 1, owner_id: 'u1', owner_name: '王', is_owner: true, created_at: '2026-01-01T00:00:00Z',
});
export const toolGroups = [
  { id: 'search', label: '搜索', tools: [
    { id: 'web', label: '网页搜索', value: 'web_search', description: '', icon: '', enabled: true, ldap_disabled: false },
    { id: 'crawl', label: '网页抓取', value: 'crawl', description: '', icon: '', enabled: true, ldap_disabled: false },
  ] },
  { id: 'chem', label: '小分子与蛋白', tools: [
    { id: 'admet', label: 'ADMET计算', value: 'admet', description: '', icon: '', enabled: true, ldap_disabled: true },
  ] },
];

/**
 * Replaces the page's fetch with the usual answers: tools, folders, a channel, a question, and an
 * answer event stream (FakeAnswerStream) for every events request. `extra` routes are asked first.
 */
export function fakeCsai(extra: Route[] = []) {
  return fakeApi([
    ['GET', /^\/channel\/questions\/[^/]+\/events$/, (req) => new FakeAnswerStream(req.url, req.headers.get('Last-Event-ID'), req.signal).response],
    ['*', '/', () => ok({ name: 'csai', version: '1', time: '' })],
    ['*', '/tools', () => ok(toolGroups)],
    ['*', '/online/status', () => ok({ web: true, literature: true, patents: true, missing: {} })],
    ['*', '/knowledge_base/folder', () => ok({ items: [folder('kb1', '药化文献'), folder('kb2', '专利'), folder('kb3', '综述')], total: 3, page: 1, size: 100 })],
    ['*', '/knowledge_base/get_share_folders', () => ok({ items: [], total: 0, page: 1, size: 100 })],
    ['*', '/knowledge_base/folder/check_folder', () => ok({ all_parsed: true, folders: [] })],
    ['POST', '/channel', (req) => ok({ id: 'c1', name: String((req.body as { name: string }).name), question_count: 0, created_at: '', updated_at: '' })],
    ['*', '/channel/init_questions', (req) => ok({ question_id: 'q1', channel_id: String((req.body as { channel_id: string }).channel_id), status: 'queued' })],
    ['PUT', /^\/channel\/stop_questions\//, () => ok({ question_id: 'q1', status: 'stopped' })],
    ...extra,
  ]);
}

/** A conversation as GET /channel lists it. */
export const channelRecord = (id = 'c1', name = '阿司匹林的作用机制？') => ({ id, name, question_count: 1, created_at: '', updated_at: '' });

/**
 * A question of channel c1 as GET /channel/questions/{channel} gives it: finished, with no answer
 * text, unless `over` says otherwise. The fields of `over` are the test's data as sent (the page
 * checks them against the contract), hence not typed further.
 */
export const questionRecord = (over: { [K in keyof Question]?: unknown } = {}) =>
  ({
    question_id: 'q1', channel_id: 'c1', question: '阿司匹林的作用机制？', status: 'done', answer: '', thinking: '', steps: [], citations: [], error: null,
    effect: null, effect_comment: null, docIdList: [], docIdListKnowledge: [], kb_ids: [], if_search_online: false, search_type: 'all', if_thinking: true,
    deepresearch: false, tools_name: [], engine: 'local', last_event_id: 0, created_at: '', finished_at: null, ...over,
  }) as Question;

/**
 * The routes of channel c1 holding `questions` (newest first): the channel list (`channels`, of
 * `total`, on the page asked for), the channel's questions, and the documents it used (none).
 */
export function conversationRoutes(questions: unknown[], { channels = [channelRecord()], total = channels.length }: { channels?: unknown[]; total?: number } = {}): Route[] {
  return [
    ['GET', '/channel', (req) => ok({ items: channels, total, page: Number(req.query.get('page') ?? 1), size: 20 })],
    ['GET', '/channel/questions/c1', () => ok({ items: questions, total: questions.length, page: 1, size: 100 })],
    ['GET', /^\/channel\/channel_docs\//, () => ok([])],
  ];
}

/**
 * A browser test's page on the fake CSAI, for a describe block (it adds the hooks): before each
 * test the CSRF cookie, no files or knowledge bases chosen, the XHR stand-in and no answer streams
 * yet; after it the mounted markup removed and the page's fetch and XHR put back.
 */
export function fakeCsaiPage() {
  let api: FakeApi | undefined;
  let box: HTMLElement | undefined;
  let restoreXhr = () => {};
  beforeEach(() => {
    document.cookie = 'XSRF-TOKEN=test-token; path=/';
    const ask = statusStore().ask;
    ask.$files_list.value = [];
    ask.$docIdList.value = [];
    ask.$selectedKbs.value = [];
    restoreXhr = installFakes();
  });
  afterEach(() => {
    box?.remove();
    box = undefined;
    api?.restore();
    api = undefined;
    restoreXhr();
  });
  const page = {
    /** Every request to the fake API of this test. */
    get calls() {
      return api?.calls ?? [];
    },
    /** Answers the page's requests: the usual routes (fakeCsai) and `extra`, asked first. */
    serve(extra: Route[] = []) {
      api?.restore();
      api = fakeCsai(extra);
      return api;
    },
    /** Adds the markup to the page (removed after the test); returns its first element. */
    mount<E extends Element = HTMLElement>(html: string): E {
      box?.remove();
      box = mount(html);
      return box.firstElementChild as E;
    },
    /**
     * Shows <csai-channels> (with `attrs`: channel c1 unless they say otherwise) on channel c1
     * holding `questions`, and waits for the conversation; `extra` routes are asked first.
     */
    async conversation(questions: unknown[], { attrs = 'channel-id="c1"', extra = [], ...list }: { attrs?: string; extra?: Route[]; channels?: unknown[]; total?: number } = {}) {
      page.serve([...conversationRoutes(questions, list), ...extra]);
      const el = page.mount(`<csai-channels ${attrs}></csai-channels>`);
      await waitFor(() => part(el, 'conversation'), 'the conversation');
      return el;
    },
  };
  return page;
}

/** One answer event stream the fake server holds open: the test sends its events. */
export class FakeAnswerStream {
  static all: FakeAnswerStream[] = [];
  closed = false;
  readonly response: Response;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  constructor(readonly url: string, readonly lastEventId: string | null, signal?: AbortSignal) {
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        this.controller = c;
        c.enqueue(new TextEncoder().encode(': stream\n\n'));
      },
      cancel: () => {
        this.closed = true;
      },
    });
    signal?.addEventListener('abort', () => {
      this.closed = true;
      this.controller?.error(new DOMException('aborted', 'AbortError'));
    });
    this.response = new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
    FakeAnswerStream.all.push(this);
  }
  emit(id: number, event: string, data: unknown) {
    if (!this.closed) this.controller?.enqueue(new TextEncoder().encode(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
  }
}

/** Installs FakeXhr and forgets earlier streams; returns the restore function. */
export function installFakes() {
  FakeAnswerStream.all = [];
  return installFakeXhr();
}

/** Sets a controlled textarea's value the way typing does (React listens to input events). */
export function typeInto(el: HTMLTextAreaElement | HTMLInputElement, value: string) {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
}

/** Chooses files in a file input. */
export function chooseFiles(input: HTMLInputElement, files: File[]) {
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(f);
  input.files = dt.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

export const pdf = (name: string) => new File(['%PDF-1.4 test'], name, { type: 'application/pdf' });
export const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], name, { type: 'image/png' });
