import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentDisposition } from '../../../src/server/knowledge/names';
import { signedInUser, startServer, uniqueEmail, type Client, type TestServer } from '../helpers';
import { KB, upload } from '../knowledge-helpers';

// Names that display differently from what they are (bidi overrides, zero-width
// characters) are refused where a person types them and stripped where a file system gives them.
const SPOOFS = ['\u202efdp.exe', 'a\u200bb', 'x\u2066y\u2069', 'na\ufeffme', 'left\u200fright', 'join\u2060ed',
  // Still accepted before — invisible, or breaking the line where a name is shown.
  'soft\u00adhyphen', 'line\u2028break', 'para\u2029graph', 'cg\u034fj', '\u115f', 'han\u3164gul', 'half\uffa0width', 'tag\u{e0041}ged', 'braille\u2800blank'];

let server: TestServer;
let client: Client;
beforeAll(async () => {
  server = await startServer();
  ({ client } = await signedInUser(server));
});
afterAll(() => server.close());

describe('folder names', () => {
  for (const name of SPOOFS) {
    it(`refuses ${JSON.stringify(name)} on create and rename, and nothing is written`, async () => {
      const res = await client.post(`${KB}/folder`, { name });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, message: '知识库名称不能包含控制字符或不可见的格式字符', field: 'name' });
      const created = await client.post<{ id: string }>(`${KB}/folder`, { name: `ok-${Math.random()}` });
      const rename = await client.request('PUT', `${KB}/folder/${created.body.data.id}`, { body: { name } });
      expect(rename.status).toBe(400);
      const db = server.sqlite();
      expect(db.prepare('select count(*) as n from kb_folders where name = ?').get(name)).toEqual({ n: 0 });
      db.close();
    });
  }
  it('keeps ordinary Chinese, English and emoji names', async () => {
    for (const name of ['激酶抑制剂 2024', 'Kinase (A/B)', '🧪 实验', '❤️ 한국어 café', 'Ｆｕｌｌ　ｗｉｄｔｈ']) expect((await client.post(`${KB}/folder`, { name })).status).toBe(200);
  });
});

describe('uploaded file names', () => {
  it('are stored without invisible formatting: the list and the download show what the name is', async () => {
    const up = await upload(client, [{ name: '\u202efdp.exe\u200b.sdf', data: 'x\n  RDKit\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n$$$$\n' }]);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const { name, docId } = up.body.data.name_id[0]!;
    expect(name).toBe('fdp.exe.sdf');
    const res = await fetch(`${server.url}${KB}/download/${docId}`, { headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') } });
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="fdp.exe.sdf"; filename*=UTF-8''fdp.exe.sdf`);
  });

  it('a title stored before the rule loses its invisible characters in the download header', () => {
    expect(contentDisposition('\u202efdp.exe')).toBe(`attachment; filename="fdp.exe"; filename*=UTF-8''fdp.exe`);
  });
});

describe('user names', () => {
  for (const name of SPOOFS) {
    it(`refuses ${JSON.stringify(name)} at sign-up, and no account is made`, async () => {
      const email = uniqueEmail('spoof');
      const res = await server.client().post('/api/v1/auth/sign-up', { email, password: 'passw0rd-ok', name });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, message: '姓名包含非法字符', field: 'name' });
      const db = server.sqlite();
      expect(db.prepare('select count(*) as n from users where email = ?').get(email)).toEqual({ n: 0 });
      db.close();
    });
  }
});
