import { createHook } from 'node:async_hooks';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { openSqliteConnection } from '../../src/server/db/database';
import type { RuntimePart } from '../../src/server/runtime';
import type { CodeExecutionResult } from '../../src/contract/code';
import { signedInUser, startServer } from './helpers';

// vitest: isolate — the timer check counts every timer the server's code starts in this process while it runs; in a worker shared with earlier files, their leftovers (a process-wide RDKit or extraction pool still busy with an earlier file's work) start timers too
// postgres: sqlite-only — its subject is the runtime's stop order and budget, seen through the server's SQLite file closing last; the PostgreSQL pool is closed by the same database part (db/database.ts)

// The runtime gives each part a stop budget: a part that never stops, or whose stop throws, is
// logged as an error naming it, and everything else still stops — the caller's other parts, the
// runtime's own (a real child process of ours, the server's SQLite file) — and the close returns.

/** A part with a real child process (`sleep`), killed by its stop, which waits for it to exit. */
function childPart(name: string): RuntimePart & { child: ChildProcess } {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  return {
    name,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Whether a process id is still running (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const connections = (server: net.Server) => new Promise<number>((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

async function closeWith(stuck: RuntimePart) {
  const worker = childPart('worker');
  // Stopped in reverse: the stuck part first, then the worker, then the runtime's own parts.
  const server = await startServer({}, undefined, { parts: [worker, stuck], stopBudgetMs: 2000 });
  const sqlite = openSqliteConnection(server.dataDir);
  expect(sqlite?.open).toBe(true);
  expect(alive(worker.child.pid!)).toBe(true);
  await server.close();
  return { server, worker, sqlite };
}

describe('stopping the runtime', () => {
  it('gives up on a part that never stops, names it, and stops all the rest', async () => {
    let asked = 0;
    const { server, worker, sqlite } = await closeWith({ name: 'stuck part', stop: () => new Promise(() => void asked++) });
    expect(asked).toBe(1);
    const errors = server.warnings().filter((l) => l.msg.startsWith('runtime part did not stop in time'));
    expect(errors.map((l) => l.part)).toEqual(['stuck part']);
    // The next part still stopped: its child process is gone.
    expect(worker.child.signalCode).toBe('SIGTERM');
    expect(alive(worker.child.pid!)).toBe(false);
    // So did the runtime's own parts and, after them, the database: the SQLite file is closed.
    expect(sqlite?.open).toBe(false);
    expect(openSqliteConnection(server.dataDir)).toBeUndefined();
    // No other part was given up on.
    expect(server.warnings().filter((l) => l.level >= 50 && l.part !== 'stuck part')).toEqual([]);
  });

  it('logs a part whose stop throws, with its error, and stops all the rest', async () => {
    const { server, worker, sqlite } = await closeWith({
      name: 'failing part',
      stop: () => {
        throw new Error('the part broke while stopping');
      },
    });
    const errors = server.warnings().filter((l) => l.msg.startsWith('runtime part did not stop cleanly'));
    expect(errors.map((l) => [l.part, l.err?.message])).toEqual([['failing part', 'the part broke while stopping']]);
    expect(server.warnings().some((l) => l.msg.startsWith('runtime part did not stop in time'))).toBe(false);
    expect(alive(worker.child.pid!)).toBe(false);
    expect(sqlite?.open).toBe(false);
  });

  it('logs a part whose stop rejects later, and stops all the rest', async () => {
    const { server, worker, sqlite } = await closeWith({
      name: 'rejecting part',
      stop: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('gone wrong');
      },
    });
    const errors = server.warnings().filter((l) => l.msg.startsWith('runtime part did not stop cleanly'));
    expect(errors.map((l) => [l.part, l.err?.message])).toEqual([['rejecting part', 'gone wrong']]);
    expect(alive(worker.child.pid!)).toBe(false);
    expect(sqlite?.open).toBe(false);
  });

  it('closes a connection whose request never completes once the budget has run out', async () => {
    const server = await startServer({}, undefined, { stopBudgetMs: 1000 });
    const sqlite = openSqliteConnection(server.dataDir);
    // A client that sends the start of a request, then nothing: Node no longer times requests out
    // once its server closes, and does not count this connection as idle.
    const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1');
    await once(socket, 'connect');
    const closed = once(socket, 'close');
    socket.write('GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    while ((await connections(server.app.server)) < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await server.close();
    await closed;
    const lines = server.warnings().filter((l) => l.msg.startsWith('HTTP connections did not stop in time'));
    expect(lines.map((l) => [l.part, (l as { open?: number }).open])).toEqual([['HTTP connections', 1]]);
    // The runtime and the database stopped after it.
    expect(sqlite?.open).toBe(false);
  });

  it('leaves no timer of the server running once closed', async () => {
    // The timers the server's own code starts (creation stack in src/server), and which of them are
    // still pending: one left after the close keeps the process alive (grace timers of 2 s were).
    const pending = new Map<number, string>();
    const hook = createHook({
      init(id, type) {
        if (type !== 'Timeout') return;
        const stack = new Error().stack ?? '';
        const own = stack.split('\n').find((line) => line.includes('/src/server/'));
        if (own) pending.set(id, own.trim());
      },
      destroy: (id) => void pending.delete(id),
    });
    hook.enable();
    try {
      const server = await startServer();
      await server.close();
      // Cleared timers are reported destroyed on a later turn of the event loop.
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      expect([...pending.values()], [...pending.values()].join('\n')).toEqual([]);
    } finally {
      hook.disable();
    }
  });

  it('answers a request still running when the server closes, then closes its connection at once', async () => {
    const server = await startServer();
    const { client } = await signedInUser(server);
    // A code run (the sandbox) that takes a moment: its answer is sent after the close has begun.
    const children = () => new Set(fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').split(' ').filter(Boolean));
    const before = children();
    const answer = client.post<CodeExecutionResult>('/api/v1/code/run', { code: 'import time\ntime.sleep(1.5)\nprint("done")' });
    // Running: the sandbox's first process is a new child of this process.
    while ([...children()].every((pid) => before.has(pid))) await new Promise((resolve) => setTimeout(resolve, 20));
    const closed = server.close();
    const res = await answer;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.stdout).toBe('done\n');
    // The keep-alive connection the answer came on is closed as soon as the answer is sent, not
    // left for the budget's cut-off (15 s) or the keep-alive timeout (72 s).
    await closed;
    expect(server.warnings().filter((l) => l.msg.includes('did not stop in time'))).toEqual([]);
  });
});
