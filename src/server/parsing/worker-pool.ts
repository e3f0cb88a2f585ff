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
  const limits = { resourceLimits: { maxOldGenerationSizeMb: 1024 } };
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
interface Pending {
  resolve: (r: ParseResult) => void;
  reject: (e: Error) => void;
  onProgress: (percent: number, text?: string) => void;
  slot: Slot;
  timer: NodeJS.Timeout;
}

/**
 * Parsing runs in worker threads (node:worker_threads) so pdf.js, RDKit and OCR never block the
 * server's event loop. A worker that dies or overruns the time limit is replaced.
 */
export function workerPool(size: number, opts: { taskTimeoutMs: number }) {
  const slots: Slot[] = [];
  const waiting: Array<() => void> = [];
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed = false;

  const spawn = (): Slot => {
    const slot: Slot = { worker: startWorker(), busy: false };
    slot.worker.unref();
    slot.worker.on('message', (msg: WorkerMessage) => {
      const p = pending.get(msg.taskId);
      if (!p) return;
      if (msg.type === 'progress') return p.onProgress(msg.percent, msg.text);
      finish(msg.taskId, msg.type === 'done' ? { result: msg.result } : { error: new Error(msg.message) });
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

  function finish(taskId: number, outcome: { result: ParseResult } | { error: Error }) {
    const p = pending.get(taskId);
    if (!p) return;
    pending.delete(taskId);
    clearTimeout(p.timer);
    p.slot.busy = false;
    if ('result' in outcome) p.resolve(outcome.result);
    else p.reject(outcome.error);
    release();
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
      const slot = await acquire();
      slot.busy = true;
      const taskId = nextId++;
      return new Promise<ParseResult>((resolve, reject) => {
        const timer = setTimeout(() => {
          finish(taskId, { error: new Error('解析超时') });
          void slot.worker.terminate();
        }, opts.taskTimeoutMs);
        pending.set(taskId, { resolve, reject, onProgress, slot, timer });
        slot.worker.postMessage({ taskId, kind, path, title } satisfies ParseTask);
      });
    },
    get closed() {
      return closed;
    },
    async close() {
      closed = true;
      for (const w of waiting.splice(0)) w();
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}

export type WorkerPool = ReturnType<typeof workerPool>;
