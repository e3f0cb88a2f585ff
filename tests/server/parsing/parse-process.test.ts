import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectsOnOwnThread, workerPool, type WorkerPool } from '../../../src/server/parsing/worker-pool';
import { trackChild } from '../children';
import { makePdf } from '../knowledge-helpers';
import { killed } from '../process-helpers';
import { until } from '../until';

// postgres: sqlite-only — it checks the parse processes themselves and stores nothing.

// Documents are parsed in child processes of the server (parsing/worker-pool.ts): one that dies
// costs only its own task, none outlives the server, and where the parses take every core they
// collect garbage on their own thread.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-parse-proc-'));
const small = path.join(dir, 'small.pdf');
const large = path.join(dir, 'large.pdf');
fs.writeFileSync(small, makePdf([['A small document', 'One page about aspirin.']]));
fs.writeFileSync(large, makePdf(Array.from({ length: 400 }, (_, p) => Array.from({ length: 30 }, (_, l) => `Page ${p + 1} line ${l + 1}: kinase inhibitor selectivity and solubility`))));
const pools: WorkerPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The parse processes whose parent is `parent` (less those in `except`), with their command lines. */
function parseProcesses(parent: number, except: number[] = []): Array<{ pid: number; args: string[] }> {
  const found: Array<{ pid: number; args: string[] }> = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== parent || except.includes(Number(name))) continue;
      const args = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (args.some((a) => /parse-worker\.[jt]s$/.test(a))) found.push({ pid: Number(name), args });
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

const alive = (pid: number) => {
  try {
    // A zombie (ended, not yet reaped) counts as gone.
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('parse processes', () => {
  it('one killed in the middle of a document fails only that document, with a reason; the next document gets a new process', async () => {
    const others = parseProcesses(process.pid).map((p) => p.pid);
    const pool = workerPool(1, { taskTimeoutMs: 300_000 });
    pools.push(pool);
    await pool.run('pdf', small, 'small', () => {});
    const [child, ...more] = parseProcesses(process.pid, others);
    expect(child).toBeDefined();
    expect(more).toEqual([]);

    let killed = false;
    const task = pool.run('pdf', large, 'large', () => {
      if (killed) return;
      killed = true;
      process.kill(child!.pid, 'SIGKILL');
    });
    await expect(task).rejects.toThrow('解析进程意外退出（SIGKILL）');

    const result = await pool.run('pdf', small, 'small', () => {});
    expect(result.chunks.map((c) => c.text).join(' ')).toContain('aspirin');
    expect(pool.stats().started).toBe(2);
    expect(alive(child!.pid)).toBe(false);
    expect(parseProcesses(process.pid, others)).toHaveLength(1);
  }, 120_000);

  it('end when the pool closes', async () => {
    const others = parseProcesses(process.pid).map((p) => p.pid);
    const pool = workerPool(2, { taskTimeoutMs: 300_000 });
    await Promise.all([pool.run('pdf', small, 'a', () => {}), pool.run('pdf', small, 'b', () => {})]);
    const pids = parseProcesses(process.pid, others).map((p) => p.pid);
    expect(pids).toHaveLength(2);
    await pool.close();
    expect(pids.filter(alive)).toEqual([]);
  }, 120_000);

  it('are reused while parses outnumber them, and the extra ones end once idle (issue 33: a backlog parsed at a process start per document)', async () => {
    const others = parseProcesses(process.pid).map((p) => p.pid);
    // As the server runs it: two processes and a spare, and three owners with a parse each at all
    // times (the job runner's two, and the extra one it claims for an owner with none running).
    const pool = workerPool(2, { taskTimeoutMs: 300_000, spare: true, idleExtraMs: 5_000 });
    pools.push(pool);
    const documents = 12;
    let next = 0;
    await Promise.all(
      ['alice', 'bob', 'carol'].map(async (owner) => {
        while (next < documents) {
          next++;
          const r = await pool.run('pdf', small, 'small', () => {}, owner);
          expect(r.chunks.length).toBeGreaterThan(0);
        }
      }),
    );
    // Processes are kept for the next document: about the pool's size twice over (the running
    // parses, the paused ones and the spare; one more if a loaded machine left one idle past
    // idleExtraMs), not one per document as before (13).
    expect(pool.stats().started).toBeLessThanOrEqual(5);
    // Idle, the processes beyond the pool's size end.
    await until(() => parseProcesses(process.pid, others).length <= 2, 60_000);
    expect(parseProcesses(process.pid, others).length).toBeLessThanOrEqual(2);
    await pool.close();
  }, 300_000);

  it('end when the server process is killed, also in the middle of a document', async () => {
    // A stand-in server: a process with a parse pool that starts a long parse and is then killed
    // (kill -9 gives it no chance to close its pool).
    const script = path.join(dir, 'server.mts');
    const poolModule = path.resolve('src/server/parsing/worker-pool.ts');
    fs.writeFileSync(
      script,
      `import { workerPool } from ${JSON.stringify(poolModule)};
const pool = workerPool(1, { taskTimeoutMs: 300_000 });
let said = false;
void pool.run('pdf', ${JSON.stringify(large)}, 'large', () => { if (!said) { said = true; console.log('PARSING'); } }).catch(() => {});
setInterval(() => {}, 1000);
`,
    );
    const server = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    trackChild(server); // killed after the file if a check below fails first
    let out = '';
    server.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await until(() => out.includes('PARSING'), 60_000);
    expect(out).toContain('PARSING');
    const [child] = parseProcesses(server.pid!);
    expect(child).toBeDefined();
    await killed(server);
    await until(() => !alive(child!.pid));
    expect(alive(child!.pid)).toBe(false);
  }, 120_000);

  it('collect garbage on their own thread only when the parses and the server take every core', async () => {
    expect(collectsOnOwnThread(1, 1)).toBe(true);
    expect(collectsOnOwnThread(2, 2)).toBe(true);
    expect(collectsOnOwnThread(2, 3)).toBe(true);
    expect(collectsOnOwnThread(2, 4)).toBe(false);
    expect(collectsOnOwnThread(1, 8)).toBe(false);

    // And the processes of a pool on this machine are started that way.
    const others = parseProcesses(process.pid).map((p) => p.pid);
    const pool = workerPool(1, { taskTimeoutMs: 300_000 });
    pools.push(pool);
    await pool.run('pdf', small, 'small', () => {});
    const [child] = parseProcesses(process.pid, others);
    expect(child!.args.includes('--single-threaded-gc')).toBe(collectsOnOwnThread(1));
    expect(child!.args).toContain('--max-old-space-size=2048');
  }, 120_000);
});
