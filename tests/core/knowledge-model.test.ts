// The knowledge model without a browser: the real API client and knowledge calls over a fetch that
// answers like the server (envelopes, 4xx with Chinese messages), the real status and toast stores.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KbDocument, KbFolder } from '../../src/contract/knowledge';
import { ApiError, createApiClient } from '../../src/core/api';
import { createI18n } from '../../src/core/i18n';
import { createKnowledgeApi } from '../../src/core/knowledge-api';
import { createChannelDocuments, createTranslation, LLM_NOT_CONFIGURED } from '../../src/core/knowledge-extras';
import { createKnowledgeModel, createKnowledgeSelection, PARSE_POLL_MS, SEARCH_DEBOUNCE_MS, totalProgress, UPLOAD_CLEAR_MS, viewerPath, type UploadFn } from '../../src/core/knowledge-model';
import { createStatusStore, memoryStorage } from '../../src/core/status-store';
import { createToastStore } from '../../src/core/toast';

const folder = (id: string, name: string, extra: Partial<KbFolder> = {}): KbFolder => ({
  id, name, isShared: false, is_public: false, is_owner: true, owner_id: 'u1', owner_name: '王化学', doc_count: 0,
  created_at: '2026-11-01T00:00:00Z', updated_at: '2026-11-01T00:00:00Z', ...extra,
});
const doc = (docId: string, title: string, extra: Partial<KbDocument> = {}): KbDocument => ({
  docId, title, type: 1, parseStatus: 2, parse_progress: 100, progress_texts: [], img_id: null, download_url: '', download_key: '',
  folder_id: 'f1', size: 2048, page_count: 3, owner_id: 'u1', owner_name: '王化学', is_owner: true, created_at: '2026-11-01T00:00:00Z', ...extra,
});
const ok = (data: unknown, message = '') => ({ success: true, data, message });
const page = <T>(items: T[], p = 1) => ok({ items: items.slice((p - 1) * 20, p * 20), total: items.length, page: p, size: 20 });
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const fail = (status: number, message: string, code: string) => json(status, { success: false, message, code });

/** The server's state and the calls made, with a handler shaped like the knowledge routes. */
function fakeServer() {
  const state = {
    mine: [folder('f1', '激酶抑制剂文献', { doc_count: 2 }), folder('f2', '分子库')],
    docs: { f1: [doc('d1', '综述.pdf'), doc('d2', 'cdk2.sdf', { type: 5, page_count: null })] } as Record<string, KbDocument[]>,
    shared: [doc('s1', '同事的论文.pdf', { is_owner: false, owner_id: 'u2', owner_name: '李博士', folder_id: 'fx' })],
    onDocs: undefined as undefined | ((n: number) => void),
    docCalls: 0,
    fail: {} as Record<string, Response | (() => Response)>,
  };
  const calls: { method: string; url: string; body: unknown }[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url: url.pathname.replace('/api/v1', '') + url.search, body });
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const failure = state.fail[`${method} ${path}`];
    if (failure) return typeof failure === 'function' ? failure() : failure.clone();
    const docsOf = /^\/knowledge_base\/folder\/([^/]+)$/.exec(path);
    const search = url.searchParams.get('search') ?? '';
    const p = Number(url.searchParams.get('page') ?? 1);
    if (docsOf && method === 'GET') {
      state.docCalls++;
      state.onDocs?.(state.docCalls);
      return json(200, page((state.docs[docsOf[1]!] ?? []).filter((d) => d.title.includes(search)), p));
    }
    if (path === '/knowledge_base/get_shared_docs') return json(200, page(state.shared.filter((d) => d.title.includes(search)), p));
    if (path === '/knowledge_base/all_docs') return json(200, page(Object.values(state.docs).flat().filter((d) => d.title.includes(search)), p));
    if (path === '/knowledge_base/folder' && method === 'GET') return json(200, page(state.mine));
    if (path === '/knowledge_base/get_folder/xxx') {
      const found = state.mine.find((f) => f.name === url.searchParams.get('folder_name'));
      return found ? json(200, ok(found)) : fail(404, '知识库不存在', 'not_found');
    }
    if (path.startsWith('/knowledge_base/doc_markdown/')) return json(200, ok({ docId: 'd2', markdown: '共 47 个分子。' }));
    if (path === '/knowledge_base/folder/movedoc') return json(200, ok({ moved: 1 }, '移动成功'));
    if (path === '/knowledge_base/copy_doc' || path === '/knowledge_base/add_doc_to_kb') return json(200, ok({ name: '综述.pdf', docId: 'c1' }));
    if (path === '/knowledge_base/es_copy_doc_to_question_channel') {
      const ids = (body as { docIds: string[] }).docIds;
      return json(200, ok({ name_id: ids.map((id) => ({ name: `${id}.pdf`, docId: `q-${id}` })) }));
    }
    if (path === '/knowledge_base/translate') return json(200, ok({ translation: '# Review\n\nKinase inhibitors…', truncated: false, model: 'qwen' }));
    if (path.startsWith('/channel/channel_docs/')) return json(200, ok(['d1', 'gone', 'd2']));
    const one = /^\/knowledge_base\/doc\/(.+)$/.exec(path);
    if (one) {
      const found = Object.values(state.docs).flat().find((d) => d.docId === one[1]);
      return found ? json(200, ok(found)) : fail(404, '文档不存在', 'not_found');
    }
    return fail(404, '接口不存在', 'not_found');
  };
  return { state, calls, fetch };
}

function setup(upload: UploadFn = async () => ({ name_id: [] })) {
  const server = fakeServer();
  const toasts = createToastStore();
  const navigations: string[] = [];
  const client = createApiClient({ fetch: server.fetch, toasts, i18n: createI18n(), navigate: (p) => navigations.push(`client:${p}`), readCookies: () => 'XSRF-TOKEN=t0k' });
  const store = createStatusStore(memoryStorage());
  const selection = createKnowledgeSelection(store);
  const errors: ApiError[] = [];
  const model = createKnowledgeModel({
    api: createKnowledgeApi(client),
    upload,
    t: (key, options) => (options ? `${key}:${JSON.stringify(options)}` : key),
    onError: (e) => errors.push(e),
    navigate: (p) => navigations.push(p),
    selection,
    store,
    toasts,
  });
  const lastToast = () => toasts.$toasts.value[0];
  return { server, toasts, lastToast, store, selection, model, errors, navigations, client };
}

/** Lets the fake fetch, the parser's import and the signals settle (setImmediate stays real). */
const settle = async () => {
  for (let i = 0; i < 20; i++) {
    await vi.advanceTimersByTimeAsync(0);
    await new Promise((r) => setImmediate(r));
  }
};
/** Settles until the check passes or 30 s of real time go by: a cold import of the parser can take
 *  seconds on a busy machine, so a count of turns is no measure (performance.now stays real). */
const until = async (check: () => boolean, what: string) => {
  const deadline = performance.now() + 30_000;
  while (!check() && performance.now() < deadline) {
    await vi.advanceTimersByTimeAsync(0);
    await new Promise((r) => setImmediate(r));
  }
  expect(check(), what).toBe(true);
};
const loaded = (k: { model: { $docs: { value: unknown } } }) => () => k.model.$docs.value !== null;
const file = (name: string, size = 1000) => new File([new Uint8Array(size)], name, { type: 'application/pdf' });

describe('the knowledge model', () => {
  let stop: (() => void) | undefined;
  // Timers and the clock are fake; setImmediate and microtasks stay real, so responses arrive.
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }));
  afterEach(() => {
    stop?.();
    stop = undefined;
    vi.useRealTimers();
  });

  describe('what is shown', () => {
    it('a chosen folder fills the SPEC §3 store fields and lists its documents', async () => {
      const k = setup();
      stop = k.model.watch();
      k.selection.selectFolder(k.server.state.mine[0]!);
      expect(k.store.knowledge.$folder_id.value).toBe('f1');
      expect(k.store.knowledge.$folder_name.value).toBe('激酶抑制剂文献');
      expect(k.store.knowledge.$folder_file_count.value).toBe(2);
      await until(loaded(k), 'the list');
      await until(() => 'd2' in k.model.$molecules.value, 'the molecule count');
      const docs = k.model.$docs.value;
      expect(docs !== null && docs !== 'error' && docs.items.map((d) => d.title)).toEqual(['综述.pdf', 'cdk2.sdf']);
      // SDF documents: the molecule count from their parsed text.
      expect(k.model.$molecules.value).toEqual({ d2: 47 });
    });

    it('documents shared with me one by one come from get_shared_docs, with no folder chosen', async () => {
      const k = setup();
      stop = k.model.watch();
      k.selection.selectFolder(k.server.state.mine[0]!);
      k.selection.openView('shared_docs');
      expect(k.store.knowledge.$folder_id.value).toBe('');
      expect(k.selection.$source.value).toEqual({ kind: 'shared_docs' });
      await until(loaded(k), 'the list');
      const docs = k.model.$docs.value;
      expect(docs !== null && docs !== 'error' && docs.items.map((d) => d.owner_name)).toEqual(['李博士']);
      expect(k.server.calls.at(-1)!.url).toBe('/knowledge_base/get_shared_docs?page=1&size=20');
    });

    it('all my documents come from all_docs with show_my_kb; a typed search waits, then asks once', async () => {
      const k = setup();
      stop = k.model.watch();
      k.selection.openView('all_docs');
      await until(loaded(k), 'the list');
      expect(k.server.calls.map((c) => c.url)).toContain('/knowledge_base/all_docs?page=1&size=20&show_my_kb=1');
      k.model.setPage(2);
      k.model.setSearch('综');
      k.model.setSearch('综述');
      expect(k.model.$page.value).toBe(1);
      const before = k.server.calls.length;
      await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 10);
      expect(k.server.calls.length).toBe(before);
      await vi.advanceTimersByTimeAsync(20);
      await until(() => k.server.calls.slice(before).some((c) => c.url.includes('all_docs')), 'the search');
      await settle();
      expect(k.server.calls.slice(before).map((c) => c.url).filter((u) => u.includes('all_docs'))).toEqual([`/knowledge_base/all_docs?page=1&size=20&search=${encodeURIComponent('综述')}&show_my_kb=1`]);
    });

    it('polls every second while a document parses and stops once none does', async () => {
      const k = setup();
      k.server.state.docs.f1 = [doc('d1', '综述.pdf', { parseStatus: 1, parse_progress: 10 })];
      k.server.state.onDocs = (n) => {
        if (n === 3) Object.assign(k.server.state.docs.f1![0]!, { parseStatus: 2, parse_progress: 100 });
      };
      stop = k.model.watch();
      k.selection.selectFolder(k.server.state.mine[0]!);
      await until(loaded(k), 'the list');
      expect(k.server.state.docCalls).toBe(1);
      await vi.advanceTimersByTimeAsync(PARSE_POLL_MS);
      await until(() => k.server.state.docCalls === 2, 'the second poll');
      await settle();
      await vi.advanceTimersByTimeAsync(PARSE_POLL_MS);
      await until(() => k.server.state.docCalls === 3, 'the third poll');
      await settle();
      await vi.advanceTimersByTimeAsync(PARSE_POLL_MS * 5);
      expect(k.server.state.docCalls, 'no call after the status left 1').toBe(3);
      const docs = k.model.$docs.value;
      expect(docs !== null && docs !== 'error' && docs.items[0]!.parseStatus).toBe(2);
    });

    it('keeps page and search when the chosen folder is refreshed (new count), resets them for another folder', async () => {
      const k = setup();
      stop = k.model.watch();
      const f1 = k.server.state.mine[0]!;
      k.selection.selectFolder(f1);
      await until(loaded(k), 'the list');
      k.model.setSearch('综述');
      k.model.setPage(2);
      k.selection.selectFolder({ ...f1, doc_count: 5 });
      expect([k.model.$search.value, k.model.$page.value, k.store.knowledge.$folder_file_count.value]).toEqual(['综述', 2, 5]);
      k.selection.selectFolder(k.server.state.mine[1]!);
      expect([k.model.$search.value, k.model.$page.value, k.model.$docs.value]).toEqual(['', 1, null]);
    });

    it('forgets a folder that is no longer readable', async () => {
      const k = setup();
      k.server.state.fail['GET /knowledge_base/folder/f1'] = fail(403, '没有权限访问该知识库', 'forbidden');
      stop = k.model.watch();
      k.selection.selectFolder(k.server.state.mine[0]!);
      await until(() => k.selection.$source.value === null, 'the folder forgotten');
      expect(k.errors.map((e) => e.code)).toEqual(['forbidden']);
    });

    it('opens my folder by its exact name; an unknown name is false without a toast', async () => {
      const k = setup();
      expect(await k.model.openFolderByName('  分子库 ')).toBe(true);
      expect(k.server.calls.at(-1)!.url).toBe(`/knowledge_base/get_folder/xxx?folder_name=${encodeURIComponent('分子库')}`);
      expect(k.selection.$folder.value?.id).toBe('f2');
      expect(await k.model.openFolderByName('没有这个')).toBe(false);
      expect(k.lastToast()).toBe(undefined);
      expect(k.errors).toEqual([]);
      expect(await k.model.openFolderByName('   ')).toBe(false);
    });

    it('opens a document in the viewer route', () => {
      expect(viewerPath({ docId: 'd1', type: 1 })).toBe('/pdf_viewer?docId=d1&if_img=0');
      expect(viewerPath({ docId: 'd3', type: 3 })).toBe('/pdf_viewer?docId=d3&if_img=1');
      expect(viewerPath({ docId: 'd2', type: 5 })).toBe('/pdf_viewer?docId=d2&if_img=0&type=5');
    });
  });

  describe('uploading', () => {
    it('refuses files by the SPEC §5 rules with the exact messages and sends nothing', async () => {
      const upload = vi.fn<UploadFn>(async () => ({}));
      const k = setup(upload);
      stop = k.model.watch();
      k.selection.selectFolder(k.server.state.mine[0]!);
      await until(loaded(k), 'the list');
      await k.model.upload(Array.from({ length: 7 }, (_, i) => file(`p${i}.pdf`)));
      expect(k.model.$notice.value).toBe('多文档问答的上限是6篇，如需处理更多文档，请创建知识库后再提问');
      await k.model.upload([file('综述.pdf')]);
      expect(k.model.$notice.value).toBe('文件名重复，请重新上传');
      expect(upload).not.toHaveBeenCalled();
      expect(k.errors.map((e) => e.code)).toEqual(['invalid_file', 'invalid_file']);
    });

    it('shows per-file progress (99 at most until the server answers), then 完成, and clears the batch', async () => {
      let progress: (p: number[]) => void = () => undefined;
      let finish: () => void = () => undefined;
      const k = setup(({ onProgress }) => {
        progress = onProgress;
        return new Promise((resolve) => (finish = () => resolve({})));
      });
      stop = k.model.watch();
      k.selection.selectFolder(k.server.state.mine[0]!);
      await until(loaded(k), 'the list');
      const sending = k.model.upload([file('a.pdf', 3000), file('b.pdf')]);
      expect(k.model.$uploading.value).toBe(true);
      progress([100, 33]);
      expect(k.model.$uploads.value.map((u) => [u.progress, u.status])).toEqual([[99, 1], [33, 1]]);
      expect(totalProgress(k.model.$uploads.value)).toBe(66);
      finish();
      await sending;
      expect(k.model.$uploads.value.map((u) => [u.progress, u.status])).toEqual([[100, 2], [100, 2]]);
      await vi.advanceTimersByTimeAsync(UPLOAD_CLEAR_MS);
      expect(k.model.$uploads.value).toEqual([]);
    });

    it('fails every file of the batch on an error, keeps a 4xx message, and sends a 403 to sign-in', async () => {
      const refuse = (status: number, message: string) => () => Promise.reject(Object.assign(new Error(message), { status, code: 'bad_file' }));
      let k = setup(refuse(400, '文件内容与扩展名不符'));
      k.selection.selectFolder(k.server.state.mine[0]!);
      await k.model.upload([file('a.pdf'), file('b.pdf')]);
      expect(k.model.$uploads.value.map((u) => u.status)).toEqual([3, 3]);
      expect(k.model.$notice.value).toBe('文件内容与扩展名不符');
      expect(k.lastToast()).toMatchObject({ title: '上传失败', description: '文件上传过程中发生错误', variant: 'destructive' });
      k.model.dismissUploads();
      expect(k.model.$uploads.value).toEqual([]);

      k = setup(refuse(403, 'Invalid session key'));
      k.selection.selectFolder(k.server.state.mine[0]!);
      await k.model.upload([file('a.pdf')]);
      expect(k.navigations).toEqual(['/auth/sign-in']);
      expect(k.lastToast()).toMatchObject({ title: '需要登录', description: '请先登录后再试' });
      expect(k.errors.at(-1)!.code).toBe('need_login');
    });
  });

  describe('verbs on documents', () => {
    it('moves and copies with the server’s calls and toasts, and reloads the list', async () => {
      const k = setup();
      stop = k.model.watch();
      k.selection.selectFolder(k.server.state.mine[0]!);
      await until(loaded(k), 'the list');
      const version = k.selection.$foldersVersion.value;
      expect(await k.model.move(doc('d1', '综述.pdf'), 'f2')).toBe(true);
      expect(k.server.calls.find((c) => c.url === '/knowledge_base/folder/movedoc')!.body).toEqual({ docId: 'd1', folder_id: 'f2' });
      expect(k.lastToast()!.title).toBe('moved');
      expect(await k.model.copy(doc('d2', 'cdk2.sdf'), 'f1')).toBe(true);
      expect(k.server.calls.find((c) => c.url === '/knowledge_base/copy_doc')!.body).toEqual({ docId: 'd2', folder_id: 'f1' });
      expect(k.selection.$foldersVersion.value).toBe(version + 2);
      await until(() => k.server.calls.filter((c) => c.url.startsWith('/knowledge_base/folder/f1')).length >= 2, 'the reload');
      await settle();
      // The first load, then one reload for both changes (asked in the same moment, they coalesce).
      expect(k.server.calls.filter((c) => c.url.startsWith('/knowledge_base/folder/f1')).length).toBe(2);
    });

    it('adds to a knowledge base with the SPEC §8 toasts; a refusal shows the server’s message', async () => {
      const k = setup();
      expect(await k.model.addToKb(doc('d1', '综述.pdf'), '')).toBe(false);
      expect(k.server.calls).toEqual([]);
      expect(await k.model.addToKb(doc('d1', '综述.pdf'), 'f2')).toBe(true);
      expect(k.lastToast()).toMatchObject({ title: 'add_ok_title', description: 'add_ok_text' });
      k.server.state.fail['POST /knowledge_base/add_doc_to_kb'] = fail(409, '该知识库中已有同名文件', 'duplicate');
      expect(await k.model.addToKb(doc('d1', '综述.pdf'), 'f2')).toBe(false);
      expect(k.lastToast()).toMatchObject({ title: 'add_fail_title', description: '该知识库中已有同名文件', variant: 'destructive' });
      expect(k.errors.at(-1)!.code).toBe('duplicate');
    });

    it('puts a document among the question box’s files through es_copy_doc_to_question_channel', async () => {
      const k = setup();
      expect(await k.model.useInQuestion(doc('s1', '同事的论文.pdf', { is_owner: false }))).toBe(true);
      expect(k.server.calls.at(-1)).toMatchObject({ method: 'POST', url: '/knowledge_base/es_copy_doc_to_question_channel', body: { docIds: ['s1'] } });
      expect(k.store.ask.$files_list.value).toEqual([{ docId: 'q-s1', name: 's1.pdf' }]);
      expect(k.store.ask.$docIdList.value).toEqual(['q-s1']);
      expect(k.navigations).toEqual(['/?docIds=q-s1']);
      // Twice the same: one chip.
      await k.model.useInQuestion(doc('s1', '同事的论文.pdf', { is_owner: false }));
      expect(k.store.ask.$files_list.value).toHaveLength(1);
    });

    it('refuses a document for the question box by the SPEC §5 selection rules, without a call', async () => {
      const k = setup();
      k.store.ask.$selectedKbs.value = [{ id: 'f1', name: '激酶抑制剂文献' }];
      expect(await k.model.useInQuestion(doc('d1', '综述.pdf'))).toBe(false);
      expect(k.lastToast()).toMatchObject({ title: '已经选择知识库，不能选择文件', variant: 'destructive' });
      k.store.ask.$selectedKbs.value = [];
      k.store.ask.$files_list.value = Array.from({ length: 6 }, (_, i) => ({ docId: `x${i}`, name: `x${i}.pdf` }));
      expect(await k.model.useInQuestion(doc('d1', '综述.pdf'))).toBe(false);
      expect(k.lastToast()!.title).toBe('最多只能选择6个文件');
      expect(k.server.calls).toEqual([]);
      expect(k.errors.map((e) => e.code)).toEqual(['invalid_selection', 'invalid_selection']);
    });
  });

  describe('translating a document', () => {
    it('runs, counts seconds, and gives the result as a markdown file named after the document', async () => {
      const k = setup();
      const tr = createTranslation(createKnowledgeApi(k.client), doc('d1', '综述.pdf'));
      const running = tr.start('en');
      expect(tr.$state.value).toEqual({ phase: 'running', lang: 'en' });
      await running;
      expect(tr.$state.value).toMatchObject({ phase: 'done', lang: 'en', result: { model: 'qwen', truncated: false } });
      expect(k.server.calls.at(-1)!.body).toEqual({ docId: 'd1', target_lang: 'en' });
      const saved = tr.file()!;
      expect(saved.filename).toBe('综述.en.md');
      expect(await saved.blob.text()).toBe('# Review\n\nKinase inhibitors…');
    });

    it('says when no language model is configured, without a toast', async () => {
      const k = setup();
      k.server.state.fail['POST /knowledge_base/translate'] = fail(503, '翻译需要配置语言模型（LLM_BASE_URL 和 LLM_MODEL），当前服务器未配置', LLM_NOT_CONFIGURED);
      const tr = createTranslation(createKnowledgeApi(k.client), doc('d1', '综述.pdf'));
      await tr.start('zh');
      expect(tr.$state.value).toMatchObject({ phase: 'failed', code: LLM_NOT_CONFIGURED, message: '翻译需要配置语言模型（LLM_BASE_URL 和 LLM_MODEL），当前服务器未配置' });
      expect(tr.file()).toBe(null);
      expect(k.lastToast()).toBe(undefined);
    });

    it('can be stopped while it runs', async () => {
      // A model that answers only when given up on.
      const slow = {
        translate: (_id: string, _lang: 'zh' | 'en', signal?: AbortSignal) =>
          new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(new ApiError(0, 'aborted', 'aborted', '')))),
      };
      const tr = createTranslation(slow, doc('d1', '综述.pdf'));
      const running = tr.start('en');
      await vi.advanceTimersByTimeAsync(3000);
      expect(tr.$elapsed.value).toBe(3);
      tr.cancel();
      await running;
      expect(tr.$state.value).toEqual({ phase: 'idle' });
    });
  });

  describe('the documents of a conversation', () => {
    it('lists the readable documents the channel used and leaves out those gone', async () => {
      const k = setup();
      const docs = createChannelDocuments(createKnowledgeApi(k.client));
      await docs.load('c1');
      const list = docs.$docs.value;
      expect(Array.isArray(list) && list.map((d) => d.docId)).toEqual(['d1', 'd2']);
      expect(k.server.calls[0]!.url).toBe('/channel/channel_docs/c1');
      expect(k.lastToast(), 'a missing document is not an error to show').toBe(undefined);
      k.server.state.fail['GET /channel/channel_docs/c2'] = fail(404, '频道不存在', 'not_found');
      await docs.load('c2');
      expect(docs.$docs.value).toBe('error');
      await docs.load('');
      expect(docs.$docs.value).toEqual([]);
    });
  });
});
