import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { until } from '../answering-helpers';
import { KB } from '../knowledge-helpers';

let server: TestServer;
let client: Client;
beforeAll(async () => {
  server = await startServer();
  ({ client } = await signedInUser(server));
  await client.get('/api/v1/');
});
afterAll(() => server.close());

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request over `agent` with a raw body (string or bytes), read whole. */
function raw(agent: http.Agent, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<Raw> {
  const url = new URL(server.url + path);
  return new Promise((resolve, reject) => {
    const req = http.request({ agent, host: url.hostname, port: url.port, method, path, headers: { ...authHeaders(), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // The server may answer (and close) before the body is all sent: that is the point of some tests.
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer to ${method} ${path} within 20 s`)));
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const authHeaders = () => ({
  cookie: [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '),
  'x-requested-with': 'XMLHttpRequest',
  'x-csrf-token': client.csrf ?? '',
  'x-forwarded-for': client.ip,
});

/** A multipart body with `count` PDF-named parts of `size` bytes each. */
function multipart(boundary: string, parts: Array<{ name: string; size: number }>): Buffer {
  const pieces: Buffer[] = [];
  for (const p of parts) {
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${p.name}"\r\nContent-Type: application/pdf\r\n\r\n`));
    pieces.push(Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(Math.max(0, p.size - 9), 0x20)]));
    pieces.push(Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

describe('an upload refused early (issue 16 #1)', () => {
  it('answers with the SPEC message and the same connection serves the next request', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const boundary = 'csaiboundary';
      const body = multipart(boundary, Array.from({ length: 7 }, (_, i) => ({ name: `p${i}.pdf`, size: 256 * 1024 })));
      const refused = await raw(agent, 'POST', `${KB}/upload`, { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) }, body);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body).message).toBe('多文档问答的上限是6篇，如需处理更多文档，请创建知识库后再提问');
      const next = await raw(agent, 'GET', '/api/v1/', {});
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('an unsupported first part followed by more data does not stall the connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const boundary = 'csaiboundary2';
      const body = multipart(boundary, [{ name: 'evil.exe', size: 1024 }, { name: 'a.pdf', size: 512 * 1024 }]);
      const refused = await raw(agent, 'POST', `${KB}/upload`, { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) }, body);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body).message).toBe('仅支持PDF、JPEG、JPG、PNG、PDB和SDF文件格式');
      expect((await raw(agent, 'GET', '/api/v1/', {})).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe('malformed multipart (issue 16 #3)', () => {
  const agent = new http.Agent({ keepAlive: false });
  const cases: Array<[string, Record<string, string>, Buffer | string]> = [
    ['no boundary', { 'content-type': 'multipart/form-data' }, '--x\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\n\r\n%PDF-1.4\r\n--x--\r\n'],
    ['a truncated body', { 'content-type': 'multipart/form-data; boundary=trunc' }, '--trunc\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 half a fi'],
    ['a 200-character boundary', { 'content-type': `multipart/form-data; boundary=${'b'.repeat(200)}` }, multipart('b'.repeat(200), [{ name: 'a.pdf', size: 100 }])],
    ['a broken part header', { 'content-type': 'multipart/form-data; boundary=hdr' }, '--hdr\r\nContent-Disposition form-data name files\r\n\r\nxx\r\n--hdr--\r\n'],
  ];
  // Parts the multipart parser skips: past 16 KB it never finishes (@fastify/busboy 3.2.6), and the
  // upload hung until the client gave up. Sent at once, each is answered within the stall limit.
  it('a skipped part over 16 KB (a line break in the file name, no Content-Disposition, an attachment): 400, not a hang', async () => {
    const skipped = (boundary: string, header: string, size: number) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\n${header}\r\n\r\n`), Buffer.alloc(size, 0x41), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const bodies = [
      skipped('nl', 'Content-Disposition: form-data; name="files"; filename="a\nb.sdf"', 20 * 1024),
      skipped('cr', 'Content-Disposition: form-data; name="files"; filename="a\rb.pdf"', 300 * 1024),
      skipped('nocd', 'Content-Type: application/pdf', 2 * 1024 * 1024),
      skipped('att', 'Content-Disposition: attachment; filename="a.pdf"', 64 * 1024),
    ];
    const db = server.sqlite();
    const count = () => (db.prepare('select count(*) as n from kb_documents').get() as { n: number }).n;
    const n = count();
    const answers = await Promise.all(
      bodies.map((body, i) => raw(agent, 'POST', `${KB}/upload`, { 'content-type': `multipart/form-data; boundary=${['nl', 'cr', 'nocd', 'att'][i]}`, 'content-length': String(body.length) }, body)),
    );
    // A part the parser skipped in time leaves no file; one it stalled on is a malformed upload.
    const said = { malformed_multipart: '上传内容格式不正确或不完整，请重新上传', no_files: '请选择要上传的文件' };
    for (const res of answers) {
      expect(res.status, res.body).toBe(400);
      const body = JSON.parse(res.body) as { success: boolean; code: keyof typeof said; message: string };
      expect(body.success).toBe(false);
      expect(body.message).toBe(said[body.code]);
    }
    expect(answers.some((res) => res.body.includes('malformed_multipart'))).toBe(true);
    expect(count()).toBe(n);
    db.close();
    expect((await client.get('/api/v1/')).status).toBe(200);
  }, 40_000);

  for (const [what, headers, body] of cases) {
    it(`${what}: 400 with a message, nothing stored`, async () => {
      const before = server.sqlite();
      const count = () => (before.prepare('select count(*) as n from kb_documents').get() as { n: number }).n;
      const n = count();
      const res = await raw(agent, 'POST', `${KB}/upload`, headers, body);
      expect(res.status, res.body).toBe(400);
      const parsed = JSON.parse(res.body) as { success: boolean; message: string };
      expect(parsed.success).toBe(false);
      expect(parsed.message).toMatch(/\p{Script=Han}/u);
      expect(count()).toBe(n);
      before.close();
    });
  }
});

describe('a client that leaves mid-upload', () => {
  it('is not logged as a server failure, and the server goes on', async () => {
    const lines: string[] = [];
    const logged = await startServer({}, undefined, { logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } });
    try {
      const { client: uploader } = await signedInUser(logged);
      const url = new URL(`${logged.url}${KB}/upload`);
      const boundary = 'leaving';
      await new Promise<void>((resolve) => {
        const req = http.request({
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: url.pathname,
          headers: {
            cookie: [...uploader.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '),
            'x-requested-with': 'XMLHttpRequest',
            'x-csrf-token': uploader.csrf ?? '',
            'x-forwarded-for': uploader.ip,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(10 * 1024 * 1024),
          },
        });
        req.on('error', () => resolve());
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`);
        req.write(Buffer.alloc(200 * 1024, 0x20), () => setTimeout(() => (req.destroy(), resolve()), 200));
      });
      // The server noticed (the request ended) and logged it, below error level.
      await until(async () => lines.some((l) => l.includes('client left before the request was read')), (seen) => seen);
      const levels = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
      expect(levels.filter((l) => l.level >= 50)).toEqual([]);
      expect((await uploader.get('/api/v1/')).status).toBe(200);
    } finally {
      await logged.close();
    }
  }, 30_000);
});
