import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now, type Db } from '../../../src/server/db/database';
import { openTestDatabase } from '../postgres-harness';
import { jobQueue } from '../../../src/server/jobs/queue';

// One user's backlog of parse jobs must not starve another user's first document.
let db: Db;
beforeAll(async () => {
  db = await openTestDatabase(fs.mkdtempSync(path.join(os.tmpdir(), 'csai-queue-')));
  const t = now();
  for (const id of ['alice', 'bob', 'carol']) {
    await db.insertInto('users').values({ id, email: `${id}@example.com`, phone: null, name: id, password_hash: 'x', is_admin: 0, status: 'active', department_id: null, created_at: t, activated_at: t }).execute();
  }
});
afterAll(() => db.destroy());

async function doc(id: string, owner: string) {
  const t = now();
  await db.insertInto('kb_documents').values({
    id, owner_id: owner, folder_id: null, title: `${id}.pdf`, type: 1, mime: 'application/pdf', size: 1, sha256: id, storage_name: id,
    parse_status: 1, parse_progress: 0, progress_texts: '[]', page_count: null, markdown: null, indexed_title: null, created_at: t, updated_at: t,
  }).execute();
}

describe('claiming jobs', () => {
  it('takes owners in turn: every owner’s oldest job before anyone’s second, oldest first inside a turn', async () => {
    const queue = jobQueue(db);
    const ids: Record<string, number> = {};
    for (let i = 1; i <= 4; i++) {
      await doc(`a${i}`, 'alice');
      ids[`a${i}`] = await queue.enqueue('parse', { docId: `a${i}` });
    }
    await doc('b1', 'bob');
    ids.b1 = await queue.enqueue('parse', { docId: 'b1' });
    ids.x = await queue.enqueue('parse', { note: 'no document' });
    await doc('c1', 'carol');
    ids.c1 = await queue.enqueue('parse', { docId: 'c1' });
    await doc('b2', 'bob');
    ids.b2 = await queue.enqueue('parse', { docId: 'b2' });

    const order: number[] = [];
    for (let job = await queue.claim(['parse']); job; job = await queue.claim(['parse'])) order.push(job.id);
    const name = new Map(Object.entries(ids).map(([k, v]) => [v, k]));
    expect(order.map((id) => name.get(id))).toEqual(['a1', 'b1', 'x', 'c1', 'a2', 'b2', 'a3', 'a4']);
  });

  it('leaves other kinds and jobs not yet due alone', async () => {
    const queue = jobQueue(db);
    await doc('late', 'carol');
    const late = await queue.enqueue('parse', { docId: 'late' });
    await db.updateTable('jobs').set({ run_after: now(60_000) }).where('id', '=', late).execute();
    await queue.enqueue('embed', { docId: 'late' });
    expect(await queue.claim(['parse'])).toBeUndefined();
  });

  it('beyond capacity takes only the first job of an owner with nothing running (issue 33)', async () => {
    const queue = jobQueue(db);
    await doc('d1', 'alice');
    await doc('d2', 'alice');
    await doc('e1', 'bob');
    const d1 = await queue.enqueue('fair', { docId: 'd1' });
    const d2 = await queue.enqueue('fair', { docId: 'd2' });
    const e1 = await queue.enqueue('fair', { docId: 'e1' });
    expect((await queue.claim(['fair']))?.id).toBe(d1);
    // Alice has one running: only Bob's first job is a new owner's.
    expect((await queue.claim(['fair'], { newOwnersOnly: true }))?.id).toBe(e1);
    // Both have one running now: nothing is a new owner's, though Alice's second job waits.
    expect(await queue.claim(['fair'], { newOwnersOnly: true })).toBeUndefined();
    expect((await queue.claim(['fair']))?.id).toBe(d2);
  });
});
