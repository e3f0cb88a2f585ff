import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { department, personSearchResult } from '../../../src/contract/general';
import { signUp, startServer, uniqueEmail, uniquePhone, type Client, type TestServer } from '../helpers';

let server: TestServer;
let db: ReturnType<TestServer['sqlite']>;
let viewer: Client;

const people: Record<string, { email?: string; phone?: string; id?: string }> = {};

/** Makes an active (or pending/disabled) user in a department, through the real sign-up. */
async function person(name: string, opts: { dept?: string; phone?: boolean; email?: string; status?: 'pending' | 'disabled' } = {}) {
  const client = server.client();
  const phone = opts.phone ? uniquePhone() : undefined;
  const { account } = await signUp(client, { name, phone, email: opts.email, activate: opts.status !== 'pending' });
  const row = db.prepare(`select id from users where ${phone ? 'phone' : 'email'} = ?`).get(account) as { id: string };
  if (opts.dept) db.prepare('update users set department_id = ? where id = ?').run(opts.dept, row.id);
  if (opts.status === 'disabled') db.prepare("update users set status = 'disabled' where id = ?").run(row.id);
  people[name] = { id: row.id, ...(phone ? { phone } : { email: account }) };
}

beforeAll(async () => {
  server = await startServer();
  db = server.sqlite();
  const at = new Date().toISOString();
  const dept = db.prepare('insert into departments (id, name, created_at) values (?, ?, ?)');
  dept.run('d-chem', '药物化学部', at);
  dept.run('d-bio', 'Biology Lab', at);
  dept.run('d-empty', '空部门', at);
  await person('张伟', { dept: 'd-chem' });
  await person('李娜', { dept: 'd-chem', phone: true });
  await person('Alice Smith', { dept: 'd-bio', email: uniqueEmail('alice.smith') });
  await person('ab_cd', {});
  await person('abxcd', {});
  await person('x%y', {});
  await person('xzy', {});
  await person('张待激活', { dept: 'd-chem', status: 'pending' });
  await person('张已停用', { dept: 'd-chem', status: 'disabled' });
  viewer = server.client();
  const { account } = await signUp(viewer, { name: '查看者' });
  expect((await viewer.post('/api/v1/auth/sign-in', { account, password: 'passw0rd-ok' })).status).toBe(200);
});
afterAll(async () => {
  db.close();
  await server.close();
});

const search = async (keyword: string) => {
  const res = await viewer.get(`/api/v1/search_person_department?keyword=${encodeURIComponent(keyword)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...personSearchResult.parse(res.body.data), raw: JSON.stringify(res.body) };
};
const names = (r: { people: { name: string }[] }) => r.people.map((p) => p.name).sort();

describe('GET /api/v1/departments', () => {
  it('needs a signed-in user', async () => {
    const res = await server.client().get('/api/v1/departments');
    expect(res.status).toBe(401);
    expect(res.body.success).toBe(false);
  });

  it('lists every department with its active members only', async () => {
    const res = await viewer.get('/api/v1/departments');
    expect(res.status).toBe(200);
    const list = z.array(department).parse(res.body.data);
    expect(list).toEqual(
      expect.arrayContaining([
        { id: 'd-chem', name: '药物化学部', member_count: 2 },
        { id: 'd-bio', name: 'Biology Lab', member_count: 1 },
        { id: 'd-empty', name: '空部门', member_count: 0 },
      ]),
    );
  });
});

describe('GET /api/v1/search_person_department', () => {
  it('needs a signed-in user', async () => {
    const res = await server.client().get('/api/v1/search_person_department?keyword=张');
    expect(res.status).toBe(401);
  });

  it('matches Chinese names and leaves out pending and disabled people', async () => {
    const r = await search('张');
    expect(names(r)).toEqual(['张伟']);
  });

  it('matches English names whatever the case', async () => {
    for (const k of ['alice', 'ALICE SM', 'Smith']) expect(names(await search(k))).toEqual(['Alice Smith']);
  });

  it('matches e-mail addresses only by what it shows (masked), so a full address confirms nothing', async () => {
    const email = people['Alice Smith']!.email!;
    expect(names(await search(email))).toEqual([]);
    expect(names(await search(email.slice(0, 14)))).toEqual([]);
    const r = await search('a***@example.com');
    expect(names(r)).toEqual(['Alice Smith']);
    expect(r.people[0]!.show_name).toBe(`a***@example.com`);
    expect(r.raw).not.toContain(email);
  });

  it('matches phone numbers only by what it shows (masked)', async () => {
    const phone = people['李娜']!.phone!;
    expect(names(await search(phone))).toEqual([]);
    expect(names(await search(phone.slice(2, 9)))).toEqual([]);
    const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
    const r = await search(masked);
    expect(names(r)).toEqual(['李娜']);
    expect(r.people[0]!.show_name).toBe(masked);
    expect(names(await search(phone.slice(7)))).toContain('李娜');
    expect(r.raw).not.toContain(phone);
  });

  it('matches department names: its active members and the department itself', async () => {
    const r = await search('化学');
    expect(names(r)).toEqual(['张伟', '李娜']);
    expect(r.people.every((p) => p.department_name === '药物化学部')).toBe(true);
    expect(r.departments).toEqual([{ id: 'd-chem', name: '药物化学部', member_count: 2 }]);
    const bio = await search('biology');
    expect(bio.departments.map((d) => d.name)).toEqual(['Biology Lab']);
  });

  it('people without a department show "none"', async () => {
    const r = await search('abxcd');
    expect(r.people).toEqual([expect.objectContaining({ name: 'abxcd', department_name: 'none' })]);
  });

  it('treats LIKE wildcards literally', async () => {
    expect(names(await search('b_c'))).toEqual(['ab_cd']);
    expect(names(await search('x%y'))).toEqual(['x%y']);
    expect(names(await search('%'))).toEqual(['x%y']);
    expect(names(await search('_'))).toEqual(['ab_cd']);
    expect(names(await search('\\'))).toEqual([]);
  });

  it('finds nothing without failing', async () => {
    const r = await search('不存在的人名');
    expect(r.people).toEqual([]);
    expect(r.departments).toEqual([]);
  });

  it.each([
    ['missing', ''],
    ['empty', '?keyword='],
    ['only spaces', '?keyword=%20%20%20'],
    ['51 characters', `?keyword=${'长'.repeat(51)}`],
  ])('a keyword that is %s → 400 naming it', async (_what, query) => {
    const res = await viewer.get(`/api/v1/search_person_department${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, field: 'keyword' });
    expect(res.body.message).toMatch(/[\u4e00-\u9fff]/);
  });
});
