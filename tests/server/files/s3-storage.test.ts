import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PART_BYTES, s3FileStore } from '../../../src/server/files/s3-file-store';
import { loadConfig } from '../../../src/server/config';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { aspirinSdf, KB, makePdf, tinyPng, upload, waitParsed } from '../knowledge-helpers';
import { S3_BUCKET, startS3 } from '../s3-server';

let s3: Awaited<ReturnType<typeof startS3>>;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.stop();
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const keyOf = (b: Buffer) => `files/${sha(b).slice(0, 2)}/${sha(b)}`;

/** Waits until the bucket's keys under `prefix` settle to `want` (the server finishes a failed upload asynchronously). */
async function keysSettle(prefix: string, want: string[], ms = 5000) {
  const until = Date.now() + ms;
  for (;;) {
    const keys = await s3.keys(prefix);
    if (JSON.stringify(keys) === JSON.stringify(want) || Date.now() > until) return keys;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('settings', () => {
  it('CSAI_STORAGE=s3 needs a bucket, and keys come in pairs', () => {
    expect(() => loadConfig({ CSAI_STORAGE: 's3' })).toThrowError(/S3_BUCKET: required/);
    expect(() => loadConfig({ CSAI_STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrowError(/S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ CSAI_STORAGE: 'ftp' })).toThrowError(/CSAI_STORAGE/);
    expect(loadConfig({}).CSAI_STORAGE).toBe('disk');
  });
});

describe('uploaded files in an S3 bucket (CSAI_STORAGE=s3)', () => {
  let server: TestServer;
  let alice: Client;
  beforeAll(async () => {
    server = await startServer(s3.env);
    alice = (await signedInUser(server)).client;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an upload lands in the bucket under its SHA-256, parses from there, downloads byte for byte and goes with its document', async () => {
    const pdf = makePdf([['S3 storage test page', 'aspirin 阿司匹林']]);
    const sdf = Buffer.from(aspirinSdf);
    const res = await upload(alice, [
      { name: 'paper.pdf', data: pdf, type: 'application/pdf' },
      { name: 'aspirin.sdf', data: sdf },
      { name: 'pixel.png', data: tinyPng, type: 'image/png' },
    ]);
    expect(res.status).toBe(200);
    const [pdfId, sdfId, pngId] = res.body.data.name_id.map((n) => n.docId);
    expect(await s3.keys()).toEqual([keyOf(pdf), keyOf(sdf), keyOf(tinyPng)].sort());
    // Nothing under the data folder: the bucket is the one place files live.
    const local = path.join(server.dataDir, 'files');
    expect(fs.existsSync(local) ? fs.readdirSync(local).filter((d) => d !== '.tmp') : []).toEqual([]);

    // Parse workers read a temp download of the object.
    expect((await waitParsed(alice, pdfId!)).parseStatus).toBe(2);
    expect((await waitParsed(alice, sdfId!)).parseStatus).toBe(2);
    await waitParsed(alice, pngId!);
    const md = await alice.get<{ markdown: string }>(`${KB}/doc_markdown/${pdfId}`);
    expect(md.body.data.markdown).toContain('S3 storage test page');
    // ...and leave no temp copy behind.
    expect(fs.readdirSync(path.join(server.dataDir, 's3-cache'))).toEqual([]);

    const download = await fetch(`${server.url}${KB}/download/${pdfId}`, { headers: { cookie: [...alice.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') } });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
    const img = await alice.get<{ img_base64: string }>(`${KB}/get_img/${pngId}`);
    expect(Buffer.from(img.body.data.img_base64, 'base64').equals(tinyPng)).toBe(true);

    expect((await alice.request('DELETE', `${KB}/${pdfId}`)).status).toBe(200);
    expect(await s3.keys()).toEqual([keyOf(sdf), keyOf(tinyPng)].sort());
    for (const id of [sdfId, pngId]) await alice.request('DELETE', `${KB}/${id}`);
    expect(await s3.keys()).toEqual([]);
  });

  it('a file refused after it arrived (content not what its name says) leaves no object', async () => {
    const res = await upload(alice, [{ name: 'fake.pdf', data: Buffer.alloc(4096, 7), type: 'application/pdf' }]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('仅支持PDF、JPEG、JPG、PNG、PDB和SDF文件格式');
    expect(await s3.keys()).toEqual([]);
  });

  it('an upload cut off half-way (20 MB of 150, several parts sent) leaves no object', async () => {
    if (!alice.csrf) await alice.get('/api/v1/');
    const boundary = `----csai${Date.now()}`;
    const req = http.request(`${server.url}${KB}/upload`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(150 * 1024 * 1024),
        cookie: [...alice.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '),
        'x-requested-with': 'XMLHttpRequest',
        'x-csrf-token': alice.csrf ?? '',
      },
    });
    req.on('error', () => undefined);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`);
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < 20; i++) {
      if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
    }
    // Let the server send a few parts before the client goes away.
    await new Promise((r) => setTimeout(r, 500));
    req.destroy();
    expect(await keysSettle('', [])).toEqual([]);
    const db = server.sqlite();
    try {
      expect(db.prepare('select count(*) as n from kb_documents').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});

describe('the S3 store itself', () => {
  it('streams 150 MB in parts without holding it, and the stored object is the same bytes', async () => {
    const store = s3FileStore(s3.settings, fs.mkdtempSync(path.join(server150Dir(), 's3-')));
    const size = 150 * 1024 * 1024;
    const block = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < block.length; i++) block[i] = (i * 31) & 255;
    const expected = createHash('sha256');
    let sent = 0;
    const source = new Readable({
      read() {
        if (sent >= size) return void this.push(null);
        expected.update(block);
        sent += block.length;
        this.push(block);
      },
    });
    // Growth above the lowest level seen so far: a collection of earlier tests' garbage during the
    // upload once kept every sample below the level measured before it (peak 0).
    const held = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    let low = held();
    let peak = 0;
    const sampler = setInterval(() => {
      const now = held();
      low = Math.min(low, now);
      peak = Math.max(peak, now - low);
    }, 20);
    try {
      const staged = await store.stage(source);
      expect(staged.size).toBe(size);
      expect(staged.sha256).toBe(expected.digest('hex'));
      const name = await store.commit(staged);
      const head = await s3.client.send(new HeadObjectCommand({ Bucket: S3_BUCKET, Key: `files/${name.slice(0, 2)}/${name}` }));
      expect(head.ContentLength).toBe(size);
      expect(await s3.keys('tmp/')).toEqual([]);
      // Some parts are in flight at once in the SDK and the local server, but nowhere near the file.
      expect(peak).toBeLessThan(size / 3);
      expect(peak).toBeGreaterThan(0);
      await store.remove(name);
    } finally {
      clearInterval(sampler);
      store.close();
    }
    expect(PART_BYTES).toBe(8 * 1024 * 1024);
  }, 120_000);

  it('sweep removes temp objects and files no document refers to, once they are old enough; referenced files stay', async () => {
    const store = s3FileStore(s3.settings, fs.mkdtempSync(path.join(server150Dir(), 's3-')));
    try {
      const kept = Buffer.from('referenced');
      const orphan = Buffer.from('orphan after a crash between commit and insert');
      for (const [key, body] of [
        [keyOf(kept), kept],
        [keyOf(orphan), orphan],
        ['tmp/1-crashed-upload', Buffer.from('half')],
      ] as const) {
        await s3.client.send(new PutObjectCommand({ Bucket: S3_BUCKET, Key: key, Body: body }));
      }
      const isReferenced = async (name: string) => name === sha(kept);
      // Young objects may belong to an upload under way on another node: left alone.
      expect(await store.sweep(isReferenced)).toBe(0);
      expect(await s3.keys()).toHaveLength(3);
      expect(await store.sweep(isReferenced, { olderThanMs: 0 })).toBe(2);
      expect(await s3.keys()).toEqual([keyOf(kept)]);
      await store.remove(sha(kept));
    } finally {
      store.close();
    }
  });
});

function server150Dir() {
  const dir = path.join(process.env.TMPDIR ?? '/tmp', 'csai-s3-store');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
