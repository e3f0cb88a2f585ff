import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ParseKind, ParseResult, ParseTask, WorkerMessage } from './protocol';

/** Thrown to pending tasks when the pool closes (server shutting down). */
export class PoolClosedError extends Error {
  constructor() {
    super('parse pool closed');
  }
}

/**
 * Whether a pool of this many parse processes leaves V8's garbage collector a core of its own.
 * V8 collects a heap with helper threads beside the JavaScript thread (parallel scavenges,
 * concurrent marking and sweeping): work that is free while a core is idle, and that competes
 * with the other parses when every core already runs one (the pool's size plus the server's
 * main thread). There each parse process collects on its own thread (--single-threaded-gc).
 * On this 2-core machine, two servers side by side, rounds alternating (a copy of lshort-zh-cn.pdf
 * alone, then two copies at once; medians of 14 rounds): two at once took 990 and 916 ms against
 * 1,186 and 1,003 ms in worker threads, one alone 882 and 821 ms against 837 and 788 ms — the
 * pair's throughput over one alone's 1.86× and 1.75× against 1.57× and 1.58×. Processes without
 * the flag measured as threads did (1.59× against 1.64×).
 */
export const collectsOnOwnThread = (size: number, cores = os.availableParallelism()) => cores < size + 2;

/**
 * Starts a parse process: the bundle's parse-worker.js (dist/server), or its source through tsx
 * (tests, dev). A process, not a worker thread, because V8's garbage-collector flags are
 * process-wide: the server's own thread keeps its concurrent collector while the parses run
 * single-threaded (collectsOnOwnThread). A crash in pdf.js or RDKit ends only that process.
 */
function startWorker(singleThreadedGc: boolean): ChildProcess {
  const here = import.meta.url;
  // 2 GB: V8 lets a heap grow after a major GC by at most 4× when its limit is at least kMaxSize
  // (1024 MB × the pointer multiplier, 2 in Node 20: src/heap/heap-controller), and by 1.3–2× scaled
  // with the limit below it (1.6× at 1 GB). At 1 GB a parse ran so many more major GCs that it took
  // about a fifth more CPU per document.
  const execArgv = ['--max-old-space-size=2048', ...(singleThreadedGc ? ['--single-threaded-gc'] : [])];
  const fromSource = here.endsWith('.ts');
  if (fromSource) execArgv.unshift('--import', pathToFileURL(createRequire(here).resolve('tsx')).href);
  const script = fileURLToPath(new URL(fromSource ? './parse-worker.ts' : './parse-worker.js', here));
  return fork(script, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

interface Slot {
  worker: ChildProcess;
  busy: boolean;
}

/**
 * When a worker is replaced after a task (issue 16 #2: memory after large jobs). pdf.js caches,
 * RDKit's WebAssembly memory (which never shrinks) and OCR page images stay with the process that
 * grew them; ending it gives them back to the system, and the next task starts a fresh one.
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
 * Parsing runs in child processes (startWorker) so pdf.js, RDKit and OCR never block the server's
 * event loop. A worker that dies or overruns the time limit is replaced.
 */
export function workerPool(size: number, opts: { taskTimeoutMs: number; recycle?: RecyclePolicy }) {
  const recycle = opts.recycle ?? DEFAULT_RECYCLE;
  const stats = { started: 0, recycled: 0, lastWorkerMb: 0 };
  const slots: Slot[] = [];
  const waiting: Array<() => void> = [];
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed = false;

  const singleThreadedGc = collectsOnOwnThread(size);
  const spawn = (): Slot => {
    const slot: Slot = { worker: startWorker(singleThreadedGc), busy: false };
    stats.started++;
    // An idle pool does not keep the server (or a test) running.
    slot.worker.unref();
    slot.worker.channel?.unref();
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
    slot.worker.on('exit', (code, signal) => onDeath(new Error(`解析进程意外退出（${code ?? signal}）`)));
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

  /** Takes a worker out of the pool and ends it (its heap and WebAssembly memory are freed). */
  function retire(slot: Slot) {
    slots.splice(slots.indexOf(slot), 1);
    stats.recycled++;
    void terminate(slot);
  }

  /** Ends a worker's process; resolves once it has exited. */
  function terminate(slot: Slot): Promise<void> {
    const child = slot.worker;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
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
          void terminate(slot);
        }, opts.taskTimeoutMs);
        pending.set(taskId, { resolve, reject, onProgress, slot, timer, bytes });
        slot.worker.send({ taskId, kind, path, title } satisfies ParseTask, (err) => {
          if (err) finish(taskId, { error: err });
        });
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
      await Promise.all(slots.map(terminate));
    },
  };
}

export type WorkerPool = ReturnType<typeof workerPool>;
