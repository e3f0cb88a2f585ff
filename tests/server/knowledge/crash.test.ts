import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Client, openSqlite, signUp, startServer } from '../helpers';
import { KB, upload, waitParsed } from '../knowledge-helpers';
import { killed, spawnServerProcess } from '../process-helpers';
import { until } from '../until';

const ROOT = path.resolve(__dirname, '../../..');
const docsDir = execFileSync(process.execPath, [path.join(ROOT, 'scripts/fetch-test-docs.mjs')], { encoding: 'utf8' }).trim();
async function signedIn(url: string) {
  const client = new Client(url);
  const { account, password } = await signUp(client);
  const res = await client.post('/api/v1/auth/sign-in', { account, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);
  return { client, account, password };
}

const tmpFiles = (dataDir: string) => {
  const dir = path.join(dataDir, 'files', '.tmp');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};
const storedFiles = (dataDir: string) =>
  fs.readdirSync(path.join(dataDir, 'files')).filter((d) => d !== '.tmp').flatMap((d) => fs.readdirSync(path.join(dataDir, 'files', d)));

describe('kill -9 in the middle of an upload', () => {
  it('leaves no file and no document after the restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-crash-'));
    const { child, url } = await spawnServerProcess(dataDir);
    const { client } = await signedIn(url);
    await client.get('/api/v1/');
    const boundary = '----csaicrash';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="half.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 0) controller.enqueue(new Uint8Array(head));
        // Trickle: 256 KiB at a time, never finishing by itself.
        await new Promise((r) => setTimeout(r, 5));
        controller.enqueue(new Uint8Array(256 * 1024).fill(0x20));
        sent += 256 * 1024;
      },
    });
    const pending = fetch(`${url}${KB}/upload`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '),
        'x-requested-with': 'XMLHttpRequest',
        'x-csrf-token': client.csrf ?? '',
      },
      body,
      duplex: 'half',
    } as RequestInit).catch((err: unknown) => err);
    // Wait until the server is writing the file, then kill it.
    await until(() => tmpFiles(dataDir).some((f) => fs.statSync(path.join(dataDir, 'files', '.tmp', f)).size > 1024 * 1024));
    expect(tmpFiles(dataDir).length).toBe(1);
    await killed(child);
    expect(await pending).toBeInstanceOf(Error);
    expect(tmpFiles(dataDir).length).toBe(1); // the partial file is there until the restart

    const server = await startServer({}, dataDir);
    try {
      expect(tmpFiles(dataDir)).toEqual([]);
      expect(storedFiles(dataDir)).toEqual([]);
      const db = openSqlite(dataDir);
      try {
        expect(db.prepare('select count(*) as n from kb_documents').get()).toEqual({ n: 0 });
      } finally {
        db.close();
      }
    } finally {
      await server.close();
    }
  });
});

describe('kill -9 in the middle of a parse', () => {
  // The test's own waits allow the retried parse 120 s (a loaded machine, a second vitest worker):
  // the default 60 s would cut them short.
  it('retries the interrupted parse after the restart, and fails one whose attempts are used up — none stays at 1', { timeout: 180_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-crash-'));
    const { child, url } = await spawnServerProcess(dataDir);
    const { client, account, password } = await signedIn(url);
    const up = await upload<{ name_id: Array<{ docId: string }> }>(client, [
      { name: 'zhnumber.pdf', data: fs.readFileSync(path.join(docsDir, 'zhnumber.pdf')) },
      { name: 'zhlipsum.pdf', data: fs.readFileSync(path.join(docsDir, 'zhlipsum.pdf')) },
    ]);
    expect(up.status).toBe(200);
    const [first, second] = up.body.data.name_id.map((n) => n.docId) as [string, string];
    // Wait until the first parse is under way (progress reported), then kill the server.
    for (let i = 0; i < 400; i++) {
      const d = await client.get<{ parseStatus: number; parse_progress: number }>(`${KB}/doc/${first}`);
      if (d.body.data.parse_progress > 1) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const mid = await client.get<{ parseStatus: number }>(`${KB}/doc/${first}`);
    expect(mid.body.data.parseStatus).toBe(1);
    await killed(child);

    // Pretend the second document's job had been interrupted too often already.
    const db = openSqlite(dataDir);
    try {
      const job = db.prepare(`select id from jobs where json_extract(payload, '$.docId') = ?`).get(second) as { id: number };
      db.prepare(`update jobs set state = 'running', attempts = max_attempts where id = ?`).run(job.id);
    } finally {
      db.close();
    }

    const server = await startServer({}, dataDir);
    try {
      const again = server.client();
      await again.post('/api/v1/auth/sign-in', { account, password });
      const a = await waitParsed(again, first, 120_000);
      expect(a.parseStatus).toBe(2);
      expect(a.progress_texts).toContain('第2次尝试解析');
      const b = await waitParsed(again, second, 10_000);
      expect(b.parseStatus).toBe(3);
      expect(b.progress_texts.at(-1)).toBe('解析多次中断，已停止');
      const check = openSqlite(dataDir);
      try {
        expect(check.prepare('select count(*) as n from kb_documents where parse_status = 1').get()).toEqual({ n: 0 });
        // The parsed document's molecule indexing (src/server/molecules) may still be on its way.
        expect(check.prepare(`select count(*) as n from jobs where state in ('queued', 'running') and kind != 'index_molecules'`).get()).toEqual({ n: 0 });
      } finally {
        check.close();
      }
    } finally {
      await server.close();
    }
  });
});
