import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Socket } from 'node:net';
import { TURN_FD, type ParseKind, type ParseResult, type ParseTask, type PoolMessage, type StructureInput, type WorkerMessage } from './protocol';

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
  // The server tests point CSAI_TEST_PARSE_WORKER at a parse-worker.js they bundle from these
  // sources at the start of their run (tests/server/build-global.ts): a process start through tsx
  // cost about 8 s of CPU against 3 s for the bundle, and the suite starts hundreds.
  const bundled = process.env.CSAI_TEST_PARSE_WORKER;
  const fromSource = here.endsWith('.ts') && !bundled;
  if (fromSource) execArgv.unshift('--import', pathToFileURL(createRequire(here).resolve('tsx')).href);
  const script = bundled || fileURLToPath(new URL(fromSource ? './parse-worker.ts' : './parse-worker.js', here));
  // fd 4 is the turn pipe (protocol.ts TURN_FD): a paused parse waits on it for its next turn.
  return fork(script, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc', 'pipe'] });
}

/**
 * How long a parse keeps its process before it yields to a waiting one of the same standing
 * (round-robin between documents of one owner, or when tasks outnumber processes). A waiting
 * owner with fewer parses running takes a turn at the next page, whatever the quantum.
 */
export const TURN_MS = 5_000;

/**
 * How long a process beyond the pool's size (the spare, or one that held a paused parse) stays
 * idle before it is ended. Ending it the moment its task finished made the pool start a process
 * per document whenever parses outnumbered processes (the spare taken, another spare started, the
 * finished one ended): a start costs seconds of CPU (node, pdf.js, the parsers) against tens of
 * milliseconds for a small PDF, and a backlog after kill -9 cycles parsed at a process start per
 * document.
 */
export const IDLE_EXTRA_MS = 15_000;

interface Slot {
  worker: ChildProcess;
  /** The task the process holds (running, or paused at a page boundary), if any. */
  task: Task | undefined;
  /** Serial of the last pause asked of this process; a resume writes it to the turn pipe. */
  pauseSerial: number;
  /** When the process last finished a task (or started), for retiring processes idle beyond the pool's size. */
  idleSince: number;
}

/**
 * When a worker is replaced after a task (memory after large jobs). pdf.js caches,
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

interface Task {
  id: number;
  message: ParseTask;
  /** Whose document: parses are shared fairly between owners. */
  owner: string;
  /** A background task (the structure step after a document's text): runs only where no other waits. */
  low: boolean;
  state: 'waiting' | 'running' | 'paused';
  slot: Slot | undefined;
  resolve: (r: ParseResult) => void;
  reject: (e: Error) => void;
  onProgress: (percent: number, text?: string) => void;
  /** When the current turn began (running), or when the task last stopped running or arrived (waiting, paused). */
  since: number;
  /** Running time left before the task times out (paused time does not count). */
  budgetMs: number;
  timer: NodeJS.Timeout | undefined;
  /** The size of the task's file (recycling looks at it). */
  bytes: number;
}

/**
 * Parsing runs in child processes (startWorker) so pdf.js, RDKit and OCR never block the server's
 * event loop. A worker that dies or overruns the time limit is replaced.
 *
 * Fair sharing: the pool may hold more parses than it has running processes (the job
 * runner claims one extra parse for an owner with none running). At most `size` run at once; the
 * others are paused at a page boundary in their own process (parse-worker.ts blocks on its turn
 * pipe), which keeps their progress, and resumed in turn. Which run is chosen owner by owner: every
 * owner's best parse before anyone's second, a parse inside its turn (TURN_MS) before one that
 * waited longest. So one user's long OCR documents yield to another user's small one within a page.
 */
export function workerPool(size: number, opts: { taskTimeoutMs: number; recycle?: RecyclePolicy; turnMs?: number; spare?: boolean; idleExtraMs?: number }) {
  const recycle = opts.recycle ?? DEFAULT_RECYCLE;
  const idleExtraMs = opts.idleExtraMs ?? IDLE_EXTRA_MS;
  const spare = opts.spare ?? false;
  const turnMs = opts.turnMs ?? TURN_MS;
  const stats = { started: 0, recycled: 0, lastWorkerMb: 0, pauses: 0 };
  const slots: Slot[] = [];
  const tasks = new Map<number, Task>();
  let nextId = 1;
  let closed = false;
  let rotation: NodeJS.Timeout | undefined;
  let idleTrim: NodeJS.Timeout | undefined;

  const singleThreadedGc = collectsOnOwnThread(size);
  const spawn = (): Slot => {
    const slot: Slot = { worker: startWorker(singleThreadedGc), task: undefined, pauseSerial: 0, idleSince: Date.now() };
    stats.started++;
    // An idle pool does not keep the server (or a test) running.
    slot.worker.unref();
    slot.worker.channel?.unref();
    // The turn pipe (a socket): errors mean the process died, which its exit handler deals with.
    const turnPipe = slot.worker.stdio[TURN_FD] as Socket | null;
    turnPipe?.on('error', () => undefined);
    turnPipe?.unref();
    slot.worker.on('message', (msg: WorkerMessage) => {
      const task = tasks.get(msg.taskId);
      if (!task) return;
      if (msg.type === 'progress') return task.onProgress(msg.percent, msg.text);
      stats.lastWorkerMb = msg.memoryMb;
      finish(task, msg.type === 'done' ? { result: msg.result } : { error: new Error(msg.message) }, msg.memoryMb);
    });
    const onDeath = (err: Error) => {
      const i = slots.indexOf(slot);
      if (i >= 0) slots.splice(i, 1);
      if (slot.task) finish(slot.task, { error: closed ? new PoolClosedError() : err });
      else schedule();
    };
    slot.worker.on('error', onDeath);
    slot.worker.on('exit', (code, signal) => onDeath(new Error(`解析进程意外退出（${code ?? signal}）`)));
    slots.push(slot);
    return slot;
  };

  const startClock = (task: Task) => {
    const began = Date.now();
    task.timer = setTimeout(() => {
      const slot = task.slot;
      finish(task, { error: new Error('解析超时') });
      if (slot) void terminate(slot);
    }, task.budgetMs);
    task.since = began;
  };
  const stopClock = (task: Task) => {
    clearTimeout(task.timer);
    task.timer = undefined;
    task.budgetMs = Math.max(0, task.budgetMs - (Date.now() - task.since));
    task.since = Date.now();
  };

  function finish(task: Task, outcome: { result: ParseResult } | { error: Error }, workerMb = 0) {
    if (!tasks.delete(task.id)) return;
    if (task.state === 'running') clearTimeout(task.timer);
    const slot = task.slot;
    if (slot) {
      slot.task = undefined;
      slot.idleSince = Date.now();
    }
    // A large file, or a worker left holding much memory: the worker goes, and its memory with it.
    // (Idle processes beyond the pool's size go after IDLE_EXTRA_MS: trimIdle.)
    if (slot && !closed && slots.includes(slot) && (workerMb > recycle.workerMemoryMb || task.bytes >= recycle.largeFileMb * MB)) retire(slot);
    if ('result' in outcome) task.resolve(outcome.result);
    else task.reject(outcome.error);
    schedule();
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

  /** Which tasks should run now: up to `size`, owner by owner (see workerPool). */
  function chooseRunning(now: number): Set<Task> {
    const inTurn = (t: Task) => t.state === 'running' && now - t.since < turnMs;
    const order = [...tasks.values()].sort(
      (a, b) => Number(a.low) - Number(b.low) || Number(inTurn(b)) - Number(inTurn(a)) || (a.state === 'running' ? now : a.since) - (b.state === 'running' ? now : b.since) || a.id - b.id,
    );
    const chosen = new Set<Task>();
    const perOwner = new Map<string, number>();
    while (chosen.size < size) {
      let best: Task | undefined;
      for (const t of order) {
        if (chosen.has(t)) continue;
        // Every parse before any background task; among each, owner by owner.
        if (!best || (t.low === best.low && (perOwner.get(t.owner) ?? 0) < (perOwner.get(best.owner) ?? 0))) best = t;
      }
      if (!best) break;
      chosen.add(best);
      perOwner.set(best.owner, (perOwner.get(best.owner) ?? 0) + 1);
    }
    return chosen;
  }

  function pause(task: Task) {
    const slot = task.slot!;
    stopClock(task);
    task.state = 'paused';
    stats.pauses++;
    slot.pauseSerial++;
    slot.worker.send({ type: 'pause', taskId: task.id, serial: slot.pauseSerial } satisfies PoolMessage, () => undefined);
  }

  function resume(task: Task) {
    const slot = task.slot!;
    task.state = 'running';
    startClock(task);
    const token = Buffer.alloc(4);
    token.writeUInt32LE(slot.pauseSerial);
    (slot.worker.stdio[TURN_FD] as Socket | null)?.write(token);
  }

  function start(task: Task) {
    const slot = slots.find((s) => !s.task) ?? spawn();
    slot.task = task;
    task.slot = slot;
    task.state = 'running';
    startClock(task);
    slot.worker.send(task.message, (err) => {
      if (err) finish(task, { error: err });
    });
  }

  /**
   * Ends processes beyond the pool's size that have been idle for idleExtraMs (the longest idle
   * first), and comes back when the next one would be due.
   */
  function trimIdle() {
    if (idleTrim) clearTimeout(idleTrim);
    idleTrim = undefined;
    if (closed) return;
    const now = Date.now();
    const idle = slots.filter((s) => !s.task).sort((a, b) => a.idleSince - b.idleSince);
    // While parses run, one idle process is the spare (schedule would start another at once).
    if (spare && [...tasks.values()].some((t) => t.state === 'running')) idle.pop();
    let extra = slots.length - size;
    for (const s of idle) {
      if (extra <= 0) return;
      const due = s.idleSince + idleExtraMs;
      if (due > now) {
        idleTrim = setTimeout(trimIdle, due - now);
        idleTrim.unref();
        return;
      }
      retire(s);
      extra--;
    }
  }

  /** Pauses, resumes and starts tasks so that the chosen ones run; rotates turns while any wait. */
  function schedule() {
    if (closed) return;
    const chosen = chooseRunning(Date.now());
    for (const t of tasks.values()) if (t.state === 'running' && !chosen.has(t)) pause(t);
    for (const t of chosen) {
      if (t.state === 'paused') resume(t);
      else if (t.state === 'waiting') start(t);
    }
    // Every process holds a parse: one spare process is started (it loads pdf.js and the parsers
    // now), so another owner's document starts at once instead of after a process start-up.
    if (spare && slots.length < size * 2 && slots.every((s) => s.task) && [...tasks.values()].some((t) => t.state === 'running')) spawn();
    trimIdle();
    const someWait = [...tasks.values()].some((t) => t.state !== 'running');
    if (someWait && !rotation) {
      rotation = setTimeout(() => {
        rotation = undefined;
        schedule();
      }, turnMs);
      rotation.unref();
    } else if (!someWait && rotation) {
      clearTimeout(rotation);
      rotation = undefined;
    }
  }

  return {
    /**
     * Parses a file in a parse process; `owner` (whose document it is) decides its share when parses
     * outnumber processes. With `structures`, only the drawings' structures are read (the
     * structure job), as a background task: every other parse goes first, taking the task's process
     * at its next page. `signal` ends the task (its process is ended with it; the promise rejects).
     */
    async run(
      kind: ParseKind,
      path: string,
      title: string,
      onProgress: (percent: number, text?: string) => void,
      owner = '',
      extra: { structures?: StructureInput; timeoutMs?: number; signal?: AbortSignal } = {},
    ): Promise<ParseResult> {
      const bytes = await fs.stat(path).then((st) => st.size, () => 0);
      if (closed) throw new PoolClosedError();
      extra.signal?.throwIfAborted();
      const id = nextId++;
      const message: ParseTask = { taskId: id, kind, path, title, ...(extra.structures ? { structures: extra.structures } : {}) };
      return new Promise<ParseResult>((resolve, reject) => {
        const task: Task = { id, message, owner, low: !!extra.structures, state: 'waiting', slot: undefined, resolve, reject, onProgress, since: Date.now(), budgetMs: extra.timeoutMs ?? opts.taskTimeoutMs, timer: undefined, bytes };
        tasks.set(id, task);
        extra.signal?.addEventListener(
          'abort',
          () => {
            if (!tasks.has(task.id)) return;
            // Its process may be in the middle of a page (or paused): it goes, and a fresh one takes its place when needed.
            const slot = task.slot;
            if (slot && slots.includes(slot)) {
              slots.splice(slots.indexOf(slot), 1);
              void terminate(slot);
            }
            finish(task, { error: new Error('解析已取消') });
          },
          { once: true },
        );
        schedule();
      });
    },
    get closed() {
      return closed;
    },
    /** Workers started and retired by the recycle policy since the pool was made, pauses for fairness, and the memory the last finished task left its worker holding (MB). */
    stats: () => ({ ...stats }),
    async close() {
      closed = true;
      if (rotation) clearTimeout(rotation);
      if (idleTrim) clearTimeout(idleTrim);
      for (const t of [...tasks.values()]) {
        tasks.delete(t.id);
        clearTimeout(t.timer);
        t.reject(new PoolClosedError());
      }
      await Promise.all(slots.map(terminate));
    },
  };
}

export type WorkerPool = ReturnType<typeof workerPool>;
