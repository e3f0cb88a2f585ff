import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { KB, makePdf, upload } from '../knowledge-helpers';
import { suiteOnPostgres, testDatabaseUrl } from '../postgres-harness';

// `npm run backup` copies a running server's data consistently; `npm run restore`
// puts it back; every record and file acknowledged before the backup is there afterwards. On
// PostgreSQL (CSAI_TEST_DB=postgres / server-postgres) the CLI gets the data folder's database as
// DATABASE_URL, as the server does, and backs it up with pg_dump.
const ROOT = path.resolve(__dirname, '../../..');
const run = promisify(execFile);
const cli = async (args: string[], dataDir: string) => {
  const databaseUrl = await testDatabaseUrl(dataDir);
  return run(process.execPath, ['--import', 'tsx', 'src/server/cli/backup.ts', ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, CSAI_DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) } });
};

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

describe('backup under write load, then restore into a fresh data folder', () => {
  it('finds every acknowledged record and file', async () => {
    const server = await startServer();
    servers.push(server);
    const { client, email, password } = await signedInUser(server);
    const files = new Map<string, Buffer>();
    for (let i = 0; i < 3; i++) {
      const data = makePdf([[`Document ${i} about kinase inhibitor ${i}`]]);
      const up = await upload(client, [{ name: `doc${i}.pdf`, data, type: 'application/pdf' }]);
      expect(up.status).toBe(200);
      files.set(up.body.data.name_id[0]!.docId, data);
    }
    const channels: string[] = [];
    const createChannel = async (c: Client, n: number) => {
      const res = await c.post<{ id: string }>('/api/v1/channel', { name: `会话 ${n}` });
      expect(res.status).toBe(200);
      return res.body.data.id;
    };
    for (let i = 0; i < 20; i++) channels.push(await createChannel(client, i));

    // Writes keep coming while the backup runs.
    let writing = true;
    const load = (async () => {
      for (let n = 100; writing; n++) await createChannel(client, n);
    })();
    const backupsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-backups-'));
    const out = await cli(['backup', '--to', backupsDir], server.dataDir);
    writing = false;
    await load;
    expect(out.stdout).toMatch(/backup written: .*csai-backup-/);
    const [dir] = fs.readdirSync(backupsDir);
    expect(dir).toMatch(/^csai-backup-[^.]+$/); // complete (no .partial left)

    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-restored-'));
    const restored = await cli(['restore', path.join(backupsDir, dir!)], fresh);
    expect(restored.stdout).toMatch(/restored into/);
    const second = await startServer({}, fresh);
    servers.push(second);
    const again = second.client();
    expect((await again.post('/api/v1/auth/sign-in', { account: email, password })).status).toBe(200);
    const ids = new Set<string>();
    for (let page = 1; ; page++) {
      const list = await again.get<{ items: Array<{ id: string }>; total: number }>(`/api/v1/channel?page=${page}&size=100`);
      for (const c of list.body.data.items) ids.add(c.id);
      if (list.body.data.items.length < 100) break;
    }
    for (const id of channels) expect(ids.has(id), id).toBe(true);
    for (const [docId, data] of files) {
      const res = await fetch(`${second.url}${KB}/download/${docId}`, { headers: { cookie: [...again.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') } });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
    }
  });

  it('refuses to restore over a data folder that holds a database, unless --force moves it aside', async () => {
    const server = await startServer();
    servers.push(server);
    await signedInUser(server);
    const backupsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-backups-'));
    await cli(['backup', '--to', backupsDir], server.dataDir);
    const dir = path.join(backupsDir, fs.readdirSync(backupsDir)[0]!);
    const target = await startServer();
    await target.close();
    if (suiteOnPostgres()) {
      // A backup of PostgreSQL cannot go into a SQLite data folder: said, nothing written.
      const noUrl = run(process.execPath, ['--import', 'tsx', 'src/server/cli/backup.ts', 'restore', dir], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, CSAI_DATA_DIR: target.dataDir } });
      await expect(noUrl).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('set DATABASE_URL') });
      expect(fs.existsSync(path.join(target.dataDir, 'csai.sqlite'))).toBe(false);
    }
    await expect(cli(['restore', dir], target.dataDir)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('already holds a database') });
    await cli(['restore', dir, '--force'], target.dataDir);
    expect(fs.readdirSync(path.dirname(target.dataDir)).some((d) => d.startsWith(`${path.basename(target.dataDir)}.before-restore-`))).toBe(true);
  });

  it('refuses what is not a backup, with a message', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-not-backup-'));
    await expect(cli(['restore', empty], fs.mkdtempSync(path.join(os.tmpdir(), 'csai-t-')))).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('not a CSAI backup') });
    await expect(cli(['frobnicate'], empty)).rejects.toMatchObject({ code: 2 });
  });
});
