import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeExecutionResult } from '../../../src/contract/code';
import { memoryCap } from '../../../src/server/sandbox/cgroup';
import { makeAdmin, signedInUser, startServer, type Client, type TestServer } from '../helpers';

// The memory limit is the whole run's, not each process's. With a memory cgroup
// (v2, or the v1 memory controller) every process the code starts shares one cap; prlimit alone
// caps each process's address space, so several processes under it together could use more.

const cap = memoryCap();
// Without a usable memory cgroup the test says exactly why (the prlimit fallback is all there is).
const noCgroup = cap.kind === 'prlimit' ? `no memory cgroup here: ${cap.reason}` : '';
if (noCgroup) console.warn(`sandbox-memory: skipped, ${noCgroup}`);

let server: TestServer;
let alice: Client;

beforeAll(async () => {
  server = await startServer({ CSAI_SANDBOX_MEMORY_MB: '256', CSAI_SANDBOX_TIMEOUT_MS: '20000', CSAI_SANDBOX_CPU_SECONDS: '15' });
  const signed = await signedInUser(server);
  alice = signed.client;
  // An administrator: the tool list shows the memory cap to administrators.
  makeAdmin(server, signed.email);
});

afterAll(async () => {
  await server?.close();
}, 60_000);

async function run(code: string) {
  const res = await alice.post<CodeExecutionResult>('/api/v1/code/run', { code });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** Four processes, each holding 100 MB it has written to (under the 256 MB per-process limit), 400 MB together. */
const FOUR_TIMES_100MB = [
  'import os, time',
  'kids = []',
  'for i in range(4):',
  '    pid = os.fork()',
  '    if pid == 0:',
  '        block = bytearray(100 * 1024 * 1024)',
  '        for j in range(0, len(block), 4096): block[j] = 1',
  '        print("child", i, "holds 100 MB", flush=True)',
  '        time.sleep(10)',
  '        os._exit(0)',
  '    kids.append(pid)',
  'for pid in kids: os.waitpid(pid, 0)',
  'print("all children finished")',
].join('\n');

describe('the memory limit covers the whole run', () => {
  it('says on /tools which memory cap is in force', async () => {
    const tools = await alice.get<Array<{ tools: Array<{ value: string; enabled: boolean; description: string }> }>>('/api/v1/tools');
    const entry = tools.body.data.flatMap((g) => g.tools).find((t) => t.value === 'code_execution')!;
    expect(entry.enabled).toBe(true);
    if (cap.kind === 'prlimit') expect(entry.description).toContain('内存上限：每个进程 256 MB（prlimit');
    else expect(entry.description).toContain(`内存上限：每次运行所有进程合计 256 MB（${cap.kind === 'cgroup2' ? 'cgroup v2' : 'cgroup v1 内存控制器'}）`);
  });

  it.skipIf(noCgroup)('stops a run whose processes each stay under the limit but together pass it, and says it was the memory limit', { timeout: 60_000 }, async () => {
    const out = await run(FOUR_TIMES_100MB);
    expect(out.status, out.stderr).toBe('memory_limit');
    expect(out.message).toBe('内存超过上限（整次运行的所有进程合计 256 MB），程序已被停止');
    expect(out.stdout).not.toContain('all children finished');
    // Well before the wall-clock limit: stopped when the kernel hit the cap, not at the time limit.
    expect(out.duration_ms).toBeLessThan(15_000);
    // The run's cgroup is gone, and the next run is fine.
    if (cap.kind !== 'prlimit') expect(fs.readdirSync(cap.parent).filter((n) => n.startsWith(`csai-run-${process.pid}-`))).toEqual([]);
    const ok = await run('print(sum(range(10)))');
    expect(ok.status).toBe('ok');
    expect(ok.stdout).toBe('45\n');
  });

  it.skipIf(noCgroup)('counts what the run writes to its work directory (tmpfs) too', { timeout: 60_000 }, async () => {
    // 12 files of 15 MB, 4 in each tmpfs (under the 16 MB file and 64 MB disk limits), plus a process holding 100 MB.
    const code = [
      'for d in ("/work", "/tmp", "/dev/shm"):',
      '    for n in range(4):',
      '        with open(f"{d}/big{n}.bin", "wb") as f:',
      '            for k in range(15): f.write(b"x" * (1024 * 1024))',
      'block = bytearray(100 * 1024 * 1024)',
      'for j in range(0, len(block), 4096): block[j] = 1',
      'print("still here")',
    ].join('\n');
    const out = await run(code);
    expect(out.status, `${out.message} ${out.stderr}`).toBe('memory_limit');
    expect(out.stdout).not.toContain('still here');
  });

  it('a run under the cap is untouched', { timeout: 60_000 }, async () => {
    const out = await run('import os\nb = bytearray(60 * 1024 * 1024)\nfor j in range(0, len(b), 4096): b[j] = 1\nprint(os.getpid() > 0)');
    expect(out.status, out.stderr).toBe('ok');
    expect(out.stdout).toBe('True\n');
    expect(path.isAbsolute(server.dataDir)).toBe(true);
  });
});
