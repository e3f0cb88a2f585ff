// A fake CSAI server for the question box and conversation tests: fetch (with the answer event
// streams the test feeds) and XMLHttpRequest (uploads with progress) replaced in the page, every
// call recorded.
import { json } from '../harness';

export interface Call {
  method: string;
  url: string;
  path: string;
  body: unknown;
}
export type Route = (call: Call) => Response | Promise<Response> | undefined;

export const okBody = (data: unknown, message = '') => json(200, { success: true, data, message });
export const failBody = (status: number, message: string, code = 'bad_request') => json(status, { success: false, message, code });

const pathOf = (url: string) => {
  const u = new URL(url, location.href);
  return u.pathname.replace(/^\/api\/v1/, '') + u.search;
};

/** Answers every call of the fake server; unknown paths get 404. */
export function fakeFetch(routes: Route[]) {
  const original = globalThis.fetch;
  const calls: Call[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    let body: unknown = undefined;
    if (typeof init?.body === 'string') body = JSON.parse(init.body);
    const call = { method, url, path: pathOf(url), body };
    calls.push(call);
    if (method === 'GET' && /^\/channel\/questions\/[^/]+\/events/.test(call.path)) {
      return new FakeAnswerStream(url, new Headers(init?.headers).get('Last-Event-ID'), init?.signal ?? undefined).response;
    }
    for (const r of routes) {
      const res = await r(call);
      if (res) return res;
    }
    return failBody(404, '接口不存在', 'not_found');
  };
  return { calls, restore: () => void (globalThis.fetch = original) };
}

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

/** The usual answers: tools, folders, a channel, a question. Extra routes go first. */
export function csaiRoutes(extra: Route[] = []): Route[] {
  return [
    ...extra,
    (c) => (c.path === '/' ? okBody({ name: 'csai', version: '1', time: '' }) : undefined),
    (c) => (c.path === '/tools' ? okBody(toolGroups) : undefined),
    (c) => (c.path === '/online/status' ? okBody({ web: true, literature: true, patents: true, missing: {} }) : undefined),
    (c) => (c.path.startsWith('/knowledge_base/folder?') ? okBody({ items: [folder('kb1', '药化文献'), folder('kb2', '专利'), folder('kb3', '综述')], total: 3, page: 1, size: 100 }) : undefined),
    (c) => (c.path.startsWith('/knowledge_base/get_share_folders?') ? okBody({ items: [], total: 0, page: 1, size: 100 }) : undefined),
    (c) => (c.path === '/knowledge_base/folder/check_folder' ? okBody({ all_parsed: true, folders: [] }) : undefined),
    (c) => (c.method === 'POST' && c.path === '/channel' ? okBody({ id: 'c1', name: String((c.body as { name: string }).name), question_count: 0, created_at: '', updated_at: '' }) : undefined),
    (c) => (c.path === '/channel/init_questions' ? okBody({ question_id: 'q1', channel_id: String((c.body as { channel_id: string }).channel_id), status: 'queued' }) : undefined),
    (c) => (c.method === 'PUT' && c.path.startsWith('/channel/stop_questions/') ? okBody({ question_id: 'q1', status: 'stopped' }) : undefined),
  ];
}

type Listener = (e: ProgressEvent) => void;

/** A stand-in XMLHttpRequest: the test drives progress and the answer. */
export class FakeXhr {
  static all: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  withCredentials = false;
  status = 0;
  responseText = '';
  private listeners: Record<string, Listener[]> = {};
  private uploadListeners: Record<string, Listener[]> = {};
  upload = { addEventListener: (type: string, fn: Listener) => void (this.uploadListeners[type] ??= []).push(fn) };
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getAllResponseHeaders() {
    return 'content-type: application/json\r\n';
  }
  addEventListener(type: string, fn: Listener) {
    (this.listeners[type] ??= []).push(fn);
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.all.push(this);
  }
  abort() {
    this.fire('abort');
  }
  files(): File[] {
    return (this.body?.getAll('files') ?? []).filter((f): f is File => f instanceof File);
  }
  progress(loaded: number, total: number) {
    for (const fn of this.uploadListeners.progress ?? []) fn(new ProgressEvent('progress', { loaded, total, lengthComputable: true }));
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.fire('load');
  }
  private fire(type: string) {
    for (const fn of this.listeners[type] ?? []) fn(new ProgressEvent(type));
  }
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
  const xhr = globalThis.XMLHttpRequest;
  FakeXhr.all = [];
  FakeAnswerStream.all = [];
  Object.defineProperty(globalThis, 'XMLHttpRequest', { value: FakeXhr, configurable: true, writable: true });
  return () => {
    Object.defineProperty(globalThis, 'XMLHttpRequest', { value: xhr, configurable: true, writable: true });
  };
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
