import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from '../helpers';
import { aspirinSdf, jpegHead, KB, makePdf, openDb, tinyPng, upload, waitParsed } from '../knowledge-helpers';
import { until } from '../until';

type NameId = { name_id: Array<{ name: string; docId: string }> };
type Doc = { docId: string; title: string; type: number; parseStatus: number; folder_id: string; size: number; page_count: number | null; progress_texts: string[] };
type Folder = { id: string; name: string; isShared: boolean; is_public: boolean; doc_count: number };
type Page<T> = { items: T[]; total: number; page: number; size: number };

let server: TestServer;
let owner: Awaited<ReturnType<typeof signedInUser>>;
const pdf = makePdf([
  ['Aspirin dosage study', 'Acetylsalicylic acid reduces fever and pain in adults.', 'It was first made by Bayer in 1897 and is widely used.'],
  ['Second page heading', 'More text on page two about the trial design and dosing.'],
]);

/** Every stored file and temp file under the data folder. */
const storedFiles = () => {
  const root = path.join(server.dataDir, 'files');
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name));
      else out.push(path.relative(root, path.join(dir, e.name)));
    }
  };
  walk(root);
  return out;
};
const docCount = () => {
  const db = openDb(server);
  try {
    return (db.prepare('select count(*) as n from kb_documents').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  server = await startServer();
  owner = await signedInUser(server, { name: '王化学' });
});
afterAll(async () => {
  await server.close();
});

describe('uploading into the question-files folder', () => {
  it('returns name_id, stores the file under its content hash and parses it', async () => {
    const res = await upload<NameId>(owner.client, [{ name: '阿司匹林研究.pdf', data: pdf, type: 'application/pdf' }]);
    expect(res.status).toBe(200);
    expect(res.body.data.name_id).toEqual([{ name: '阿司匹林研究.pdf', docId: expect.any(String) }]);
    const docId = res.body.data.name_id[0]!.docId;
    const done = await waitParsed(owner.client, docId);
    expect(done.parseStatus).toBe(2);
    expect(done.progress_texts.at(-1)).toBe('解析完成');
    const doc = await owner.client.get<Doc>(`${KB}/doc/${docId}`);
    expect(doc.body.data).toMatchObject({ title: '阿司匹林研究.pdf', type: 1, folder_id: 'folder_for_question_channel', size: pdf.length, page_count: 2 });
    const md = await owner.client.get<{ markdown: string }>(`${KB}/doc_markdown/${docId}`);
    expect(md.body.data.markdown).toContain('# Aspirin dosage study');
    expect(md.body.data.markdown).toContain('Acetylsalicylic acid reduces fever and pain in adults.');
    expect(md.body.data.markdown).toContain('<!-- page 2 -->');
    expect(storedFiles().some((f) => f.endsWith(createHash('sha256').update(pdf).digest('hex')))).toBe(true);
    expect(storedFiles().some((f) => f.includes('阿司匹林'))).toBe(false);
  });

  it('lists question files in all_docs, and knowledge-base documents only with show_my_kb', async () => {
    const folder = await owner.client.post<Folder>(`${KB}/folder`, { name: '只在知识库' });
    const up = await upload<NameId>(owner.client, [{ name: 'kb-only.pdf', data: makePdf([['KB only']]) }], folder.body.data.id);
    const id = up.body.data.name_id[0]!.docId;
    const plain = await owner.client.get<Page<Doc>>(`${KB}/all_docs?page=1&size=100`);
    expect(plain.body.data.items.map((d) => d.docId)).not.toContain(id);
    const withKb = await owner.client.get<Page<Doc>>(`${KB}/all_docs?page=1&size=100&show_my_kb=1`);
    expect(withKb.body.data.items.map((d) => d.docId)).toContain(id);
    const search = await owner.client.get<Page<Doc>>(`${KB}/all_docs?page=1&size=100&show_my_kb=true&search=KB-ONLY`);
    expect(search.body.data.items.map((d) => d.title)).toEqual(['kb-only.pdf']);
    const bad = await owner.client.get(`${KB}/all_docs?show_my_kb=maybe`);
    expect(bad.status).toBe(400);
  });

  it('downloads the original bytes as an attachment with the original name', async () => {
    const up = await upload<NameId>(owner.client, [{ name: 'report 2024 (final).pdf', data: pdf }]);
    const docId = up.body.data.name_id[0]!.docId;
    const res = await fetch(`${server.url}${KB}/download/${docId}`, { headers: { cookie: [...owner.client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const cd = res.headers.get('content-disposition') ?? '';
    expect(cd).toMatch(/^attachment; filename="report 2024 _final_.pdf"|^attachment; filename="report 2024 \(final\).pdf"/);
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(cd)![1]!)).toBe('report 2024 (final).pdf');
  });
});

describe('upload limits and content checks (SPEC §5)', () => {
  it('refuses a seventh file with the SPEC message and keeps nothing', async () => {
    const before = docCount();
    const files = Array.from({ length: 7 }, (_, i) => ({ name: `f${i}.pdf`, data: makePdf([[`file ${i}`]]) }));
    const res = await upload(owner.client, files);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('多文档问答的上限是6篇，如需处理更多文档，请创建知识库后再提问');
    expect(docCount()).toBe(before);
    expect(storedFiles().filter((f) => f.startsWith('.tmp'))).toEqual([]);
  });

  it('accepts exactly six files', async () => {
    const files = Array.from({ length: 6 }, (_, i) => ({ name: `six-${i}.pdf`, data: makePdf([[`six ${i}`]]) }));
    const res = await upload<NameId>(owner.client, files);
    expect(res.status).toBe(200);
    expect(res.body.data.name_id).toHaveLength(6);
  });

  it.each([
    ['notes.txt', Buffer.from('hello')],
    ['script.exe', Buffer.from('MZ....')],
    ['noextension', pdf],
    ['fake.pdf', tinyPng],
    ['fake.png', pdf],
    ['fake.jpg', Buffer.from('<html><script>alert(1)</script></html>')],
    ['fake.sdf', Buffer.from('just some text\nwith lines\n')],
    ['fake.pdb', Buffer.from('%PDF-1.4 pretending to be a PDB')],
    ['html.pdf', Buffer.from('<!doctype html><p>%PDF</p>'.padEnd(2000, ' ') + '%PDF-1.4')],
  ])('refuses %s by name or content', async (name, data) => {
    const before = docCount();
    const res = await upload(owner.client, [{ name, data }]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('仅支持PDF、JPEG、JPG、PNG、PDB和SDF文件格式');
    expect(docCount()).toBe(before);
  });

  it('refuses the whole batch when one file is bad', async () => {
    const before = docCount();
    const res = await upload(owner.client, [{ name: 'good.pdf', data: pdf }, { name: 'bad.pdf', data: Buffer.from('nope') }]);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('bad.pdf');
    expect(docCount()).toBe(before);
    expect(storedFiles().filter((f) => f.startsWith('.tmp'))).toEqual([]);
  });

  it('refuses an empty upload and a non-multipart body', async () => {
    const empty = await upload(owner.client, []);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('请选择要上传的文件');
    const json = await owner.client.post(`${KB}/upload`, { files: [] });
    expect(json.status).toBe(400);
    expect(json.body.message).toContain('multipart');
  });

  it('refuses a file over 150 MB with the SPEC message and leaves no temp file', async () => {
    const big = Buffer.alloc(150 * 1024 * 1024 + 1, 0x20);
    big.write('%PDF-1.4\n');
    const before = docCount();
    const res = await upload(owner.client, [{ name: 'huge.pdf', data: big }]);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('文件大小不能超过150MB');
    expect(docCount()).toBe(before);
    expect(storedFiles().filter((f) => f.startsWith('.tmp'))).toEqual([]);
  });

  it('accepts PNG, JPEG, SDF and PDB by content', async () => {
    const pdb = 'HEADER    HYDROLASE                               01-JAN-00   1ABC              \nATOM      1  N   ALA A   1      11.104   6.134  -6.504  1.00  0.00           N  \nEND\n';
    const res = await upload<NameId>(owner.client, [
      { name: 'pic.png', data: tinyPng },
      { name: 'photo.JPG', data: jpegHead },
      { name: 'mols.sdf', data: aspirinSdf },
      { name: 'prot.pdb', data: pdb },
    ]);
    expect(res.status).toBe(200);
    const types = await Promise.all(res.body.data.name_id.map(async (n) => (await owner.client.get<Doc>(`${KB}/doc/${n.docId}`)).body.data.type));
    expect(types).toEqual([3, 3, 5, 6]);
  });
});

describe('duplicate names', () => {
  it('refuses a document name already in the folder, and renames images _1, _2', async () => {
    const folder = await owner.client.post<Folder>(`${KB}/folder`, { name: '重名测试' });
    const id = folder.body.data.id;
    expect((await upload(owner.client, [{ name: 'paper.pdf', data: pdf }], id)).status).toBe(200);
    const again = await upload(owner.client, [{ name: 'paper.pdf', data: pdf }], id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('文件名重复，请重新上传');
    const sameBatch = await upload(owner.client, [{ name: 'x.pdf', data: pdf }, { name: 'x.pdf', data: pdf }], id);
    expect(sameBatch.status).toBe(409);
    const imgs = await upload<NameId>(owner.client, [{ name: 'gel.png', data: tinyPng }, { name: 'gel.png', data: tinyPng }], id);
    const more = await upload<NameId>(owner.client, [{ name: 'gel.png', data: tinyPng }], id);
    expect([...imgs.body.data.name_id, ...more.body.data.name_id].map((n) => n.name)).toEqual(['gel.png', 'gel_1.png', 'gel_2.png']);
  });
});

describe('odd file names', () => {
  const names = [
    '../../../etc/passwd.pdf',
    '..\\..\\windows\\system32.pdf',
    `${'长'.repeat(296)}.pdf`,
    'invoice\u202Efdp.exe.pdf',
    '🧪 实验记录 😀.pdf',
    "quote'semi;colon%20.pdf",
  ];
  it.each(names)('stores %j safely and downloads it with the original name (bidi controls removed)', async (typed) => {
    // Invisible formatting is stripped, so the name shows what it is.
    const name = typed.replace(/\u202e/gi, '');
    const res = await upload<NameId>(owner.client, [{ name: typed, data: pdf }]);
    expect(res.status).toBe(200);
    expect(res.body.data.name_id[0]!.name).toBe(name);
    const docId = res.body.data.name_id[0]!.docId;
    const dl = await fetch(`${server.url}${KB}/download/${docId}`, { headers: { cookie: [...owner.client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') } });
    expect(dl.status).toBe(200);
    const cd = dl.headers.get('content-disposition')!;
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(cd)![1]!)).toBe(name);
    // The ASCII fallback holds no path separators, quotes or bidi controls.
    const fallback = /filename="([^"]*)"/.exec(cd)![1]!;
    expect(fallback).not.toMatch(/[/\\"\u202e]/);
    // Nothing on disk carries the user's name.
    expect(storedFiles().every((f) => /^[0-9a-f]{2}\/[0-9a-f]{64}$/.test(f))).toBe(true);
    expect(fs.existsSync(path.join(server.dataDir, 'etc'))).toBe(false);
  });

  it('drops a NUL from the name instead of storing it', async () => {
    const res = await upload<NameId>(owner.client, [{ name: 'a\u0000b.pdf', data: pdf }]);
    expect(res.status).toBe(200);
    expect(res.body.data.name_id[0]!.name).toBe('ab.pdf');
  });
});

describe('an upload the client abandons half-way', () => {
  it('leaves no temp file and no document', async () => {
    await owner.client.get('/api/v1/');
    const before = docCount();
    const boundary = '----csaiabort';
    const controller = new AbortController();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (sent === 0) c.enqueue(new Uint8Array(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="gone.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`)));
        await new Promise((r) => setTimeout(r, 5));
        c.enqueue(new Uint8Array(128 * 1024).fill(0x20));
        sent += 128 * 1024;
      },
    });
    const pending = fetch(`${server.url}${KB}/upload`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: [...owner.client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '),
        'x-requested-with': 'XMLHttpRequest',
        'x-csrf-token': owner.client.csrf ?? '',
      },
      body,
      duplex: 'half',
      signal: controller.signal,
    } as RequestInit).catch((err: unknown) => err);
    const tmp = () => storedFiles().filter((f) => f.startsWith('.tmp'));
    await until(() => tmp().length > 0);
    expect(tmp()).toHaveLength(1);
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await until(() => tmp().length === 0);
    expect(tmp()).toEqual([]);
    expect(docCount()).toBe(before);
  });
});

describe('while a long PDF parses in a worker thread', () => {
  it('the server keeps answering other calls, and progress moves', async () => {
    const docsDir = (await import('node:child_process')).execFileSync(process.execPath, [path.resolve(__dirname, '../../../scripts/fetch-test-docs.mjs')], { encoding: 'utf8' }).trim();
    const up = await upload<NameId>(owner.client, [{ name: 'lshort.pdf', data: fs.readFileSync(path.join(docsDir, 'lshort-zh-cn.pdf')) }]);
    const id = up.body.data.name_id[0]!.docId;
    const seen = new Set<number>();
    let answered = 0;
    for (;;) {
      const [doc, ping] = await Promise.all([owner.client.get<Doc & { parse_progress: number }>(`${KB}/doc/${id}`), owner.client.get('/api/v1/')]);
      expect(ping.status).toBe(200);
      answered++;
      if (doc.body.data.parseStatus !== 1) break;
      seen.add(doc.body.data.parse_progress);
      await new Promise((r) => setTimeout(r, 50));
    }
    const done = (await owner.client.get<Doc>(`${KB}/doc/${id}`)).body.data;
    expect(done).toMatchObject({ parseStatus: 2, page_count: 139 });
    // The book's blank pages have no text layer but no image either: nothing is sent to OCR.
    expect(done.progress_texts.some((t) => t.includes('OCR'))).toBe(false);
    // Answered all along, with several intermediate percentages between 0 and 100.
    expect(answered).toBeGreaterThan(3);
    expect([...seen].filter((p) => p > 1 && p < 100).length).toBeGreaterThan(2);
  }, 240_000); // a 139-page book: about 20 s alone, several times that on a busy machine
});
