import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workerPool, type WorkerPool } from '../../src/server/parsing/worker-pool';
import { makePdf } from './knowledge-helpers';

// postgres: sqlite-only — it measures parse workers' memory and stores nothing (its helpers reach the database module; it opens none).

// Issue 16 #2: memory is given back after a large parse. A worker thread keeps what pdf.js, RDKit's
// WebAssembly memory and OCR images grew to; the pool ends a worker after a large file or a task
// that grew the process, and the next task gets a fresh one.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-parse-mem-'));
const small = path.join(dir, 'small.pdf');
const large = path.join(dir, 'large.pdf');
fs.writeFileSync(small, makePdf([['A small document', 'One page.']]));
fs.writeFileSync(large, makePdf(Array.from({ length: 150 }, (_, p) => Array.from({ length: 30 }, (_, l) => `Page ${p + 1} line ${l + 1}: aspirin ibuprofen paracetamol, a long line of text`))));
const MB = 1024 * 1024;
// Resident memory outside this thread's own JS heap: the workers' heaps and WebAssembly memory are
// in it, while what the test and vitest allocate here (collected whenever V8 likes) is not.
const rss = () => {
  const m = process.memoryUsage();
  return m.rss - m.heapTotal;
};
const settle = () => new Promise((r) => setTimeout(r, 500));
/**
 * The lowest resident size seen within `ms`, stopping early once it is under `below`: an ended
 * worker's memory is given back as its thread is torn down, which takes longer on a busy machine.
 */
async function lowestRss(below: number, ms = 20_000): Promise<number> {
  let lowest = rss();
  for (const end = Date.now() + ms; lowest >= below && Date.now() < end; ) {
    await new Promise((r) => setTimeout(r, 250));
    lowest = Math.min(lowest, rss());
  }
  return lowest;
}

const pools: WorkerPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('parse workers after a large job', () => {
  it('are replaced after a large file, and resident memory comes back to where a fresh worker leaves it', async () => {
    const largeMb = fs.statSync(large).size / MB;
    const pool = workerPool(1, { taskTimeoutMs: 300_000, recycle: { workerMemoryMb: 100_000, largeFileMb: largeMb / 2 } });
    pools.push(pool);
    await pool.run('pdf', small, 'small', () => {});
    await settle();
    const baseline = rss();
    expect(pool.stats()).toMatchObject({ started: 1, recycled: 0 });

    const result = await pool.run('pdf', large, 'large', () => {});
    expect(result.pageCount).toBe(150);
    expect(pool.stats().recycled).toBe(1);

    // The next document gets a new worker; the memory of the large parse went with the old one.
    await pool.run('pdf', small, 'small', () => {});
    expect(pool.stats()).toMatchObject({ started: 2, recycled: 1 });
    const after = await lowestRss(baseline + 64 * MB);
    expect((after - baseline) / MB, `baseline ${Math.round(baseline / MB)} MB, after ${Math.round(after / MB)} MB`).toBeLessThan(64);
  }, 300_000);

  it('are replaced once a task leaves them holding more than the limit, and kept below it', async () => {
    const policy = { workerMemoryMb: 100_000, largeFileMb: 100_000 };
    const pool = workerPool(1, { taskTimeoutMs: 300_000, recycle: policy });
    pools.push(pool);
    await pool.run('pdf', small, 'small', () => {});
    // What a warm worker holds after a small document (its heap, ArrayBuffers, WebAssembly memory).
    const warm = pool.stats().lastWorkerMb;
    expect(warm).toBeGreaterThan(0);
    policy.workerMemoryMb = warm + 64;
    await pool.run('pdf', small, 'small', () => {});
    expect(pool.stats()).toMatchObject({ started: 1, recycled: 0 });
    policy.workerMemoryMb = Math.floor(warm / 2);
    await pool.run('pdf', small, 'small', () => {});
    expect(pool.stats()).toMatchObject({ started: 1, recycled: 1 });
    // The next task runs in a new worker.
    policy.workerMemoryMb = 100_000;
    await pool.run('pdf', small, 'small', () => {});
    expect(pool.stats()).toMatchObject({ started: 2, recycled: 1 });
  }, 300_000);
});
