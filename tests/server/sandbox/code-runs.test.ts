import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeExecutionResult } from '../../../src/contract/code';
import type { Question } from '../../../src/contract/channel';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { ask, readEvents } from '../answering-helpers';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// A 运行 of a Python block of an answer is kept with that answer (the last run of each
// block), so reopening the channel shows it again; the files a run or an answer's code tool kept
// belong to the question: whoever may read the question may read them (channels are their owner's
// only — SPEC has no shared channels), and they go with it.

let server: TestServer;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  // The product's own sandbox limits: nothing here tests them, and plotting with matplotlib (its
  // font cache built in each fresh sandbox) needs room on a loaded CI machine.
  server = await startServer();
  ({ client: alice } = await signedInUser(server));
  ({ client: bob } = await signedInUser(server));
});

afterAll(async () => {
  await server?.close();
}, 60_000);

/** A finished question of `client`'s (the local engine answers at once). */
async function answered(client: Client, extra: Record<string, unknown> = {}, text = '乙醇的分子量是多少？') {
  const channel = (await client.post<{ id: string }>('/api/v1/channel', { name: '代码' })).body.data.id;
  const { channelId, questionId } = await ask(client, text, { tools_name: [], ...extra }, channel);
  await readEvents(client, questionId);
  return { channelId, questionId };
}

async function questionOf(client: Client, channelId: string, questionId: string): Promise<Question> {
  const res = await client.get<{ items: Question[] }>(`/api/v1/channel/questions/${channelId}?page=1&size=20`);
  expect(res.status).toBe(200);
  return res.body.data.items.find((q) => q.question_id === questionId)!;
}

const PLOT = 'import matplotlib.pyplot as plt\nplt.plot([1, 2, 3]); plt.savefig("p.png")\nprint("plotted")';

describe('a 运行 of an answer block is kept with the answer', () => {
  it('is listed with the question after a reload, replaced by the next run of the same block, and its files follow the question', { timeout: 120_000 }, async () => {
    const { channelId, questionId } = await answered(alice);
    const first = await alice.post<CodeExecutionResult>('/api/v1/code/run', { code: PLOT, question_id: questionId, block: 0 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.stdout).toBe('plotted\n');
    const png = first.body.data.artifacts.find((a) => a.name === 'p.png')!;
    expect(png.kind).toBe('image');
    const other = await alice.post<CodeExecutionResult>('/api/v1/code/run', { code: 'print(2 + 3)', question_id: questionId, block: 2 });
    expect(other.status).toBe(200);

    // Opening the channel again: each block's last run, in block order, with code and result.
    const q = await questionOf(alice, channelId, questionId);
    expect(q.code_runs?.map((r) => [r.block, r.code, r.result.stdout])).toEqual([
      [0, PLOT, 'plotted\n'],
      [2, 'print(2 + 3)', '5\n'],
    ]);
    expect(q.code_runs![0]!.result.artifacts).toEqual(first.body.data.artifacts);

    // The picture: its asker reads it; another user and nobody cannot (and cannot tell it exists).
    expect((await alice.get(`/api/v1/code/artifacts/${png.id}`)).status).toBe(200);
    expect((await bob.get(`/api/v1/code/artifacts/${png.id}`)).status).toBe(404);
    expect((await server.client().get(`/api/v1/code/artifacts/${png.id}`)).status).toBe(401);
    const db = server.sqlite();
    try {
      expect(db.prepare('select question_id, user_id from artifacts where id = ?').get(png.id)).toMatchObject({ question_id: questionId });
    } finally {
      db.close();
    }

    // Running block 0 again replaces its run; the replaced run's files are gone (row and bytes).
    const second = await alice.post<CodeExecutionResult>('/api/v1/code/run', { code: 'print("again")', question_id: questionId, block: 0 });
    expect(second.status).toBe(200);
    const again = await questionOf(alice, channelId, questionId);
    expect(again.code_runs?.map((r) => [r.block, r.result.stdout])).toEqual([
      [0, 'again\n'],
      [2, '5\n'],
    ]);
    expect((await alice.get(`/api/v1/code/artifacts/${png.id}`)).status).toBe(404);
    expect(fs.existsSync(path.join(server.dataDir, 'artifacts', png.id))).toBe(false);

    // A run without a question is not kept with any answer.
    expect((await alice.post('/api/v1/code/run', { code: 'print(1)' })).status).toBe(200);
    expect((await questionOf(alice, channelId, questionId)).code_runs).toHaveLength(2);
  });

  it('a stranger can neither run code as part of someone else\'s answer nor see its runs', { timeout: 60_000 }, async () => {
    const { channelId, questionId } = await answered(alice);
    const refused = await bob.post('/api/v1/code/run', { code: 'print("bob")', question_id: questionId, block: 0 });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('问题不存在');
    expect((await alice.post('/api/v1/code/run', { code: 'print("alice")', question_id: questionId, block: 0 })).status).toBe(200);
    expect((await bob.get(`/api/v1/channel/questions/${channelId}?page=1&size=20`)).status).toBe(404);
    const q = await questionOf(alice, channelId, questionId);
    expect(q.code_runs?.map((r) => r.result.stdout)).toEqual(['alice\n']);
    expect((await server.client().post('/api/v1/code/run', { code: 'print(1)', question_id: questionId, block: 0 })).status).toBe(401);
  });

  it('a block pasted without its closing fence runs to the end of the question, and is not read as a SMILES', { timeout: 120_000 }, async () => {
    const { questionId } = await answered(alice, { tools_name: ['code_execution', 'smiles_completion'] }, '这段代码做什么？\n```python\nprint(6 * 7)');
    const { events } = await readEvents(alice, questionId);
    const calls = events.filter((e) => e.event === 'tool_result').map((e) => e.data as { name?: string; ok: boolean; data: CodeExecutionResult });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.ok).toBe(true);
    expect(calls[0]!.data.stdout).toContain('42');
  });

  it('files the code tool kept for an answer belong to its question and go when the question is deleted', { timeout: 120_000 }, async () => {
    const question = '帮我运行：\n```python\nopen("t.csv", "w").write("a,b\\n1,2\\n")\nprint("ok")\n```';
    const { channelId, questionId } = await answered(alice, { tools_name: ['code_execution'] }, question);
    const { events } = await readEvents(alice, questionId);
    const result = events.find((e) => e.event === 'tool_result')!.data as { ok: boolean; data: CodeExecutionResult };
    expect(result.ok).toBe(true);
    const csv = result.data.artifacts.find((a) => a.name === 't.csv')!;
    const db = server.sqlite();
    try {
      expect(db.prepare('select question_id from artifacts where id = ?').get(csv.id)).toEqual({ question_id: questionId });
    } finally {
      db.close();
    }
    expect((await alice.get(`/api/v1/code/artifacts/${csv.id}`)).status).toBe(200);
    expect((await bob.get(`/api/v1/code/artifacts/${csv.id}`)).status).toBe(404);
    expect((await alice.post('/api/v1/code/run', { code: 'open("x.txt","w").write("x")', question_id: questionId, block: 0 })).status).toBe(200);
    const kept = (await questionOf(alice, channelId, questionId)).code_runs![0]!.result.artifacts[0]!;

    expect((await alice.request('DELETE', `/api/v1/channel/questions/${questionId}`)).status).toBe(200);
    expect((await alice.get(`/api/v1/code/artifacts/${csv.id}`)).status).toBe(404);
    expect((await alice.get(`/api/v1/code/artifacts/${kept.id}`)).status).toBe(404);
    const after = server.sqlite();
    try {
      expect(after.prepare('select count(*) as n from code_runs where question_id = ?').get(questionId)).toEqual({ n: 0 });
    } finally {
      after.close();
    }
    // Running a block of the deleted answer is refused.
    const gone = await alice.post('/api/v1/code/run', { code: 'print(1)', question_id: questionId, block: 0 });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('问题不存在');
  });
});

describe('POST /code/run with a question refuses bad input in Chinese', () => {
  it('needs both the question and the block, a whole block number in range, and a finished answer', { timeout: 60_000 }, async () => {
    const { channelId, questionId } = await answered(alice);
    for (const [body, message] of [
      [{ code: 'print(1)', block: 0 }, '代码块编号需要和问题标识一起提供'],
      [{ code: 'print(1)', question_id: questionId }, '代码块编号需要和问题标识一起提供'],
      [{ code: 'print(1)', question_id: questionId, block: -1 }, '代码块编号无效'],
      [{ code: 'print(1)', question_id: questionId, block: 1.5 }, '代码块编号无效'],
      [{ code: 'print(1)', question_id: questionId, block: 100 }, '代码块编号无效'],
      [{ code: 'print(1)', question_id: questionId, block: '0' }, '代码块编号无效'],
      [{ code: 'print(1)', question_id: '', block: 0 }, '问题标识无效'],
      [{ code: 'print(1)', question_id: 'x'.repeat(65), block: 0 }, '问题标识无效'],
      [{ code: 'print(1)', question_id: 7, block: 0 }, '问题标识无效'],
    ] as const) {
      const res = await alice.post('/api/v1/code/run', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.message).toContain(message);
    }
    const missing = await alice.post('/api/v1/code/run', { code: 'print(1)', question_id: 'no-such-question', block: 0 });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('问题不存在');

    // An answer still being written: its blocks may change, so none of them is run yet.
    const db = server.sqlite();
    try {
      db.prepare("update questions set status = 'running' where id = ?").run(questionId);
      const running = await alice.post('/api/v1/code/run', { code: 'print(1)', question_id: questionId, block: 0 });
      expect(running.status).toBe(409);
      expect(running.body.message).toBe('回答完成后才能运行其中的代码');
    } finally {
      db.prepare("update questions set status = 'done' where id = ?").run(questionId);
      db.close();
    }
    // Nothing was kept by any refused call.
    expect((await questionOf(alice, channelId, questionId)).code_runs).toEqual([]);
  });
});

describe('runs one user may have going at once', () => {
  it('are two, by every way in: runs started over MCP hold the 运行 button back (429) and a third MCP call', { timeout: 90_000 }, async () => {
    const { client: carol } = await signedInUser(server);
    const token = (await carol.post<{ token: string }>('/api/v1/auth/tokens', { name: 'MCP' })).body.data.token;
    const connect = async () => {
      const mcp = new McpClient({ name: 'csai-test', version: '1.0.0' });
      await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      return mcp;
    };
    const [a, b, c] = await Promise.all([connect(), connect(), connect()]);
    const slow = { name: 'code_execution', arguments: { code: 'import time\ntime.sleep(6)\nprint("slept")' } };
    const running = [a.callTool(slow), b.callTool(slow)];
    // A run holds its slot from the moment the call arrives (before the sandbox starts) to its end.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const button = await carol.post('/api/v1/code/run', { code: 'print(1)' });
    expect(button.status).toBe(429);
    expect(button.body).toMatchObject({ code: 'too_many_runs', message: '同时运行的代码最多2个，请等待之前的运行结束' });
    const third = await c.callTool(slow);
    expect(third.isError).toBe(true);
    expect(JSON.stringify(third.content)).toContain('同时运行的代码最多2个');
    // Another user is not held back, and once the two end the button runs again.
    expect((await alice.post('/api/v1/code/run', { code: 'print(1)' })).status).toBe(200);
    for (const done of await Promise.all(running)) expect(JSON.stringify(done.content)).toContain('slept');
    expect((await carol.post('/api/v1/code/run', { code: 'print(1)' })).status).toBe(200);
    await Promise.all([a.close(), b.close(), c.close()]);
  });
});
