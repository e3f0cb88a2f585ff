import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from '../helpers';
import { until } from '../answering-helpers';

// Docking tasks and their files cannot pile up without end: a user keeps at most
// CSAI_DOCKING_MAX_TASKS_PER_USER, ended ones expire after CSAI_DOCKING_TASK_TTL_DAYS, and the
// owner deletes one with DELETE /api/v1/tasks/{id}.

let server: TestServer;
beforeAll(async () => {
  // Ended tasks live 4.3 s here (30 days by default).
  server = await startServer({ CSAI_DOCKING_MAX_TASKS_PER_USER: '2', CSAI_DOCKING_TASK_TTL_DAYS: '0.00005' });
});
afterAll(async () => {
  await server?.close();
}, 60_000);

/** A task of the user's written as the task service keeps one (row and folder with a file). */
function task(userId: string, state: string, updatedAt = new Date().toISOString()): string {
  const id = `t${randomBytes(8).toString('hex')}`;
  fs.mkdirSync(path.join(server.dataDir, 'tasks', id), { recursive: true });
  fs.writeFileSync(path.join(server.dataDir, 'tasks', id, 'receptor.pdb'), 'END\n');
  const spec = { smiles: 'CCO', docked_smiles: 'CCO', receptor: 'q', box: { center: [0, 0, 0], size: [20, 20, 20], source: 'explicit', label: '' }, reference: false, exhaustiveness: 8, num_modes: 9, seed: 1, cpu: 1 };
  const db = server.sqlite();
  try {
    db.prepare("insert into tasks (id, user_id, kind, job_id, state, progress, message, title, input, result, created_at, started_at, finished_at, updated_at) values (?, ?, 'docking', null, ?, 1, '', 'CCO', ?, null, ?, ?, ?, ?)")
      .run(id, userId, state, JSON.stringify(spec), updatedAt, updatedAt, updatedAt, updatedAt);
  } finally {
    db.close();
  }
  return id;
}
const dirExists = (id: string) => fs.existsSync(path.join(server.dataDir, 'tasks', id));

describe('docking tasks kept per user (issue 33)', () => {
  it('refuses a submission past the quota with a Chinese 403; the owner deletes an ended task with its files', async () => {
    const alice = await signedInUser(server);
    const bob = await signedInUser(server);
    const running = task(alice.id, 'running');
    const ended = task(alice.id, 'failed');
    const body = { smiles: 'CCO', receptor: '1ABC' };
    const refused = await alice.client.post('/api/v1/tasks/docking', body);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('你保存的对接任务已达上限（2 个）');
    expect(fs.readdirSync(path.join(server.dataDir, 'tasks')).length).toBe(2);

    // Only the owner deletes, only an ended task; its folder goes with it.
    expect((await bob.client.request('DELETE', `/api/v1/tasks/${ended}`)).status).toBe(404);
    const open = await alice.client.request('DELETE', `/api/v1/tasks/${running}`);
    expect(open.status).toBe(409);
    expect(open.body.message).toContain('请先取消');
    expect(dirExists(running)).toBe(true);
    const del = await alice.client.request<{ deleted: number }>('DELETE', `/api/v1/tasks/${ended}`);
    expect(del.status).toBe(200);
    expect(dirExists(ended)).toBe(false);
    expect((await alice.client.get(`/api/v1/tasks/${ended}`)).status).toBe(404);
    expect((await alice.client.request('DELETE', `/api/v1/tasks/${ended}`)).status).toBe(404);
    // Below the quota again: the submission gets past it (to the receptor, which does not exist).
    const again = await alice.client.post('/api/v1/tasks/docking', body);
    expect(again.status).not.toBe(403);
    expect(again.status).toBeLessThan(500);
  });

  it('removes ended tasks and their files after the expiry, never open ones', async () => {
    const carol = await signedInUser(server);
    const old = new Date(Date.now() - 3600_000).toISOString();
    const ended = task(carol.id, 'done', old);
    const open = task(carol.id, 'queued', old);
    await until(async () => dirExists(ended), (e) => !e, 20_000);
    expect((await carol.client.get(`/api/v1/tasks/${ended}`)).status).toBe(404);
    expect(dirExists(open)).toBe(true);
  });
});
