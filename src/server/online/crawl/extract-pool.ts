import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import type { ExtractedArticle } from './extract';

/** Starts an extraction thread from source through tsx (tests, dev) or from the bundle (dist/server/extract-worker.js). */
function startWorker(): Worker {
  const here = import.meta.url;
  const limits = { resourceLimits: { maxOldGenerationSizeMb: 512 } };
  if (here.endsWith('.ts')) {
    const target = new URL('./extract-worker.ts', here).href;
    const boot = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(target)}, ${JSON.stringify(here)}))`;
    return new Worker(boot, { eval: true, ...limits });
  }
  return new Worker(new URL('./extract-worker.js', here), limits);
}

const answer = z.union([
  z.object({
    id: z.number(),
    ok: z.literal(true),
    article: z.object({
      title: z.string(),
      site: z.string(),
      markdown: z.string(),
      excerpt: z.string(),
      byline: z.string().nullable(),
      lang: z.string().nullable(),
      publishedTime: z.string().nullable(),
    }),
  }),
  z.object({ id: z.number(), ok: z.literal(false), message: z.string() }),
]);

/** An extraction that did not finish in time (a pathological page); its thread was ended. */
export class ExtractTimeoutError extends Error {
  constructor() {
    super('extraction timed out');
    this.name = 'ExtractTimeoutError';
  }
}

export interface ExtractPoolOptions {
  /** Threads at most (default: the machine's cores, at most 4). */
  size?: number;
  /** Longest one page may take before its thread is ended (default 20 s). */
  taskTimeoutMs?: number;
}

interface Slot {
  worker: Worker;
  busy: boolean;
}
interface Pending {
  resolve: (a: ExtractedArticle) => void;
  reject: (e: Error) => void;
  slot: Slot;
  timer: NodeJS.Timeout;
}

/**
 * Page extraction (`extractArticle`: linkedom, Readability, markdown) in worker threads: tens of
 * milliseconds of CPU per page stay off the server's event loop, and pages crawled at once (deep
 * research reads several) use the machine's cores. Threads start on first use, are unref'd (they
 * never hold the process open) and are replaced when one dies or overruns the time limit.
 */
export function createExtractPool({ size = Math.max(1, Math.min(4, os.availableParallelism())), taskTimeoutMs = 20_000 }: ExtractPoolOptions = {}) {
  const slots: Slot[] = [];
  const waiting: Array<() => void> = [];
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed = false;

  const release = () => waiting.shift()?.();

  function finish(id: number, outcome: { article: ExtractedArticle } | { error: Error }) {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    clearTimeout(p.timer);
    p.slot.busy = false;
    if ('article' in outcome) p.resolve(outcome.article);
    else p.reject(outcome.error);
    release();
  }

  const spawn = (): Slot => {
    const slot: Slot = { worker: startWorker(), busy: false };
    slot.worker.unref();
    slot.worker.on('message', (raw: unknown) => {
      const msg = answer.safeParse(raw);
      if (!msg.success) return;
      finish(msg.data.id, msg.data.ok ? { article: msg.data.article } : { error: new Error(msg.data.message) });
    });
    const onDeath = (err: Error) => {
      const i = slots.indexOf(slot);
      if (i >= 0) slots.splice(i, 1);
      for (const [id, p] of pending) if (p.slot === slot) finish(id, { error: err });
      release();
    };
    slot.worker.on('error', onDeath);
    slot.worker.on('exit', (code) => onDeath(new Error(`extraction thread exited (${code})`)));
    slots.push(slot);
    return slot;
  };

  const acquire = async (): Promise<Slot> => {
    for (;;) {
      if (closed) throw new Error('extraction pool closed');
      const free = slots.find((s) => !s.busy);
      if (free) return free;
      if (slots.length < size) return spawn();
      await new Promise<void>((r) => waiting.push(r));
    }
  };

  return {
    size,
    async extract(html: string, url: URL): Promise<ExtractedArticle> {
      const slot = await acquire();
      slot.busy = true;
      const id = nextId++;
      return new Promise<ExtractedArticle>((resolve, reject) => {
        const timer = setTimeout(() => {
          finish(id, { error: new ExtractTimeoutError() });
          const i = slots.indexOf(slot);
          if (i >= 0) slots.splice(i, 1);
          void slot.worker.terminate();
        }, taskTimeoutMs);
        pending.set(id, { resolve, reject, slot, timer });
        slot.worker.postMessage({ id, html, url: url.href });
      });
    },
    async close() {
      closed = true;
      for (const w of waiting.splice(0)) w();
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}
export type ExtractPool = ReturnType<typeof createExtractPool>;

let shared: ExtractPool | undefined;
/** The server's one extraction pool, made on first use. */
export const sharedExtractPool = (): ExtractPool => (shared ??= createExtractPool());
