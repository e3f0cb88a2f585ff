// The knowledge model without a browser: the real API client and knowledge calls over the fake
// knowledge-base API of the widget tests (envelopes, 4xx with Chinese messages), the real status
// and toast stores.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from '../../src/core/api';
import { createI18n } from '../../src/core/i18n';
import { createKnowledgeApi } from '../../src/core/knowledge-api';
import { createChannelDocuments, createTranslation, LLM_NOT_CONFIGURED } from '../../src/core/knowledge-extras';
import { createKnowledgeModel, createKnowledgeSelection, PARSE_POLL_MS, SEARCH_DEBOUNCE_MS, totalProgress, UPLOAD_CLEAR_MS, viewerPath, type UploadFn } from '../../src/core/knowledge-model';
import { createStatusStore, memoryStorage } from '../../src/core/status-store';
import { createToastStore } from '../../src/core/toast';
import { doc, fail, fakeServer, ok } from '../widgets/knowledge/fake-server';

let restoreServer = () => {};
function setup(upload: UploadFn = async () => ({ name_id: [] })) {
  restoreServer();
  const server = fakeServer();
  restoreServer = server.restore;
  // The documents a conversation used (one no longer readable).
  server.on('GET', /^\/channel\/channel_docs\//, () => ok(['d1', 'gone', 'd2']));
  const toasts = createToastStore();
  const navigations: string[] = [];
  const client = createApiClient({ fetch: globalThis.fetch, toasts, i18n: createI18n(), navigate: (p) => navigations.push(`client:${p}`), readCookies: () => 'XSRF-TOKEN=t0k' });
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
    restoreServer();
    restoreServer = () => {};
  });

  describe('what is shown', () => {
    it('a chosen folder fills the SPEC §3 store fields and lists its documents', async () => {
      const k = setup();
      stop = k.model.watch();
      k.selection.selectFolder(k.server.state.mine[0]!);
      expect(k.store.knowledge.$folder_id.value).toBe('f1');
      expect(k.store.knowledge.$folder_name.value).toBe('激酶抑制剂文献');
      expect(k.store.knowledge.$folder_file_count.value).toBe(3);
      await until(loaded(k), 'the list');
      await until(() => 'd2' in k.model.$molecules.value, 'the molecule count');
      const docs = k.model.$docs.value;
      expect(docs !== null && docs !== 'error' && docs.items.map((d) => d.title)).toEqual(['综述.pdf', 'cdk2.sdf', '扫描件.png']);
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
      expect(k.server.calls.at(-1)!.path).toBe('/knowledge_base/get_shared_docs?page=1&size=20');
    });

    it('all my documents come from all_docs with show_my_kb; a typed search waits, then asks once', async () => {
      const k = setup();
      stop = k.model.watch();
      k.selection.openView('all_docs');
      await until(loaded(k), 'the list');
      expect(k.server.calls.map((c) => c.path)).toContain('/knowledge_base/all_docs?page=1&size=20&show_my_kb=1');
      k.model.setPage(2);
      k.model.setSearch('综');
      k.model.setSearch('综述');
      expect(k.model.$page.value).toBe(1);
      const before = k.server.calls.length;
      await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 10);
      expect(k.server.calls.length).toBe(before);
      await vi.advanceTimersByTimeAsync(20);
      await until(() => k.server.calls.slice(before).some((c) => c.path.includes('all_docs')), 'the search');
      await settle();
      expect(k.server.calls.slice(before).map((c) => c.path).filter((u) => u.includes('all_docs'))).toEqual([`/knowledge_base/all_docs?page=1&size=20&search=${encodeURIComponent('综述')}&show_my_kb=1`]);
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
      k.server.on('GET', '/knowledge_base/folder/f1', () => fail(403, '没有权限访问该知识库', 'forbidden'));
      stop = k.model.watch();
      k.selection.selectFolder(k.server.state.mine[0]!);
      await until(() => k.selection.$source.value === null, 'the folder forgotten');
      expect(k.errors.map((e) => e.code)).toEqual(['forbidden']);
    });

    it('opens my folder by its exact name; an unknown name is false without a toast', async () => {
      const k = setup();
      expect(await k.model.openFolderByName('  分子库 ')).toBe(true);
      expect(k.server.calls.at(-1)!.path).toBe(`/knowledge_base/get_folder/xxx?folder_name=${encodeURIComponent('分子库')}`);
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
      expect(k.server.calls.find((c) => c.path === '/knowledge_base/folder/movedoc')!.body).toEqual({ docId: 'd1', folder_id: 'f2' });
      expect(k.lastToast()!.title).toBe('moved');
      expect(await k.model.copy(doc('d2', 'cdk2.sdf'), 'f1')).toBe(true);
      expect(k.server.calls.find((c) => c.path === '/knowledge_base/copy_doc')!.body).toEqual({ docId: 'd2', folder_id: 'f1' });
      expect(k.selection.$foldersVersion.value).toBe(version + 2);
      await until(() => k.server.calls.filter((c) => c.path.startsWith('/knowledge_base/folder/f1')).length >= 2, 'the reload');
      await settle();
      // The first load, then one reload for both changes (asked in the same moment, they coalesce).
      expect(k.server.calls.filter((c) => c.path.startsWith('/knowledge_base/folder/f1')).length).toBe(2);
    });

    it('adds to a knowledge base with the SPEC §8 toasts; a refusal shows the server’s message', async () => {
      const k = setup();
      expect(await k.model.addToKb(doc('d1', '综述.pdf'), '')).toBe(false);
      expect(k.server.calls).toEqual([]);
      expect(await k.model.addToKb(doc('d1', '综述.pdf'), 'f2')).toBe(true);
      expect(k.lastToast()).toMatchObject({ title: 'add_ok_title', description: 'add_ok_text' });
      k.server.on('POST', '/knowledge_base/add_doc_to_kb', () => fail(409, '该知识库中已有同名文件', 'duplicate'));
      expect(await k.model.addToKb(doc('d1', '综述.pdf'), 'f2')).toBe(false);
      expect(k.lastToast()).toMatchObject({ title: 'add_fail_title', description: '该知识库中已有同名文件', variant: 'destructive' });
      expect(k.errors.at(-1)!.code).toBe('duplicate');
    });

    it('puts a document among the question box’s files through es_copy_doc_to_question_channel', async () => {
      const k = setup();
      expect(await k.model.useInQuestion(doc('s1', '同事的论文.pdf', { is_owner: false }))).toBe(true);
      expect(k.server.calls.at(-1)).toMatchObject({ method: 'POST', path: '/knowledge_base/es_copy_doc_to_question_channel', body: { docIds: ['s1'] } });
      expect(k.store.ask.$files_list.value).toEqual([{ docId: 'q-s1', name: 's1-副本.pdf' }]);
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
      expect(tr.$state.value).toMatchObject({ phase: 'done', lang: 'en', result: { model: 'qwen-test', truncated: true } });
      expect(k.server.calls.at(-1)!.body).toEqual({ docId: 'd1', target_lang: 'en' });
      const saved = tr.file()!;
      expect(saved.filename).toBe('综述.en.md');
      expect(await saved.blob.text()).toBe('# Review (en)\n\nKinase inhibitors <b>block</b> ATP binding.');
    });

    it('says when no language model is configured, without a toast', async () => {
      const k = setup();
      k.server.on('POST', '/knowledge_base/translate', () => fail(503, '翻译需要配置语言模型（LLM_BASE_URL 和 LLM_MODEL），当前服务器未配置', LLM_NOT_CONFIGURED));
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
      expect(k.server.calls[0]!.path).toBe('/channel/channel_docs/c1');
      expect(k.lastToast(), 'a missing document is not an error to show').toBe(undefined);
      k.server.on('GET', '/channel/channel_docs/c2', () => fail(404, '频道不存在', 'not_found'));
      await docs.load('c2');
      expect(docs.$docs.value).toBe('error');
      await docs.load('');
      expect(docs.$docs.value).toEqual([]);
    });
  });
});
