import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/server/db/database';
import { answerEventStore, answerEventWriter, memoryEventBus } from '../../src/server/answering/events';

// The group-commit writer on its own: what it publishes is already stored, numbered per question
// without gaps, and a question deleted meanwhile does not lose the other answers' events.
let dir: string;
let db: Db;
const t = new Date().toISOString();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-writer-'));
  db = await openDatabase(dir);
  await db.insertInto('users').values({ id: 'u1', email: 'writer@example.com', phone: null, name: '甲', password_hash: 'x', department_id: null, is_admin: 0, status: 'active', created_at: t, activated_at: t }).execute();
  await db.insertInto('channels').values({ id: 'c1', user_id: 'u1', name: '频道', created_at: t, updated_at: t }).execute();
});
afterAll(async () => {
  await db?.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const question = (id: string) =>
  db.insertInto('questions').values({
      id,
      channel_id: 'c1',
      user_id: 'u1',
      question: '问题',
      request: '{}',
      engine: 'openai',
      status: 'running',
      answer: null,
      thinking: null,
      steps: null,
      citations: null,
      error: null,
      effect: null,
      effect_comment: null,
      created_at: t,
      started_at: t,
      finished_at: null,
    }).execute();

describe('the answer event writer', () => {
  it('publishes only events already stored, numbered per question in the order handed in', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `q${i}`);
    for (const id of ids) await question(id);
    const bus = memoryEventBus();
    const writer = answerEventWriter(db, bus);
    const store = answerEventStore(db);
    const seen = new Map<string, number[]>();
    const checks: Promise<void>[] = [];
    for (const id of ids) {
      bus.subscribe(id, (m) => {
        if (m.type !== 'event') return;
        seen.set(id, [...(seen.get(id) ?? []), m.event.id]);
        // At publish time the row is in the database.
        checks.push(store.after(id, m.event.id - 1).then((rows) => void expect(rows[0]).toEqual(m.event)));
      });
    }
    const written: Promise<unknown>[] = [];
    for (let round = 0; round < 5; round++) {
      for (const id of ids) {
        written.push(writer.append(id, { event: 'status', data: { status: 'running', message: `第${round}步` } }));
        written.push(writer.append(id, { event: 'delta', data: { text: `${round}a` } }));
        written.push(writer.append(id, { event: 'delta', data: { text: `${round}b` } }));
      }
    }
    await Promise.all(written);
    await Promise.all(checks);
    for (const id of ids) {
      const events = await store.after(id);
      expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
      expect(seen.get(id)).toEqual(events.map((e) => e.id));
      // Deltas waiting together were joined; the text is whole and in order.
      expect(events.filter((e) => e.event === 'delta').map((e) => (e.event === 'delta' ? e.data.text : '')).join('')).toBe('0a0b1a1b2a2b3a3b4a4b');
      expect(events.filter((e) => e.event === 'status')).toHaveLength(5);
    }
  });

  it('stores the other answers\' events when one question is gone', async () => {
    await question('keep');
    const writer = answerEventWriter(db, memoryEventBus());
    const kept = writer.append('keep', { event: 'delta', data: { text: '留下' } });
    const lost = writer.append('missing', { event: 'delta', data: { text: '没有这个问题' } });
    await expect(lost).rejects.toThrow();
    await expect(kept).resolves.toMatchObject({ id: 1, event: 'delta', data: { text: '留下' } });
    expect(await answerEventStore(db).after('keep')).toHaveLength(1);
  });
});
