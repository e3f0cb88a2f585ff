// The CSAI API as the question box and the conversations use it (tools, folders, a channel, a
// question, the answer event streams the test feeds), on the shared fake API (../fake-api), and
// the XMLHttpRequest stand-in for uploads with progress.
import { fakeApi, installFakeXhr, ok, type Route } from '../fake-api';

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
