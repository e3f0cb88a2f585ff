import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '../../../src/server/db/database';
import { openTestDatabase, suiteOnPostgres } from '../postgres-harness';
import { answerEventStore, answerEventWriter, memoryEventBus, recoverEventLog } from '../../../src/server/answering/events';

// The group-commit writer on its own: what it publishes is already stored, numbered per question
// without gaps, and a question deleted meanwhile does not lose the other answers' events.
let dir: string;
let db: Db;
const t = new Date().toISOString();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-writer-'));
  db = await openTestDatabase(dir);
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
    const store = answerEventStore(db, writer);
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
    expect(await answerEventStore(db, writer).after('keep')).toHaveLength(1);
  });

  it('tells of an event pushed without a promise that could not be stored, and is drained after it', async () => {
    await question('p1');
    const writer = answerEventWriter(db, memoryEventBus());
    const failures: unknown[] = [];
    writer.push('p1', { event: 'delta', data: { text: '甲' } }, (err) => failures.push(err));
    writer.push('p1', { event: 'delta', data: { text: '乙' } }, (err) => failures.push(err));
    writer.push('gone', { event: 'delta', data: { text: '丙' } }, (err) => failures.push(err));
    await Promise.all([writer.drained('p1'), writer.drained('gone')]);
    expect(failures).toHaveLength(1);
    expect((await answerEventStore(db, writer).after('p1')).map((e) => (e.event === 'delta' ? e.data.text : ''))).toEqual(['甲乙']);
  });

  it('keeps events of answers being written in the log, moves them at the end, then empties the log', async () => {
    await question('a1');
    await question('a2');
    const writer = answerEventWriter(db, memoryEventBus());
    const store = answerEventStore(db, writer);
    await Promise.all([writer.append('a1', { event: 'delta', data: { text: '甲' } }), writer.append('a2', { event: 'delta', data: { text: '乙' } })]);
    const logged = async () => (await db.selectFrom('answer_event_log').select(['question_id', 'seq']).where('question_id', 'in', ['a1', 'a2', 'a3']).orderBy('id').execute()).map((r) => `${r.question_id}#${r.seq}`);
    expect(await logged()).toEqual(['a1#1', 'a2#1']);
    expect(await db.selectFrom('question_events').select('seq').where('question_id', '=', 'a1').execute()).toEqual([]);
    // Reads of the store include them (the SSE replay, the channel's answers so far).
    expect((await store.after('a1')).map((e) => e.id)).toEqual([1]);
    expect(await store.lastIds(['a1', 'a2'])).toEqual(new Map([['a1', 1], ['a2', 1]]));

    // a1 ends: its events join question_events with the end, in one transaction.
    writer.forget('a1');
    await db.transaction().execute(async (tx) => {
      await writer.moveTo(tx, 'a1');
      await answerEventStore(tx, writer).append('a1', { event: 'done', data: { status: 'done' } });
    });
    writer.moved('a1');
    expect((await db.selectFrom('question_events').select('seq').where('question_id', '=', 'a1').orderBy('seq').execute()).map((r) => r.seq)).toEqual([1, 2]);
    expect((await store.after('a1')).map((e) => e.event)).toEqual(['delta', 'done']);
    // a2 still streams: the log keeps its rows; once it ends too, the next batch empties the log.
    await writer.append('a2', { event: 'delta', data: { text: '丙' } });
    // (PostgreSQL, where several nodes share the log: an answer's rows leave it with its end.)
    expect(await logged()).toEqual(suiteOnPostgres() ? ['a2#1', 'a2#2'] : ['a1#1', 'a2#1', 'a2#2']);
    await db.transaction().execute((tx) => writer.moveTo(tx, 'a2'));
    writer.moved('a2');
    await question('a3');
    await writer.append('a3', { event: 'delta', data: { text: '丁' } });
    expect(await logged()).toEqual(['a3#1']);
    expect((await store.after('a2')).map((e) => e.id)).toEqual([1, 2]);
  });

  it('after a crash, moves what the log kept to question_events and drops events of deleted questions', async () => {
    await question('r1');
    await question('r2');
    const writer = answerEventWriter(db, memoryEventBus());
    await writer.append('r1', { event: 'delta', data: { text: '中断前' } });
    await writer.append('r2', { event: 'delta', data: { text: '已删除' } });
    await db.deleteFrom('questions').where('id', '=', 'r2').execute();
    // The next process: nothing of the old writer is left but the database.
    expect(await recoverEventLog(db)).toBeGreaterThanOrEqual(1);
    expect(await db.selectFrom('answer_event_log').selectAll().execute()).toEqual([]);
    expect(await answerEventStore(db).after('r1')).toEqual([{ id: 1, event: 'delta', data: { text: '中断前' } }]);
    expect(await db.selectFrom('question_events').selectAll().where('question_id', '=', 'r2').execute()).toEqual([]);
    // A new writer continues the numbering after them.
    const next = answerEventWriter(db, memoryEventBus());
    await expect(next.append('r1', { event: 'delta', data: { text: '续' } })).resolves.toMatchObject({ id: 2 });
  });
});
