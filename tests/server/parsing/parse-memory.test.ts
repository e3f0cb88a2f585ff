import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workerPool, type WorkerPool } from '../../../src/server/parsing/worker-pool';
import { makePdf } from '../knowledge-helpers';

// postgres: sqlite-only — it checks parse workers' memory and stores nothing (its helpers reach the database module; it opens none).

// Memory is given back after a large parse. A parse process keeps what pdf.js, RDKit's
// WebAssembly memory and OCR images grew to; the pool ends a worker after a large file or a task
// that grew the process, and the next task gets a fresh one.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-parse-mem-'));
const small = path.join(dir, 'small.pdf');
const large = path.join(dir, 'large.pdf');
fs.writeFileSync(small, makePdf([['A small document', 'One page.']]));
fs.writeFileSync(large, makePdf(Array.from({ length: 150 }, (_, p) => Array.from({ length: 30 }, (_, l) => `Page ${p + 1} line ${l + 1}: aspirin ibuprofen paracetamol, a long line of text`))));
const MB = 1024 * 1024;
const pools: WorkerPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('parse workers after a large job', () => {
  it('are replaced after a large file, and the next task runs in a worker holding what a fresh one holds', async () => {
    // What the job's process holds (its heap, ArrayBuffers, WebAssembly memory; reported by the
    // worker itself), not the resident size: that moved by 100–180 MB between runs of the same
    // steps on this machine (measured when workers were threads), mostly with a new worker's
    // start-up (loading and compiling pdf.js, memory the allocator keeps), while the large parse
    // itself added about 11 MB.
    const largeMb = fs.statSync(large).size / MB;
    const pool = workerPool(1, { taskTimeoutMs: 300_000, recycle: { workerMemoryMb: 100_000, largeFileMb: largeMb / 2 } });
    pools.push(pool);
    await pool.run('pdf', small, 'small', () => {});
    const fresh = pool.stats().lastWorkerMb;
    expect(pool.stats()).toMatchObject({ started: 1, recycled: 0 });

    const result = await pool.run('pdf', large, 'large', () => {});
    expect(result.pageCount).toBe(150);
    expect(pool.stats().recycled).toBe(1);

    // The next document gets a new worker, holding what the first one held after the same file.
    await pool.run('pdf', small, 'small', () => {});
    expect(pool.stats()).toMatchObject({ started: 2, recycled: 1 });
    expect(Math.abs(pool.stats().lastWorkerMb - fresh), `fresh ${fresh} MB, after ${pool.stats().lastWorkerMb} MB`).toBeLessThan(16);
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
