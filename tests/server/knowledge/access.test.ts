import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { joinDepartment, KB, makePdf, tinyPng, upload, waitParsed } from '../knowledge-helpers';

type NameId = { name_id: Array<{ name: string; docId: string }> };
type Folder = { id: string; name: string; isShared: boolean; is_public: boolean; is_owner: boolean; doc_count: number; owner_name: string };
type Page<T> = { items: T[]; total: number; page: number; size: number };
type Doc = { docId: string; title: string; is_owner: boolean };
type ShareRecord = { share_id: string; resource_type: string; resource_id: string; target_type: string; target_id: string; target_name: string; resource_name: string };

let server: TestServer;
const who: Record<'owner' | 'shared' | 'member' | 'stranger' | 'anon', Client> = {} as never;
let ids: { owner: string; shared: string; member: string; stranger: string; department: string };
let folder: string; // shared with `shared` (user) and with the department
let doc: string; // a PDF in `folder`
let image: string; // an image in `folder`
let privateFolder: string;
let sharedDoc: string; // a PDF in privateFolder, shared with `shared` alone

const pdf = (title: string) => makePdf([[title, 'Body text of the test document, long enough to be the body of it.', 'Another body line with the same size.']]);

beforeAll(async () => {
  server = await startServer();
  const [o, s, m, x] = await Promise.all([
    signedInUser(server, { name: '所有者' }),
    signedInUser(server, { name: '被分享者' }),
    signedInUser(server, { name: '部门成员' }),
    signedInUser(server, { name: '陌生人' }),
  ]);
  Object.assign(who, { owner: o.client, shared: s.client, member: m.client, stranger: x.client, anon: server.client() });
  const department = joinDepartment(server, m.id, '药物化学部');
  ids = { owner: o.id, shared: s.id, member: m.id, stranger: x.id, department };

  folder = (await o.client.post<Folder>(`${KB}/folder`, { name: '共享课题' })).body.data.id;
  privateFolder = (await o.client.post<Folder>(`${KB}/folder`, { name: '私人课题' })).body.data.id;
  const up = await upload<NameId>(o.client, [{ name: 'shared.pdf', data: pdf('Shared Paper') }, { name: 'gel.png', data: tinyPng }], folder);
  [doc, image] = up.body.data.name_id.map((n) => n.docId) as [string, string];
  sharedDoc = (await upload<NameId>(o.client, [{ name: 'one.pdf', data: pdf('One Doc') }], privateFolder)).body.data.name_id[0]!.docId;
  for (const id of [doc, image, sharedDoc]) await waitParsed(o.client, id);
  const sf = await o.client.post(`${KB}/share_folder`, { folder_id: folder, user_ids: [s.id], department_ids: [department] });
  expect(sf.status).toBe(200);
  const sd = await o.client.post(`${KB}/share_doc`, { docId: sharedDoc, user_ids: [s.id] });
  expect(sd.status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

type Who = keyof typeof who;
const put = <T = unknown>(c: Client, url: string, body: unknown) => c.request<T>('PUT', url, { body });
const call = (c: Client, method: string, url: string, body?: unknown) => c.request(method, url, body === undefined ? {} : { body });
const readers = { owner: 200, shared: 200, member: 200, stranger: 404, anon: 401 } as const;
const writers = { owner: 200, shared: 403, member: 403, stranger: 404, anon: 401 } as const;

describe('authorisation matrix: reading a shared folder and its documents', () => {
  const cases: Array<[string, () => [string, string, unknown?]]> = [
    ['GET get_folder/{id}', () => ['GET', `${KB}/get_folder/${folder}`]],
    ['GET folder/{id} (documents)', () => ['GET', `${KB}/folder/${folder}?page=1&size=10`]],
    ['GET doc/{id}', () => ['GET', `${KB}/doc/${doc}`]],
    ['GET doc_markdown/{id}', () => ['GET', `${KB}/doc_markdown/${doc}`]],
    ['GET download/{id}', () => ['GET', `${KB}/download/${doc}`]],
    ['GET get_img/{id}', () => ['GET', `${KB}/get_img/${image}`]],
    ['POST folder/check_folder', () => ['POST', `${KB}/folder/check_folder`, { folder_ids: [folder] }]],
    ['POST copy_doc into own question files', () => ['POST', `${KB}/copy_doc`, { docId: doc, folder_id: 'folder_for_question_channel' }]],
    ['POST es_copy_doc_to_question_channel', () => ['POST', `${KB}/es_copy_doc_to_question_channel`, { docIds: [doc] }]],
  ];
  for (const [name, make] of cases) {
    it.each(Object.entries(readers) as Array<[Who, number]>)(`${name}: %s → %i`, async (w, status) => {
      const [method, url, body] = make();
      const res = await call(who[w], method, url, body);
      expect(res.status).toBe(status);
      if (status === 404) expect(res.body.message).toMatch(/不存在/);
    });
  }

  it('a document shared alone is readable by that person only, not by the department', async () => {
    expect((await who.shared.get(`${KB}/doc/${sharedDoc}`)).status).toBe(200);
    expect((await who.member.get(`${KB}/doc/${sharedDoc}`)).status).toBe(404);
    expect((await who.shared.get(`${KB}/get_folder/${privateFolder}`)).status).toBe(404);
  });
});

describe('authorisation matrix: changing things', () => {
  const cases: Array<[string, () => [string, string, unknown?]]> = [
    ['PUT folder/{id}', () => ['PUT', `${KB}/folder/${folder}`, { name: '共享课题' }]],
    ['POST share_folder', () => ['POST', `${KB}/share_folder`, { folder_id: folder, user_ids: [ids.stranger === ids.owner ? '' : ids.shared] }]],
    ['POST share_doc', () => ['POST', `${KB}/share_doc`, { docId: image, user_ids: [ids.shared] }]],
    ['POST folder/movedoc', () => ['POST', `${KB}/folder/movedoc`, { docId: doc, folder_id: folder }]],
  ];
  for (const [name, make] of cases) {
    it.each(Object.entries(writers) as Array<[Who, number]>)(`${name}: %s → %i`, async (w, status) => {
      const [method, url, body] = make();
      const res = await call(who[w], method, url, body);
      expect(res.status).toBe(status);
    });
  }

  it.each(['shared', 'member', 'stranger', 'anon'] as const)('DELETE of a document and a folder by %s changes nothing', async (w) => {
    const d = await call(who[w], 'DELETE', `${KB}/${doc}`);
    const f = await call(who[w], 'DELETE', `${KB}/folder/${folder}`);
    expect([d.status, f.status]).toEqual([writers[w], writers[w]]);
    expect((await who.owner.get(`${KB}/doc/${doc}`)).status).toBe(200);
    expect((await who.owner.get(`${KB}/get_folder/${folder}`)).status).toBe(200);
  });

  it('a shared user cannot copy into, upload into or move into a folder that is not theirs', async () => {
    const copy = await who.shared.post(`${KB}/copy_doc`, { docId: doc, folder_id: folder });
    expect(copy.status).toBe(403);
    const up = await upload(who.shared, [{ name: 'intruder.pdf', data: pdf('Intruder') }], folder);
    expect(up.status).toBe(403);
    const strangerUp = await upload(who.stranger, [{ name: 'intruder.pdf', data: pdf('Intruder') }], folder);
    expect(strangerUp.status).toBe(404);
  });
});

describe('signed-out callers', () => {
  it.each([
    ['GET', `${KB}/folder?page=1&size=10`],
    ['GET', `${KB}/all_docs?page=1&size=10`],
    ['GET', `${KB}/get_share_folders?page=1&size=10`],
    ['GET', `${KB}/get_shared_docs`],
    ['GET', `${KB}/get_shared_records`],
    ['GET', `${KB}/public_folders`],
    ['POST', `${KB}/folder`],
    ['POST', `${KB}/cancel_share`],
    ['POST', `${KB}/add_doc_to_kb`],
  ])('%s %s → 401', async (method, url) => {
    const res = await call(who.anon, method, url, method === 'POST' ? {} : undefined);
    expect(res.status).toBe(401);
  });

  it('an upload without a session → 401 and nothing stored', async () => {
    const res = await upload(who.anon, [{ name: 'anon.pdf', data: pdf('Anon') }]);
    expect(res.status).toBe(401);
  });
});

describe('sharing', () => {
  it('shows the folder under shared folders for the person and the department member, not the stranger', async () => {
    for (const w of ['shared', 'member'] as const) {
      const list = await who[w].get<Page<Folder>>(`${KB}/get_share_folders?page=1&size=100&sort=-createTime`);
      expect(list.body.data.items.map((f) => f.id)).toContain(folder);
      const f = list.body.data.items.find((x) => x.id === folder)!;
      expect(f).toMatchObject({ isShared: true, is_owner: false, owner_name: '所有者', doc_count: 2 });
    }
    const none = await who.stranger.get<Page<Folder>>(`${KB}/get_share_folders?page=1&size=100`);
    expect(none.body.data.items).toEqual([]);
    // The owner's own list marks the folder as shared.
    const mine = await who.owner.get<Page<Folder>>(`${KB}/folder?page=1&size=100`);
    expect(mine.body.data.items.find((f) => f.id === folder)?.isShared).toBe(true);
    expect(mine.body.data.items.find((f) => f.id === privateFolder)?.isShared).toBe(false);
  });

  it('lists documents shared one by one', async () => {
    const list = await who.shared.get<Page<Doc>>(`${KB}/get_shared_docs?page=1&size=10`);
    expect(list.body.data.items.map((d) => d.docId).sort()).toEqual([sharedDoc, image].sort());
    expect(list.body.data.items[0]!.is_owner).toBe(false);
    expect((await who.member.get<Page<Doc>>(`${KB}/get_shared_docs`)).body.data.items).toEqual([]);
  });

  it('records every share with names, and cancelling one takes access away', async () => {
    const records = await who.owner.get<ShareRecord[]>(`${KB}/get_shared_records`);
    const byTarget = records.body.data.map((r) => `${r.resource_name}→${r.target_type}:${r.target_name}`).sort();
    expect(byTarget).toEqual(['gel.png→user:被分享者', 'one.pdf→user:被分享者', '共享课题→department:药物化学部', '共享课题→user:被分享者']);
    // Nobody else sees the owner's records, or can cancel them.
    expect((await who.shared.get<ShareRecord[]>(`${KB}/get_shared_records`)).body.data).toEqual([]);
    const deptShare = records.body.data.find((r) => r.target_type === 'department')!;
    expect((await who.member.post(`${KB}/cancel_share`, { share_id: deptShare.share_id })).status).toBe(404);
    const cancel = await who.owner.post(`${KB}/cancel_share`, { share_id: deptShare.share_id });
    expect(cancel.status).toBe(200);
    expect((await who.member.get(`${KB}/get_folder/${folder}`)).status).toBe(404);
    expect((await who.shared.get(`${KB}/get_folder/${folder}`)).status).toBe(200);
    // Share again for the other tests.
    expect((await who.owner.post(`${KB}/share_folder`, { folder_id: folder, department_ids: [ids.department] })).status).toBe(200);
  });

  it('sharing twice with the same person is harmless', async () => {
    const again = await who.owner.post<{ records: ShareRecord[] }>(`${KB}/share_folder`, { folder_id: folder, user_ids: [ids.shared] });
    expect(again.status).toBe(200);
    expect(again.body.data.records.filter((r) => r.target_id === ids.shared)).toHaveLength(1);
  });

  it.each([
    [{ folder_id: 'x' }, '请选择要分享的人或部门'],
    [{ user_ids: ['a'] }, '请提供知识库'],
    [{ folder_id: 'F', user_ids: 'nope' }, ''],
  ])('refuses a malformed share_folder %j', async (body, message) => {
    const res = await who.owner.post(`${KB}/share_folder`, body);
    expect(res.status).toBe(400);
    if (message) expect(res.body.message).toBe(message);
  });

  it('refuses unknown people and departments, and sharing with oneself only', async () => {
    expect((await who.owner.post(`${KB}/share_folder`, { folder_id: folder, user_ids: ['nobody'] })).body.message).toBe('要分享的用户不存在');
    expect((await who.owner.post(`${KB}/share_folder`, { folder_id: folder, department_ids: ['nodep'] })).body.message).toBe('要分享的部门不存在');
    expect((await who.owner.post(`${KB}/share_folder`, { folder_id: folder, user_ids: [ids.owner] })).body.message).toBe('不能分享给自己');
    expect((await who.owner.post(`${KB}/cancel_share`, { share_id: 'nope' })).status).toBe(404);
  });
});

describe('public folders', () => {
  it('a folder made public by its owner is readable by anyone signed in, and listed', async () => {
    expect((await who.stranger.get(`${KB}/get_folder/${privateFolder}`)).status).toBe(404);
    expect((await put(who.shared, `${KB}/folder/${privateFolder}`, { is_public: true })).status).toBe(404);
    const made = await put<Folder>(who.owner, `${KB}/folder/${privateFolder}`, { is_public: true });
    expect(made.status).toBe(200);
    expect(made.body.data.is_public).toBe(true);
    expect((await who.stranger.get(`${KB}/get_folder/${privateFolder}`)).status).toBe(200);
    expect((await who.stranger.get(`${KB}/doc/${sharedDoc}`)).status).toBe(200);
    const list = await who.stranger.get<Page<Folder>>(`${KB}/public_folders?page=1&size=10`);
    expect(list.body.data.items.map((f) => f.id)).toEqual([privateFolder]);
    // Readers of a public folder still cannot change it.
    expect((await put(who.stranger, `${KB}/folder/${privateFolder}`, { name: '改名' })).status).toBe(403);
    expect((await who.stranger.request('DELETE', `${KB}/${sharedDoc}`)).status).toBe(403);
    expect((await who.anon.get(`${KB}/public_folders`)).status).toBe(401);
    await put(who.owner, `${KB}/folder/${privateFolder}`, { is_public: false });
    expect((await who.stranger.get(`${KB}/get_folder/${privateFolder}`)).status).toBe(404);
  });
});
