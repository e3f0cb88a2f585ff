// Sandbox start. p95 of a whole sandboxed run of `print(1)` (the run's memory cgroup
// when one can be made, drop to nobody when root, prlimit, bubblewrap namespaces, Debian python3
// with the launcher) against the 1 s budget, and
// against plain unsandboxed `python3 -c pass` measured in the same run.
import { spawnSync } from 'node:child_process';
import { loadConfig } from '../src/server/config';
import { probeSandbox, runSandboxed } from '../src/server/sandbox/runner';
import { sandboxLimits, sandboxPrograms } from '../src/server/sandbox/service';
import { memoryCap } from '../src/server/sandbox/cgroup';
import type { Figure } from './lib';

const BUDGET_MS = 1000;
const RUNS = 40;

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
}

export async function run(): Promise<Figure[]> {
  const config = loadConfig({ CSAI_DATA_DIR: '/tmp/csai-bench-sandbox' });
  const programs = sandboxPrograms(config);
  const state = probeSandbox(programs);
  if (!state.ok) throw new Error(`sandbox unavailable: ${state.reason}`);
  const limits = sandboxLimits(config);

  const plain: number[] = [];
  const boxed: number[] = [];
  // Interleaved, so both see the same machine load; the first of each is a warm-up.
  for (let i = 0; i <= RUNS; i++) {
    let t = performance.now();
    const p = spawnSync(programs.python, ['-c', 'pass']);
    if (p.status !== 0) throw new Error('python3 -c pass failed');
    if (i) plain.push(performance.now() - t);
    t = performance.now();
    const r = await runSandboxed(programs, limits, 'print(1)', []);
    if (r.stdout !== '1\n') throw new Error(`sandboxed print(1) gave ${JSON.stringify(r)}`);
    if (i) boxed.push(performance.now() - t);
  }
  return [
    {
      name: `sandbox start p95 (print(1) in bubblewrap, memory cap by ${memoryCap().kind}, ${RUNS} runs) against the ${BUDGET_MS} ms budget`,
      value: `${p95(boxed).toFixed(1)} ms`,
      baseline: `${BUDGET_MS} ms`,
      ratio: p95(boxed) / BUDGET_MS,
      target: { op: '<=', ratio: 1 },
    },
    {
      name: 'sandbox start p95 against plain unsandboxed python3 -c pass',
      value: `${p95(boxed).toFixed(1)} ms`,
      baseline: `${p95(plain).toFixed(1)} ms`,
      ratio: p95(boxed) / Math.max(0.001, p95(plain)),
    },
  ];
}
