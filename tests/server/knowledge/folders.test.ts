import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { KB, makePdf, openDb, tinyPng, upload, waitParsed } from '../knowledge-helpers';

type NameId = { name_id: Array<{ name: string; docId: string }> };
type Folder = { id: string; name: string; isShared: boolean; is_public: boolean; doc_count: number; created_at: string };
type Page<T> = { items: T[]; total: number; page: number; size: number };
type Doc = { docId: string; title: string; folder_id: string; parseStatus: number };

let server: TestServer;
let me: Client;
const pdf = (title: string) => makePdf([[title, 'Body text of the test document, long enough to be the body of it.']]);
const put = <T = unknown>(url: string, body: unknown) => me.request<T>('PUT', url, { body });
const del = <T = unknown>(url: string) => me.request<T>('DELETE', url);

beforeAll(async () => {
  server = await startServer();
  me = (await signedInUser(server, { name: '课题组长' })).client;
});
afterAll(async () => {
  await server.close();
});

describe('folders', () => {
  it('creates, lists with page/size/search/sort, renames, finds by name', async () => {
    for (const name of ['B 激酶抑制剂', 'A 抗体', 'C 小分子']) {
      const res = await me.post<Folder>(`${KB}/folder`, { name: `  ${name} ` });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ name, isShared: false, is_public: false, doc_count: 0 });
    }
    const byName = await me.get<Page<Folder>>(`${KB}/folder?page=1&size=100&sort=name`);
    expect(byName.body.data.items.map((f) => f.name)).toEqual(['A 抗体', 'B 激酶抑制剂', 'C 小分子']);
    const newest = await me.get<Page<Folder>>(`${KB}/folder?page=1&size=2&sort=-createTime`);
    expect(newest.body.data).toMatchObject({ total: 3, page: 1, size: 2 });
    expect(newest.body.data.items.map((f) => f.name)).toEqual(['C 小分子', 'A 抗体']);
    const page2 = await me.get<Page<Folder>>(`${KB}/folder?page=2&size=2&sort=-createTime`);
    expect(page2.body.data.items.map((f) => f.name)).toEqual(['B 激酶抑制剂']);
    const search = await me.get<Page<Folder>>(`${KB}/folder?page=1&size=100&search=${encodeURIComponent('激酶')}`);
    expect(search.body.data.items.map((f) => f.name)).toEqual(['B 激酶抑制剂']);
    const literal = await me.get<Page<Folder>>(`${KB}/folder?page=1&size=100&search=%25`);
    expect(literal.body.data.items).toEqual([]);

    const id = search.body.data.items[0]!.id;
    const renamed = await put<Folder>(`${KB}/folder/${id}`, { name: 'B 激酶抑制剂（二期）' });
    expect(renamed.body.data.name).toBe('B 激酶抑制剂（二期）');
    const found = await me.get<Folder>(`${KB}/get_folder/xxx?folder_name=${encodeURIComponent('B 激酶抑制剂（二期）')}`);
    expect(found.body.data.id).toBe(id);
    expect((await me.get(`${KB}/get_folder/xxx?folder_name=nope`)).status).toBe(404);
    // A parameter the route does not know (a cache-buster, say) is ignored, as on every list route.
    expect((await me.get<Folder>(`${KB}/get_folder/xxx?folder_name=${encodeURIComponent('B 激酶抑制剂（二期）')}&_=1764201600`)).body.data.id).toBe(id);
    expect((await me.get<Folder>(`${KB}/get_folder/${id}`)).body.data.name).toBe('B 激酶抑制剂（二期）');
  });

  it('refuses a taken name, a blank name and bad list parameters', async () => {
    expect((await me.post(`${KB}/folder`, { name: 'A 抗体' })).body).toMatchObject({ message: '知识库名称已存在', code: 'folder_name_taken' });
    const blank = await me.post(`${KB}/folder`, { name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('请输入知识库名称');
    expect((await me.post(`${KB}/folder`, { name: 'x'.repeat(101) })).body.message).toBe('知识库名称不能超过100个字符');
    expect((await me.post(`${KB}/folder`, { name: 'a\u0000b' })).status).toBe(400);
    expect((await me.post(`${KB}/folder`, {})).status).toBe(400);
    expect((await me.post(`${KB}/folder`, 'not json{')).status).toBe(400);
    expect((await me.post(`${KB}/folder`, { name: 'ok', owner_id: 'x' })).status).toBe(400);
    for (const q of ['page=0', 'size=101', 'size=abc', 'sort=bogus']) {
      const res = await me.get(`${KB}/folder?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.success).toBe(false);
    }
    const first = (await me.get<Page<Folder>>(`${KB}/folder?sort=name`)).body.data.items[0]!;
    expect((await put(`${KB}/folder/${first.id}`, {})).body.message).toBe('请提供要修改的内容');
    expect((await put(`${KB}/folder/${first.id}`, { name: 'C 小分子' })).status).toBe(409);
    expect((await put(`${KB}/folder/folder_for_question_channel`, { name: '改' })).status).toBe(400);
    expect((await del(`${KB}/folder/folder_for_question_channel`)).status).toBe(400);
  });

  it('the built-in question-files folder exists for everyone', async () => {
    const f = await me.get<Folder>(`${KB}/get_folder/folder_for_question_channel`);
    expect(f.status).toBe(200);
    expect(f.body.data).toMatchObject({ id: 'folder_for_question_channel', name: '问答文件' });
    const docs = await me.get<Page<Doc>>(`${KB}/folder/folder_for_question_channel?page=1&size=10`);
    expect(docs.status).toBe(200);
  });

  it('deleting a folder deletes its documents and their files', async () => {
    const f = (await me.post<Folder>(`${KB}/folder`, { name: '待删除' })).body.data;
    const bytes = makePdf([['Unique content for deletion test 4711']]);
    const up = await upload<NameId>(me, [{ name: 'gone.pdf', data: bytes }], f.id);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(me, docId);
    const sha = (await import('node:crypto')).createHash('sha256').update(bytes).digest('hex');
    const file = path.join(server.dataDir, 'files', sha.slice(0, 2), sha);
    expect(fs.existsSync(file)).toBe(true);
    const res = await del<{ deleted: number }>(`${KB}/folder/${f.id}`);
    expect(res.body.data.deleted).toBe(1);
    expect((await me.get(`${KB}/doc/${docId}`)).status).toBe(404);
    expect((await me.get(`${KB}/get_folder/${f.id}`)).status).toBe(404);
    expect(fs.existsSync(file)).toBe(false);
    const db = openDb(server);
    try {
      expect(db.prepare('select count(*) as n from kb_chunks where doc_id = ?').get(docId)).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('check_folder tells whether every document is parsed', async () => {
    const f = (await me.post<Folder>(`${KB}/folder`, { name: '检查' })).body.data;
    const empty = await me.post<{ all_parsed: boolean }>(`${KB}/folder/check_folder`, { folder_ids: [f.id] });
    expect(empty.body.data.all_parsed).toBe(true);
    const up = await upload<NameId>(me, [{ name: 'c.pdf', data: pdf('Check me') }, { name: 'broken.pdf', data: Buffer.from('%PDF-1.4\nthis is not really a pdf') }], f.id);
    const [ok, broken] = up.body.data.name_id.map((n) => n.docId) as [string, string];
    await waitParsed(me, ok);
    const b = await waitParsed(me, broken, 120_000);
    expect(b.parseStatus).toBe(3);
    expect(b.progress_texts.at(-1)).toMatch(/^解析失败：/);
    // Plain words for the owner and readers; no path, command or library message.
    for (const text of b.progress_texts) expect(text).not.toMatch(/\/|\\|Error|Exception|Command|tesseract|pdf\.js|\.mjs|\bat\b/i);
    const res = await me.post<{ all_parsed: boolean; folders: Array<{ total: number; parsed: number; failed: number; parsing: number }> }>(`${KB}/folder/check_folder`, { folder_ids: [f.id] });
    expect(res.body.data).toMatchObject({ all_parsed: true, folders: [{ total: 2, parsed: 1, failed: 1, parsing: 0 }] });
    expect((await me.post(`${KB}/folder/check_folder`, { folder_ids: [] })).body.message).toBe('请选择知识库');
    expect((await me.post(`${KB}/folder/check_folder`, { folder_ids: ['missing'] })).status).toBe(404);
    expect((await me.get(`${KB}/doc_markdown/${broken}`)).status).toBe(409);
  });
});

describe('documents', () => {
  let source: string;
  let target: Folder;
  beforeAll(async () => {
    target = (await me.post<Folder>(`${KB}/folder`, { name: '目标库' })).body.data;
    source = (await upload<NameId>(me, [{ name: 'move-me.pdf', data: pdf('Move me') }])).body.data.name_id[0]!.docId;
    await waitParsed(me, source);
  });

  it('add_doc_to_kb copies a question file into a knowledge base, with its parsed content', async () => {
    const res = await me.post<{ name: string; docId: string }>(`${KB}/add_doc_to_kb`, { folder_id: target.id, docId: source });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('文件已添加到知识库');
    const copy = await me.get<Doc>(`${KB}/doc/${res.body.data.docId}`);
    expect(copy.body.data).toMatchObject({ title: 'move-me.pdf', folder_id: target.id, parseStatus: 2 });
    const md = await me.get<{ markdown: string }>(`${KB}/doc_markdown/${res.body.data.docId}`);
    expect(md.body.data.markdown).toContain('Move me');
    // A second copy gets a free name rather than a clash.
    const again = await me.post<{ name: string }>(`${KB}/copy_doc`, { folder_id: target.id, docId: source });
    expect(again.body.data.name).toBe('move-me_1.pdf');
  });

  it('add_doc_to_kb needs both a folder and a document (SPEC §5)', async () => {
    expect((await me.post(`${KB}/add_doc_to_kb`, { docId: source })).body.message).toBe('请选择知识库');
    expect((await me.post(`${KB}/add_doc_to_kb`, { folder_id: target.id })).body.message).toBe('请选择文档');
    expect((await me.post(`${KB}/add_doc_to_kb`, { folder_id: '', docId: source })).body.message).toBe('请选择知识库');
    expect((await me.post(`${KB}/add_doc_to_kb`, { folder_id: 'missing', docId: source })).status).toBe(404);
    expect((await me.post(`${KB}/add_doc_to_kb`, { folder_id: target.id, docId: 'missing' })).status).toBe(404);
  });

  it('movedoc moves documents and back', async () => {
    const res = await me.post<{ moved: number }>(`${KB}/folder/movedoc`, { doc_ids: [source], folder_id: target.id });
    expect(res.body.data.moved).toBe(1);
    expect((await me.get<Doc>(`${KB}/doc/${source}`)).body.data.folder_id).toBe(target.id);
    const list = await me.get<Page<Doc>>(`${KB}/folder/${target.id}?page=1&size=10&search=move`);
    expect(list.body.data.items.map((d) => d.docId)).toContain(source);
    await me.post(`${KB}/folder/movedoc`, { docId: source, folder_id: 'folder_for_question_channel' });
    expect((await me.get<Doc>(`${KB}/doc/${source}`)).body.data.folder_id).toBe('folder_for_question_channel');
    expect((await me.post(`${KB}/folder/movedoc`, { folder_id: target.id })).body.message).toBe('请选择文档');
    expect((await me.post(`${KB}/folder/movedoc`, { doc_ids: [], folder_id: target.id })).body.message).toBe('请选择文档');
  });

  it('es_copy_doc_to_question_channel copies knowledge-base documents into question files', async () => {
    const inKb = (await me.get<Page<Doc>>(`${KB}/folder/${target.id}?page=1&size=10`)).body.data.items[0]!;
    const res = await me.post<NameId>(`${KB}/es_copy_doc_to_question_channel`, { docIds: [inKb.docId, source] });
    expect(res.status).toBe(200);
    const [copied, same] = res.body.data.name_id;
    expect(copied!.docId).not.toBe(inKb.docId);
    expect(same!.docId).toBe(source); // already a question file: reused
    expect((await me.get<Doc>(`${KB}/doc/${copied!.docId}`)).body.data.folder_id).toBe('folder_for_question_channel');
    expect((await me.post(`${KB}/es_copy_doc_to_question_channel`, { docIds: [] })).status).toBe(400);
  });

  it('es_copy_doc_to_question_channel gives one question file for one document, however often it is chosen', async () => {
    const kept = (await upload<NameId>(me, [{ name: 'chosen-twice.pdf', data: pdf('Chosen twice for questions') }], target.id)).body.data.name_id[0]!.docId;
    const questionFiles = async () => (await me.get<Page<Doc>>(`${KB}/folder/folder_for_question_channel?page=1&size=100`)).body.data.total;
    const before = await questionFiles();
    const first = await me.post<NameId>(`${KB}/es_copy_doc_to_question_channel`, { docIds: [kept] });
    const again = await me.post<NameId>(`${KB}/es_copy_doc_to_question_channel`, { docIds: [kept] });
    expect(first.status).toBe(200);
    expect(again.body.data.name_id).toEqual(first.body.data.name_id);
    expect(first.body.data.name_id[0]).toMatchObject({ name: 'chosen-twice.pdf' });
    expect(await questionFiles()).toBe(before + 1);
    // The knowledge-base document itself stays where it is.
    expect((await me.get<Doc>(`${KB}/doc/${kept}`)).body.data.folder_id).toBe(target.id);
  });

  it('get_img returns an image as base64 and refuses other documents', async () => {
    const img = (await upload<NameId>(me, [{ name: 'tiny.png', data: tinyPng }])).body.data.name_id[0]!.docId;
    const res = await me.get<{ img_base64: string; mime: string }>(`${KB}/get_img/${img}`);
    expect(Buffer.from(res.body.data.img_base64, 'base64').equals(tinyPng)).toBe(true);
    expect(res.body.data.mime).toBe('image/png');
    expect((await me.get(`${KB}/get_img/${source}`)).body.message).toBe('该文档不是图片');
    const doc = await me.get<{ img_id: string | null; type: number }>(`${KB}/doc/${img}`);
    expect(doc.body.data).toMatchObject({ img_id: img, type: 3 });
  });

  it('deleting a document keeps a file another document still uses', async () => {
    const bytes = makePdf([['Shared bytes between two documents 99']]);
    const [a, b] = (await upload<NameId>(me, [{ name: 'a.pdf', data: bytes }, { name: 'b.pdf', data: bytes }])).body.data.name_id.map((n) => n.docId) as [string, string];
    const sha = (await import('node:crypto')).createHash('sha256').update(bytes).digest('hex');
    const file = path.join(server.dataDir, 'files', sha.slice(0, 2), sha);
    expect((await del<{ deleted: number }>(`${KB}/${a}`)).body.data.deleted).toBe(1);
    expect(fs.existsSync(file)).toBe(true);
    expect((await me.get(`${KB}/download/${b}`)).status).toBe(200);
    await del(`${KB}/${b}`);
    expect(fs.existsSync(file)).toBe(false);
    expect((await del(`${KB}/${b}`)).status).toBe(404);
  });
});
