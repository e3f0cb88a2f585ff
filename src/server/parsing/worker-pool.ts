import fs from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { ParseKind, ParseResult, ParseTask, WorkerMessage } from './protocol';

/** Thrown to pending tasks when the pool closes (server shutting down). */
export class PoolClosedError extends Error {
  constructor() {
    super('parse pool closed');
  }
}

/** Starts a worker from source through tsx (tests, dev) or from the bundle (dist/server/parse-worker.js). */
function startWorker(): Worker {
  const here = import.meta.url;
  // 2 GB: V8 lets a heap grow after a major GC by at most 4× when its limit is at least kMaxSize
  // (1024 MB × the pointer multiplier, 2 in Node 20: src/heap/heap-controller), and by 1.3–2× scaled
  // with the limit below it (1.6× at 1 GB). At 1 GB a parse ran so many more major GCs that it took
  // about a fifth more CPU per document.
  const limits = { resourceLimits: { maxOldGenerationSizeMb: 2048 } };
  if (here.endsWith('.ts')) {
    const target = new URL('./parse-worker.ts', here).href;
    const boot = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(target)}, ${JSON.stringify(here)}))`;
    return new Worker(boot, { eval: true, ...limits });
  }
  return new Worker(new URL('./parse-worker.js', here), limits);
}

interface Slot {
  worker: Worker;
  busy: boolean;
}

/**
 * When a worker is replaced after a task (issue 16 #2: memory after large jobs). pdf.js caches,
 * RDKit's WebAssembly memory (which never shrinks) and OCR page images stay with the thread that
 * grew them; ending the thread gives them back to the system, and the next task starts a fresh one.
 */
export interface RecyclePolicy {
  /** After a task that left the worker holding more than this many MB (its heap plus ArrayBuffers and WebAssembly memory). */
  workerMemoryMb: number;
  /** After a task on a file of at least this many MB. */
  largeFileMb: number;
}
export const DEFAULT_RECYCLE: RecyclePolicy = { workerMemoryMb: 384, largeFileMb: 32 };
const MB = 1024 * 1024;
interface Pending {
  resolve: (r: ParseResult) => void;
  reject: (e: Error) => void;
  onProgress: (percent: number, text?: string) => void;
  slot: Slot;
  timer: NodeJS.Timeout;
  /** The size of the task's file (recycling looks at it). */
  bytes: number;
}

/**
 * Parsing runs in worker threads (node:worker_threads) so pdf.js, RDKit and OCR never block the
 * server's event loop. A worker that dies or overruns the time limit is replaced.
 */
export function workerPool(size: number, opts: { taskTimeoutMs: number; recycle?: RecyclePolicy }) {
  const recycle = opts.recycle ?? DEFAULT_RECYCLE;
  const stats = { started: 0, recycled: 0, lastWorkerMb: 0 };
  const slots: Slot[] = [];
  const waiting: Array<() => void> = [];
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed = false;

  const spawn = (): Slot => {
    const slot: Slot = { worker: startWorker(), busy: false };
    stats.started++;
    slot.worker.unref();
    slot.worker.on('message', (msg: WorkerMessage) => {
      const p = pending.get(msg.taskId);
      if (!p) return;
      if (msg.type === 'progress') return p.onProgress(msg.percent, msg.text);
      stats.lastWorkerMb = msg.memoryMb;
      finish(msg.taskId, msg.type === 'done' ? { result: msg.result } : { error: new Error(msg.message) }, msg.memoryMb);
    });
    const onDeath = (err: Error) => {
      for (const [id, p] of pending) if (p.slot === slot) finish(id, { error: closed ? new PoolClosedError() : err });
      const i = slots.indexOf(slot);
      if (i >= 0) slots.splice(i, 1);
      release();
    };
    slot.worker.on('error', onDeath);
    slot.worker.on('exit', (code) => onDeath(new Error(`解析进程意外退出（${code}）`)));
    slots.push(slot);
    return slot;
  };

  function finish(taskId: number, outcome: { result: ParseResult } | { error: Error }, workerMb = 0) {
    const p = pending.get(taskId);
    if (!p) return;
    pending.delete(taskId);
    clearTimeout(p.timer);
    p.slot.busy = false;
    // A large file, or a worker left holding much memory: the worker goes, and its memory with it.
    if (!closed && slots.includes(p.slot) && (workerMb > recycle.workerMemoryMb || p.bytes >= recycle.largeFileMb * MB)) retire(p.slot);
    if ('result' in outcome) p.resolve(outcome.result);
    else p.reject(outcome.error);
    release();
  }

  /** Takes a worker out of the pool and ends it (its thread's heap and WebAssembly memory are freed). */
  function retire(slot: Slot) {
    slots.splice(slots.indexOf(slot), 1);
    stats.recycled++;
    void slot.worker.terminate();
  }

  function release() {
    const next = waiting.shift();
    if (next) next();
  }

  const acquire = async (): Promise<Slot> => {
    for (;;) {
      if (closed) throw new PoolClosedError();
      const free = slots.find((s) => !s.busy);
      if (free) return free;
      if (slots.length < size) return spawn();
      await new Promise<void>((r) => waiting.push(r));
    }
  };

  return {
    async run(kind: ParseKind, path: string, title: string, onProgress: (percent: number, text?: string) => void): Promise<ParseResult> {
      const bytes = await fs.stat(path).then((st) => st.size, () => 0);
      const slot = await acquire();
      slot.busy = true;
      const taskId = nextId++;
      return new Promise<ParseResult>((resolve, reject) => {
        const timer = setTimeout(() => {
          finish(taskId, { error: new Error('解析超时') });
          void slot.worker.terminate();
        }, opts.taskTimeoutMs);
        pending.set(taskId, { resolve, reject, onProgress, slot, timer, bytes });
        slot.worker.postMessage({ taskId, kind, path, title } satisfies ParseTask);
      });
    },
    get closed() {
      return closed;
    },
    /** Workers started and retired by the recycle policy since the pool was made, and the memory the last finished task left its worker holding (MB). */
    stats: () => ({ ...stats }),
    async close() {
      closed = true;
      for (const w of waiting.splice(0)) w();
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}

export type WorkerPool = ReturnType<typeof workerPool>;
