// The knowledge-base API for the browser tests of <csai-knowledge> and the knowledge model's unit
// tests (tests/core), on the shared fake API (../fake-api): folders, documents with parse states,
// sharing, people search, translation.
import type { KbDocument, KbFolder } from '../../../src/contract/knowledge';
import { fail, fakeApi, ok, okPage, type ApiRequest, type Route } from '../fake-api';

export { fail, FakeXhr, installFakeXhr, ok } from '../fake-api';

export const folder = (id: string, name: string, extra: Partial<KbFolder> = {}): KbFolder => ({
  id, name, isShared: false, is_public: false, is_owner: true, owner_id: 'u1', owner_name: '王化学', doc_count: 0,
  created_at: '2026-11-01T00:00:00Z', updated_at: '2026-11-01T00:00:00Z', ...extra,
});

export const doc = (docId: string, title: string, extra: Partial<KbDocument> = {}): KbDocument => ({
  docId, title, type: 1, parseStatus: 2, parse_progress: 100, progress_texts: [], img_id: null, download_url: '', download_key: '',
  folder_id: 'f1', size: 204800, page_count: 12, owner_id: 'u1', owner_name: '王化学', is_owner: true, created_at: '2026-11-01T00:00:00Z', ...extra,
});

/** The server's state; tests change it between calls, or add their own routes (`server.on`). */
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
    /** Documents shared with the user one by one (get_shared_docs). */
    sharedDocs: [doc('s1', '同事的论文.pdf', { is_owner: false, owner_id: 'u2', owner_name: '李博士', folder_id: 'fx' })] as KbDocument[],
    /** POST translate answers after this promise settles (a test holds it to see the progress). */
    translateGate: Promise.resolve() as Promise<unknown>,
  };
  const pageNo = (req: ApiRequest) => Number(req.query.get('page') ?? 1);
  const searched = (docs: KbDocument[], req: ApiRequest) => {
    const search = req.query.get('search');
    return okPage(search ? docs.filter((d) => d.title.includes(search)) : docs, pageNo(req));
  };
  const server = fakeApi([
    ['*', '/', () => ok({ name: 'csai', version: '1', time: '' })],
    ['GET', '/knowledge_base/folder', () => okPage(state.mine)],
    ['*', '/knowledge_base/get_share_folders', () => okPage(state.shared)],
    ['*', '/knowledge_base/public_folders', () => okPage(state.public)],
    ['POST', '/knowledge_base/folder', (req) => {
      const f = folder(`f${state.mine.length + 10}`, (req.body as { name: string }).name);
      state.mine.unshift(f);
      return ok(f, '创建成功');
    }],
    ['GET', /^\/knowledge_base\/folder\/([^/]+)$/, (req, [id]) => {
      state.docCalls++;
      state.onDocs?.(state.docCalls);
      return searched(state.docs[id!] ?? [], req);
    }],
    ['PUT', /^\/knowledge_base\/folder\/([^/]+)$/, (req, [id]) => {
      const f = state.mine.find((x) => x.id === id)!;
      Object.assign(f, req.body);
      return ok(f, '修改成功');
    }],
    ['DELETE', /^\/knowledge_base\/folder\/([^/]+)$/, (_req, [id]) => {
      state.mine = state.mine.filter((x) => x.id !== id);
      return ok({ deleted: 1 }, '删除成功');
    }],
    ['*', '/knowledge_base/get_folder/folder_for_question_channel', () => ok(folder('folder_for_question_channel', '问答文件', { doc_count: 1 }))],
    ['*', /^\/knowledge_base\/doc_markdown\/(.+)$/, (_req, [docId]) => ok({ docId, markdown: '# cdk2\n\n共 47 个分子。\n' })],
    ['*', '/knowledge_base/add_doc_to_kb', () => ok({ name: 'x', docId: 'd9' }, '文件已添加到知识库')],
    ['*', '/knowledge_base/copy_doc', () => ok({ name: 'x', docId: 'd9' }, '文件已添加到知识库')],
    ['*', '/knowledge_base/folder/movedoc', () => ok({ moved: 1 })],
    ['DELETE', /^\/knowledge_base\/d\d$/, () => ok({ deleted: 1 })],
    ['*', '/knowledge_base/get_shared_records', () => ok(state.records)],
    ...['/knowledge_base/share_folder', '/knowledge_base/share_doc'].map((path): Route => ['*', path, (req) => {
      const b = req.body as { folder_id?: string; docId?: string; user_ids: string[]; department_ids: string[] };
      for (const id of b.user_ids) state.records.push({ share_id: `sh${state.records.length + 1}`, resource_type: b.folder_id ? 'folder' : 'doc', resource_id: b.folder_id ?? b.docId ?? '', resource_name: '', target_type: 'user', target_id: id, target_name: '李博士', created_at: '' });
      return ok({ shared: b.user_ids.length + b.department_ids.length, records: [] }, '分享成功');
    }]),
    ['*', '/knowledge_base/cancel_share', (req) => {
      state.records = state.records.filter((r) => r.share_id !== (req.body as { share_id: string }).share_id);
      return ok({ deleted: 1 });
    }],
    ['*', '/knowledge_base/get_shared_docs', (req) => searched(state.sharedDocs, req)],
    ['*', '/knowledge_base/all_docs', (req) => searched(Object.values(state.docs).flat(), req)],
    ['*', '/knowledge_base/get_folder/xxx', (req) => {
      const found = state.mine.find((f) => f.name === req.query.get('folder_name'));
      return found ? ok(found) : fail(404, '知识库不存在', 'not_found');
    }],
    ['*', '/knowledge_base/translate', async (req) => {
      await state.translateGate;
      const b = req.body as { docId: string; target_lang: string };
      return ok({ translation: `# Review (${b.target_lang})\n\nKinase inhibitors <b>block</b> ATP binding.`, truncated: true, model: 'qwen-test' });
    }],
    ['*', '/knowledge_base/es_copy_doc_to_question_channel', (req) => {
      const ids = (req.body as { docIds: string[] }).docIds;
      return ok({ name_id: ids.map((id) => ({ name: `${id}-副本.pdf`, docId: `q-${id}` })) });
    }],
    ['GET', /^\/knowledge_base\/doc\/(.+)$/, (_req, [docId]) => {
      const found = Object.values(state.docs).flat().find((d) => d.docId === docId);
      return found ? ok(found) : fail(404, '文档不存在', 'not_found');
    }],
    ['*', '/departments', () => ok([{ id: 'dep1', name: '药物化学部', member_count: 12 }])],
    ['*', '/search_person_department', () => ok({ people: [{ id: 'u2', name: '李博士', show_name: 'li@example.com', department_name: '药物化学部' }], departments: [] })],
  ]);
  return { state, calls: server.calls, on: server.on, restore: server.restore };
}
