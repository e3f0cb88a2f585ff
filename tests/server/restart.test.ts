import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exited, spawnServerProcess } from './process-helpers';
import { Client, latestMessage, openSqlite, signUp, startServer, uniqueEmail, uniqueIp } from './helpers';
import { suiteOnPostgres } from './postgres-harness';

describe('restart', () => {
  it('users, sessions and CSRF tokens survive closing the app and starting a new one on the same data', async () => {
    const first = await startServer();
    const client = first.client();
    const { account } = await signUp(client, { name: '持久用户' });
    expect((await client.post('/api/v1/auth/sign-in', { account, password: 'passw0rd-ok' })).status).toBe(200);
    await first.close();

    const second = await startServer({}, first.dataDir);
    try {
      const again = client.at(second.url);
      const me = await again.get<{ email: string; name: string }>('/api/v1/auth/me');
      expect(me.status).toBe(200);
      expect(me.body.data).toMatchObject({ email: account, name: '持久用户' });
      // The CSRF secret lives in the data folder, so the old token still passes.
      expect((await again.post('/api/v1/auth/sign-out')).status).toBe(200);
      expect((await second.client().post('/api/v1/auth/sign-in', { account, password: 'passw0rd-ok' })).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('at start, sessions expired over a day ago and old codes are purged; recently expired ones still say so', async () => {
    const first = await startServer();
    const stale = first.client();
    const { account } = await signUp(stale);
    await stale.post('/api/v1/auth/sign-in', { account, password: 'passw0rd-ok' });
    const recent = first.client();
    await recent.post('/api/v1/auth/sign-in', { account, password: 'passw0rd-ok' });
    await first.close();

    const db = openSqlite(first.dataDir);
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    const idHash = (client: Client) => createHash('sha256').update(client.cookies.get('csai_session')!).digest('base64url');
    expect(db.prepare('select count(*) as n from sessions').get()).toEqual({ n: 2 });
    expect(db.prepare('update sessions set expires_at = ? where id_hash = ?').run(ago(2 * 86_400_000), idHash(stale)).changes).toBe(1);
    expect(db.prepare('update sessions set expires_at = ? where id_hash = ?').run(ago(3_600_000), idHash(recent)).changes).toBe(1);
    const userId = (db.prepare('select id from users where email = ?').get(account) as { id: string }).id;
    db.prepare('insert into otp_codes (user_id, code_hash, created_at, expires_at, used_at, attempts) values (?, ?, ?, ?, null, 0)').run(userId, 'x', ago(3 * 86_400_000), ago(3 * 86_400_000));

    const second = await startServer({}, first.dataDir);
    try {
      expect((db.prepare('select count(*) as n from sessions').get() as { n: number }).n).toBe(1);
      expect((db.prepare('select count(*) as n from otp_codes').get() as { n: number }).n).toBe(0);
      const again = new Client(second.url);
      again.cookies.set('csai_session', recent.cookies.get('csai_session')!);
      expect((await again.get('/api/v1/auth/me')).body.message).toBe('Signature has expired');
      again.cookies.set('csai_session', stale.cookies.get('csai_session')!);
      expect((await again.get('/api/v1/auth/me')).body.message).toBe('Signature verification failed');
    } finally {
      db.close();
      await second.close();
    }
  });
});

describe('kill -9 during sign-up', () => {
  it('leaves every account whole: each user has its activation token and its message', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-crash-'));
    const { child, url } = await spawnServerProcess(dataDir);
    const csrfClient = new Client(url);
    await csrfClient.get('/api/v1/');
    const xsrf = csrfClient.csrf!;

    const total = 60;
    const acked: string[] = [];
    let unanswered = 0;
    let killed = false;
    const emails = Array.from({ length: total }, () => uniqueEmail('crash'));
    await Promise.all(
      emails.map(async (email) => {
        try {
          const res = await fetch(`${url}/api/v1/auth/sign-up`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              cookie: `XSRF-TOKEN=${encodeURIComponent(xsrf)}`,
              'x-csrf-token': xsrf,
              'x-requested-with': 'XMLHttpRequest',
              'x-forwarded-for': uniqueIp(),
            },
            body: JSON.stringify({ email, password: 'passw0rd-ok', name: '断电测试' }),
          });
          await res.text();
          if (res.status === 200 && !killed) acked.push(email);
          // Kill mid-flight: a few sign-ups are done, the rest are hashing or writing.
          if (acked.length >= 5 && !killed) {
            killed = true;
            child.kill('SIGKILL');
          }
        } catch {
          unanswered++;
        }
      }),
    );
    expect(killed).toBe(true);
    expect((await exited(child)).signal).toBe('SIGKILL');
    expect(unanswered).toBeGreaterThan(0);

    // Start again on the same folder (recovers the WAL), then look at the file itself.
    const restarted = await startServer({}, dataDir);
    const db = openSqlite(dataDir);
    try {
      const users = db.prepare("select id, email from users where email like 'crash%'").all() as { id: string; email: string }[];
      for (const email of acked) expect(users.map((u) => u.email)).toContain(email);
      for (const user of users) {
        const tokens = db.prepare("select count(*) as n from auth_tokens where user_id = ? and purpose = 'activate'").get(user.id) as { n: number };
        const mails = db.prepare("select count(*) as n from outbox where recipient = ? and kind = 'activate'").get(user.email) as { n: number };
        expect({ email: user.email, tokens: tokens.n, mails: mails.n }).toEqual({ email: user.email, tokens: 1, mails: 1 });
      }
      // No message or token without its account either.
      const orphanMails = db.prepare("select count(*) as n from outbox where kind = 'activate' and recipient like 'crash%' and recipient not in (select email from users where email is not null)").get() as { n: number };
      const orphanTokens = db.prepare('select count(*) as n from auth_tokens where user_id not in (select id from users)').get() as { n: number };
      expect(orphanMails.n).toBe(0);
      expect(orphanTokens.n).toBe(0);
      // SQLite's own check of its file (PostgreSQL has no such file to check).
      if (!suiteOnPostgres()) expect(db.pragma('integrity_check', { simple: true })).toBe('ok');

      // And the restarted server carries on: an acknowledged account activates and signs in.
      const client = restarted.client();
      const { token } = await latestMessage(client, acked[0]!);
      expect((await client.post('/api/v1/auth/activate', { token })).status).toBe(200);
      expect((await client.post('/api/v1/auth/sign-in', { account: acked[0], password: 'passw0rd-ok' })).status).toBe(200);
    } finally {
      db.close();
      await restarted.close();
    }
  });

  it('SIGTERM shuts the server down cleanly (exit code 0)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-term-'));
    const { child } = await spawnServerProcess(dataDir);
    child.kill('SIGTERM');
    expect(await exited(child)).toEqual({ code: 0, signal: null });
  });
});
