import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';

const TOKENS = '/api/v1/auth/tokens';
let server: TestServer;
let alice: Client;
let bob: Client;
let aliceId: string;

beforeAll(async () => {
  server = await startServer();
  const a = await signedInUser(server, { name: '爱丽丝' });
  alice = a.client;
  aliceId = a.id;
  bob = (await signedInUser(server, { name: '鲍勃' })).client;
});
afterAll(async () => server?.close());

/** A program with a token: no cookies, no CSRF headers. */
async function withToken(token: string, method: string, url: string, body?: unknown, authorization = `Bearer ${token}`) {
  const headers: Record<string, string> = { authorization };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(server.url + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, setCookie: res.headers.getSetCookie(), body: (await res.json()) as { success: boolean; data: unknown; message: string; code?: string } };
}

const create = async (client: Client, name: string) => {
  const res = await client.post<{ id: string; token: string; prefix: string; name: string }>(TOKENS, { name });
  expect(res.status).toBe(200);
  return res.body.data;
};

describe('creating, listing and revoking tokens', () => {
  it('shows a new token once, stores only its hash, and lists it without the token', async () => {
    const created = await create(alice, '分析脚本');
    expect(created.token).toMatch(/^csai_[A-Za-z0-9_-]{40,}$/);
    expect(created.token.startsWith(created.prefix)).toBe(true);
    const list = await alice.get<Array<Record<string, unknown>>>(TOKENS);
    const listed = list.body.data.find((t) => t.id === created.id)!;
    expect(listed).toMatchObject({ name: '分析脚本', prefix: created.prefix, last_used_at: null });
    expect(JSON.stringify(list.body)).not.toContain(created.token);
    const db = server.sqlite();
    try {
      const row = db.prepare('select * from api_tokens where id = ?').get(created.id) as Record<string, unknown>;
      expect(JSON.stringify(row)).not.toContain(created.token);
    } finally {
      db.close();
    }
    // Bob sees none of Alice's tokens.
    expect((await bob.get<unknown[]>(TOKENS)).body.data).toEqual([]);
  });

  it.each([
    ['no body', undefined, 400, '请求体应为 JSON 对象'],
    ['no name', {}, 400, '请输入令牌名称'],
    ['a blank name', { name: '   ' }, 400, '请输入令牌名称'],
    ['a number', { name: 5 }, 400, '请输入令牌名称'],
    ['a name of a million characters', { name: 'x'.repeat(1_000_000) }, 400, '令牌名称不能超过50个字符'],
    ['a control character', { name: 'a\u0000b' }, 400, '令牌名称不能包含控制字符或不可见的格式字符'],
    ['only a zero-width space', { name: '\u200b' }, 400, '令牌名称不能包含控制字符或不可见的格式字符'],
    ['a right-to-left override', { name: 'a\u202eb' }, 400, '令牌名称不能包含控制字符或不可见的格式字符'],
    ['an extra field', { name: 'ok', scope: 'admin' }, 400, ''],
  ])('refuses %s', async (_what, body, status, message) => {
    const before = (await alice.get<unknown[]>(TOKENS)).body.data.length;
    const res = await alice.post(TOKENS, body);
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(false);
    if (message) expect(res.body.message).toContain(message);
    expect((await alice.get<unknown[]>(TOKENS)).body.data.length).toBe(before);
  });

  it('refuses a body over the 1 MB limit with a clear message', async () => {
    const res = await alice.post(TOKENS, { name: 'x'.repeat(1_100_000) });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('请求体过大');
  });

  it('needs a sign-in, and the CSRF headers when cookies are sent', async () => {
    const anonymous = server.client();
    expect((await anonymous.post(TOKENS, { name: 'x' })).status).toBe(401);
    expect((await alice.post(TOKENS, { name: 'x' }, { csrf: false })).status).toBe(403);
  });

  it('revokes: an unknown id and someone else\'s token are "not found"; a revoked token gets 401', async () => {
    const created = await create(alice, '临时');
    expect((await withToken(created.token, 'GET', '/api/v1/auth/me')).status).toBe(200);
    const unknown = await alice.request('DELETE', `${TOKENS}/nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('令牌不存在');
    const foreign = await bob.request('DELETE', `${TOKENS}/${created.id}`);
    expect(foreign.status).toBe(404);
    expect((await withToken(created.token, 'GET', '/api/v1/auth/me')).status).toBe(200);
    const revoked = await alice.request('DELETE', `${TOKENS}/${created.id}`);
    expect(revoked.status).toBe(200);
    const after = await withToken(created.token, 'GET', '/api/v1/auth/me');
    expect(after.status).toBe(401);
    expect(after.body.message).toBe('Signature verification failed');
    expect((await alice.request('DELETE', `${TOKENS}/${created.id}`)).status).toBe(404);
  });
});

describe('Authorization: Bearer', () => {
  it('speaks for its user with no cookies and no CSRF headers, and sets no cookie', async () => {
    const { token } = await create(alice, '读写');
    const me = await withToken(token, 'GET', '/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: aliceId });
    expect(me.setCookie).toEqual([]);
    const channel = await withToken(token, 'POST', '/api/v1/channel', { name: '脚本创建的会话' });
    expect(channel.status).toBe(200);
    const mine = await alice.get<{ items: Array<{ name: string }> }>('/api/v1/channel');
    expect(mine.body.data.items.map((c) => c.name)).toContain('脚本创建的会话');
  });

  it('reads exactly what its user may read', async () => {
    const { token } = await create(alice, '只读');
    const bobsChannel = await bob.post<{ id: string }>('/api/v1/channel', { name: '鲍勃的会话' });
    const bobsFolder = await bob.post<{ id: string }>('/api/v1/knowledge_base/folder', { name: '鲍勃的知识库' });
    expect((await withToken(token, 'GET', `/api/v1/channel/questions/${bobsChannel.body.data.id}`)).status).toBe(404);
    expect((await withToken(token, 'GET', `/api/v1/knowledge_base/get_folder/${bobsFolder.body.data.id}`)).status).toBe(404);
    const channels = await withToken(token, 'GET', '/api/v1/channel?size=100');
    expect(JSON.stringify(channels.body.data)).not.toContain('鲍勃的会话');
  });

  it('cannot manage tokens (a leaked token cannot mint more)', async () => {
    const { token, id } = await create(alice, '受限');
    expect((await withToken(token, 'POST', TOKENS, { name: 'more' })).status).toBe(403);
    expect((await withToken(token, 'GET', TOKENS)).status).toBe(403);
    expect((await withToken(token, 'DELETE', `${TOKENS}/${id}`)).status).toBe(403);
  });

  it.each([
    ['an unknown token', 'Bearer csai_nottherealone'],
    ['an empty Bearer', 'Bearer '],
    ['another scheme', 'Basic YWxpY2U6cHc='],
    ['a token with spaces', 'Bearer a b'],
  ])('answers %s with 401', async (_what, authorization) => {
    const res = await withToken('', 'GET', '/api/v1/auth/me', undefined, authorization);
    expect(res.status).toBe(401);
    expect(res.body.success).toBe(false);
  });
});
