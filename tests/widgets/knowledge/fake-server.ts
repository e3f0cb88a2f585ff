// A stand-in for the knowledge-base API in the page (fetch and XHR), for the browser tests of
// <csai-knowledge>: folders, documents with parse states, sharing, people search.
import type { KbDocument, KbFolder } from '../../../src/contract/knowledge';
import { json } from '../harness';

export const folder = (id: string, name: string, extra: Partial<KbFolder> = {}): KbFolder => ({
  id, name, isShared: false, is_public: false, is_owner: true, owner_id: 'u1', owner_name: '王化学', doc_count: 0,
  created_at: '2026-11-01T00:00:00Z', updated_at: '2026-11-01T00:00:00Z', ...extra,
});

export const doc = (docId: string, title: string, extra: Partial<KbDocument> = {}): KbDocument => ({
  docId, title, type: 1, parseStatus: 2, parse_progress: 100, progress_texts: [], img_id: null, download_url: '', download_key: '',
  folder_id: 'f1', size: 204800, page_count: 12, owner_id: 'u1', owner_name: '王化学', is_owner: true, created_at: '2026-11-01T00:00:00Z', ...extra,
});

const okBody = (data: unknown, message = '') => ({ success: true, data, message });
const page = <T>(items: T[], p = 1, size = 20) => okBody({ items: items.slice((p - 1) * size, p * size), total: items.length, page: p, size });

export interface Call { method: string; url: string; origin: string; body: unknown }

/** The server's state; tests change it between calls. */
export function fakeServer() {
  const state = {
    mine: [folder('f1', '激酶抑制剂文献', { doc_count: 3 }), folder('f2', '分子库')],
    shared: [folder('s1', '课题组共享', { is_owner: false, isShared: true, owner_name: '李博士', doc_count: 1 })],
    public: [] as KbFolder[],
    docs: { folder_for_question_channel: [doc('q1', '提问附件.pdf', { folder_id: 'folder_for_question_channel' })], f1: [doc('d1', '综述.pdf'), doc('d2', 'cdk2.sdf', { type: 5, page_count: null }), doc('d3', '扫描件.png', { type: 3, parseStatus: 3, progress_texts: ['OCR 不可用'] })] } as Record<string, KbDocument[]>,
    /** Per docs call, a function that may change the docs before answering (parse progress). */
    onDocs: undefined as undefined | ((n: number) => void),
    docCalls: 0,
    records: [] as { share_id: string; resource_type: 'folder' | 'doc'; resource_id: string; resource_name: string; target_type: 'user' | 'department'; target_id: string; target_name: string; created_at: string }[],
    fail: {} as Record<string, { status: number; message: string; code: string }>,
    /** Documents shared with the user one by one (get_shared_docs). */
    sharedDocs: [doc('s1', '同事的论文.pdf', { is_owner: false, owner_id: 'u2', owner_name: '李博士', folder_id: 'fx' })] as KbDocument[],
    /** POST translate answers after this promise settles (a test holds it to see the progress). */
    translateGate: Promise.resolve() as Promise<unknown>,
  };
  const calls: Call[] = [];

  const handle = async (url: string, init: RequestInit = {}) => {
    const u = new URL(url, location.href);
    const method = (init.method ?? 'GET').toUpperCase();
    let body: unknown;
    if (typeof init.body === 'string') body = JSON.parse(init.body);
    calls.push({ method, url: u.pathname + u.search, origin: u.origin, body });
    const path = u.pathname.replace(/^\/api\/v1/, '');
    const failure = state.fail[`${method} ${path}`];
    if (failure) return json(failure.status, { success: false, ...failure });
    if (path === '/' ) return json(200, okBody({ name: 'csai', version: '1', time: '' }));
    if (path === '/knowledge_base/folder' && method === 'GET') return json(200, page(state.mine));
    if (path === '/knowledge_base/get_share_folders') return json(200, page(state.shared));
    if (path === '/knowledge_base/public_folders') return json(200, page(state.public));
    if (path === '/knowledge_base/folder' && method === 'POST') {
      const f = folder(`f${state.mine.length + 10}`, (body as { name: string }).name);
      state.mine.unshift(f);
      return json(200, okBody(f, '创建成功'));
    }
    if (path === '/knowledge_base/get_folder/folder_for_question_channel') return json(200, okBody(folder('folder_for_question_channel', '问答文件', { doc_count: 1 })));
    const docsMatch = /^\/knowledge_base\/folder\/([^/]+)$/.exec(path);
    if (docsMatch && method === 'GET') {
      state.docCalls++;
      state.onDocs?.(state.docCalls);
      const all = state.docs[decodeURIComponent(docsMatch[1]!)] ?? [];
      const search = u.searchParams.get('search');
      return json(200, page(search ? all.filter((d) => d.title.includes(search)) : all, Number(u.searchParams.get('page') ?? 1)));
    }
    if (docsMatch && method === 'PUT') {
      const f = state.mine.find((x) => x.id === docsMatch[1])!;
      Object.assign(f, body);
      return json(200, okBody(f, '修改成功'));
    }
    if (docsMatch && method === 'DELETE') {
      state.mine = state.mine.filter((x) => x.id !== docsMatch[1]);
      return json(200, okBody({ deleted: 1 }, '删除成功'));
    }
    const md = /^\/knowledge_base\/doc_markdown\/(.+)$/.exec(path);
    if (md) return json(200, okBody({ docId: md[1], markdown: '# cdk2\n\n共 47 个分子。\n' }));
    if (path === '/knowledge_base/add_doc_to_kb' || path === '/knowledge_base/copy_doc') return json(200, okBody({ name: 'x', docId: 'd9' }, '文件已添加到知识库'));
    if (path === '/knowledge_base/folder/movedoc') return json(200, okBody({ moved: 1 }));
    if (/^\/knowledge_base\/d\d$/.test(path) && method === 'DELETE') return json(200, okBody({ deleted: 1 }));
    if (path === '/knowledge_base/get_shared_records') return json(200, okBody(state.records));
    if (path === '/knowledge_base/share_folder' || path === '/knowledge_base/share_doc') {
      const b = body as { folder_id?: string; docId?: string; user_ids: string[]; department_ids: string[] };
      for (const id of b.user_ids) state.records.push({ share_id: `sh${state.records.length + 1}`, resource_type: b.folder_id ? 'folder' : 'doc', resource_id: b.folder_id ?? b.docId ?? '', resource_name: '', target_type: 'user', target_id: id, target_name: '李博士', created_at: '' });
      return json(200, okBody({ shared: b.user_ids.length + b.department_ids.length, records: [] }, '分享成功'));
    }
    if (path === '/knowledge_base/cancel_share') {
      state.records = state.records.filter((r) => r.share_id !== (body as { share_id: string }).share_id);
      return json(200, okBody({ deleted: 1 }));
    }
    if (path === '/knowledge_base/get_shared_docs') {
      const search = u.searchParams.get('search');
      return json(200, page(search ? state.sharedDocs.filter((d) => d.title.includes(search)) : state.sharedDocs, Number(u.searchParams.get('page') ?? 1)));
    }
    if (path === '/knowledge_base/all_docs') {
      const all = Object.values(state.docs).flat();
      const search = u.searchParams.get('search');
      return json(200, page(search ? all.filter((d) => d.title.includes(search)) : all, Number(u.searchParams.get('page') ?? 1)));
    }
    if (path === '/knowledge_base/get_folder/xxx') {
      const found = state.mine.find((f) => f.name === u.searchParams.get('folder_name'));
      return found ? json(200, okBody(found)) : json(404, { success: false, message: '知识库不存在', code: 'not_found' });
    }
    if (path === '/knowledge_base/translate') {
      await state.translateGate;
      const b = body as { docId: string; target_lang: string };
      return json(200, okBody({ translation: `# Review (${b.target_lang})\n\nKinase inhibitors <b>block</b> ATP binding.`, truncated: true, model: 'qwen-test' }));
    }
    if (path === '/knowledge_base/es_copy_doc_to_question_channel') {
      const ids = (body as { docIds: string[] }).docIds;
      return json(200, okBody({ name_id: ids.map((id) => ({ name: `${id}-副本.pdf`, docId: `q-${id}` })) }));
    }
    if (path === '/departments') return json(200, okBody([{ id: 'dep1', name: '药物化学部', member_count: 12 }]));
    if (path === '/search_person_department') {
      return json(200, okBody({ people: [{ id: 'u2', name: '李博士', show_name: 'li@example.com', department_name: '药物化学部' }], departments: [] }));
    }
    return json(404, { success: false, message: '接口不存在', code: 'not_found' });
  };

  const original = globalThis.fetch;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return handle(url, init);
  };
  return { state, calls, restore: () => void (globalThis.fetch = original) };
}

type Listener = (e: ProgressEvent) => void;

/** XMLHttpRequest stand-in: the test drives upload progress and the answer. */
export class FakeXhr {
  static last: FakeXhr | undefined;
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | undefined;
  status = 0;
  responseText = '';
  withCredentials = false;
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
    FakeXhr.last = this;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.fire('abort');
  }
  progress(loaded: number, total: number) {
    for (const fn of this.uploadListeners.progress ?? []) fn(new ProgressEvent('progress', { lengthComputable: true, loaded, total }));
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
