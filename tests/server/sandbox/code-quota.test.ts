import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeExecutionResult, LooseArtifacts } from '../../../src/contract/code';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { ask, readEvents, until } from '../answering-helpers';

// Code runs cannot fill the disk. Ten runs of a writer of 20 × 1 MB grew the artifacts
// folder by 190 MB in 3 s: now a user's kept run files have a quota (size and number), files of runs
// without a question expire, files kept with a question go with it or its channel, a user may
// delete their own, and runs per minute are limited beyond the two at once.

const MB = 2 ** 20;
/** The probe's writer: 20 files of 1 MB each. */
const writer = (n: number) => `for i in range(${n}):\n    open(f"f{i}.bin", "wb").write(b"x" * ${MB})\nprint("wrote")`;

const dirBytes = (server: TestServer) => {
  const dir = path.join(server.dataDir, 'artifacts');
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir).reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);
};
const exists = (server: TestServer, id: string) => fs.existsSync(path.join(server.dataDir, 'artifacts', id));
const run = (client: Client, body: Record<string, unknown>) => client.post<CodeExecutionResult>('/api/v1/code/run', body);

async function answered(client: Client) {
  const channel = (await client.post<{ id: string }>('/api/v1/channel', { name: '代码' })).body.data.id;
  const { channelId, questionId } = await ask(client, '乙醇的分子量是多少？', { tools_name: [] }, channel);
  await readEvents(client, questionId);
  return { channelId, questionId };
}

describe('a per-user quota on kept run files', () => {
  let server: TestServer;
  let alice: Client;
  let bob: Client;
  beforeAll(async () => {
    server = await startServer({ CSAI_ARTIFACT_QUOTA_MB: '25', CSAI_ARTIFACT_QUOTA_FILES: '100', CSAI_CODE_RUNS_PER_MINUTE: '100' });
    ({ client: alice } = await signedInUser(server));
    ({ client: bob } = await signedInUser(server));
  });
  afterAll(async () => {
    await server?.close();
  }, 60_000);

  it('keeps files up to the quota, then refuses runs with a Chinese 403 and writes nothing; the user lists and deletes their own', { timeout: 180_000 }, async () => {
    const first = await run(alice, { code: writer(20) });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.artifacts).toHaveLength(20);
    expect(dirBytes(server)).toBe(20 * MB);

    // 20 MB more would pass 25 MB: the run's files are not kept, none of them, and it says so.
    const second = await run(alice, { code: writer(20) });
    expect(second.status).toBe(200);
    expect(second.body.data.stdout).toBe('wrote\n');
    expect(second.body.data.artifacts).toEqual([]);
    expect(second.body.data.message).toContain('超过你的存储上限');
    expect(second.body.data.message).toContain('未保留');
    expect(dirBytes(server)).toBe(20 * MB);

    // Up to the quota exactly; then the next run is refused before it runs.
    expect((await run(alice, { code: writer(5) })).body.data.artifacts).toHaveLength(5);
    const refused = await run(alice, { code: 'open("x.txt", "w").write("x")\nprint(1)' });
    expect(refused.status).toBe(403);
    expect(refused.body.success).toBe(false);
    expect(refused.body.message).toContain('你保存的代码运行文件已达上限');
    expect(dirBytes(server)).toBe(25 * MB);
    // Another user is not held up by Alice's files.
    expect((await run(bob, { code: 'print(2)' })).status).toBe(200);

    // The list of Alice's files of runs without a question, with what they take against the quota.
    const list = await alice.get<LooseArtifacts>('/api/v1/code/artifacts');
    expect(list.status).toBe(200);
    expect(list.body.data.artifacts).toHaveLength(25);
    expect(list.body.data.used_bytes).toBe(25 * MB);
    expect(list.body.data.quota_bytes).toBe(25 * MB);
    expect(list.body.data.quota_files).toBe(100);
    expect(Date.parse(list.body.data.artifacts[0]!.expires_at) - Date.parse(list.body.data.artifacts[0]!.created_at)).toBe(24 * 3600_000);
    expect((await bob.get<LooseArtifacts>('/api/v1/code/artifacts')).body.data.artifacts).toEqual([]);

    // Deleting one: only its owner may, and it is gone from disk.
    const one = list.body.data.artifacts[0]!.id;
    expect((await bob.request('DELETE', `/api/v1/code/artifacts/${one}`)).status).toBe(404);
    expect(exists(server, one)).toBe(true);
    const del = await alice.request<{ deleted: number }>('DELETE', `/api/v1/code/artifacts/${one}`);
    expect(del.status).toBe(200);
    expect(del.body.data.deleted).toBe(1);
    expect(exists(server, one)).toBe(false);
    expect((await alice.request('DELETE', `/api/v1/code/artifacts/${one}`)).status).toBe(404);
    const bad = await alice.request('DELETE', '/api/v1/code/artifacts/..%2F..%2Fsecret.key');
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expect(bad.body.message).toMatch(/[\u4e00-\u9fff]/);

    // Deleting all: the disk is free again and runs are allowed.
    const all = await alice.request<{ deleted: number }>('DELETE', '/api/v1/code/artifacts');
    expect(all.body.data.deleted).toBe(24);
    expect(dirBytes(server)).toBe(0);
    expect((await run(alice, { code: 'print(3)' })).status).toBe(200);
  });

  it('refuses a run past the quota on number of files too', { timeout: 120_000 }, async () => {
    const other = await startServer({ CSAI_ARTIFACT_QUOTA_FILES: '3' });
    try {
      const { client } = await signedInUser(other);
      expect((await run(client, { code: writer(3) })).body.data.artifacts).toHaveLength(3);
      const refused = await run(client, { code: 'print(1)' });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toContain('3 个文件');
    } finally {
      await other.close();
    }
  });
});

describe('run files expire, go with their question or channel, and runs per minute are limited', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Files of runs without a question live 3.6 s here (24 h by default).
    server = await startServer({ CSAI_ARTIFACT_TTL_HOURS: '0.001', CSAI_CODE_RUNS_PER_MINUTE: '3' });
  });
  afterAll(async () => {
    await server?.close();
  }, 60_000);

  it('removes the files of a run without a question after the expiry, and keeps those kept with an answer', { timeout: 120_000 }, async () => {
    const { client } = await signedInUser(server);
    const { questionId } = await answered(client);
    const loose = (await run(client, { code: writer(1) })).body.data.artifacts[0]!.id;
    const kept = await run(client, { code: writer(1), question_id: questionId, block: 0 });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    const keptId = kept.body.data.artifacts[0]!.id;
    expect(exists(server, loose)).toBe(true);
    await until(async () => exists(server, loose), (e) => !e, 20_000);
    expect((await client.get(`/api/v1/code/artifacts/${loose}`)).status).toBe(404);
    expect(exists(server, keptId)).toBe(true);
    expect((await client.get(`/api/v1/code/artifacts/${keptId}`)).status).toBe(200);
  });

  it('deletes the files kept with a question when the question or its channel is deleted', { timeout: 120_000 }, async () => {
    const { client } = await signedInUser(server);
    const a = await answered(client);
    const b = await answered(client);
    const inA = (await run(client, { code: writer(1), question_id: a.questionId, block: 0 })).body.data.artifacts[0]!.id;
    const inB = (await run(client, { code: writer(1), question_id: b.questionId, block: 0 })).body.data.artifacts[0]!.id;
    expect(exists(server, inA) && exists(server, inB)).toBe(true);
    expect((await client.request('DELETE', `/api/v1/channel/questions/${a.questionId}`)).status).toBe(200);
    expect(exists(server, inA)).toBe(false);
    expect((await client.request('DELETE', `/api/v1/channel/${b.channelId}`)).status).toBe(200);
    expect(exists(server, inB)).toBe(false);
  });

  it('refuses runs past the per-minute limit with a Chinese 429, for that user only', { timeout: 120_000 }, async () => {
    const { client } = await signedInUser(server);
    for (let i = 0; i < 3; i++) expect((await run(client, { code: `print(${i})` })).status).toBe(200);
    const limited = await run(client, { code: 'print(4)' });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toContain('代码运行过于频繁');
    const { client: other } = await signedInUser(server);
    expect((await run(other, { code: 'print(5)' })).status).toBe(200);
  });
});
