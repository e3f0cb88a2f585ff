import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { ChemInputError, type DepictOptions, type Depiction, type Descriptors, type MolIdentity, type MolInput, type MolSummary } from './engine';
import { admetOutcome, type AdmetItem, type AdmetOutcome } from './admet/protocol';
import type { MoleculeTask } from './molecule-task';
import type { ChemReady, ChemRequest, ChemResponse } from './protocol';
import { DomainError } from '../errors';

/** Chemistry off the event loop: every call runs in a worker thread with a time limit. */
export interface ChemService {
  describe(input: MolInput): Promise<MolSummary>;
  descriptors(input: MolInput): Promise<Descriptors>;
  molfile(input: MolInput): Promise<string>;
  /** Canonical SMILES and InChIKey of each SMILES (at most 64), null where RDKit cannot read it. */
  identify(smiles: string[]): Promise<(MolIdentity | null)[]>;
  /** `limits.timeoutMs` overrides the service's time limit for this call. */
  depict(input: MolInput, options?: DepictOptions, limits?: CallLimits): Promise<Depiction>;
  /** ADMET rows of up to 50 molecules in one worker call (default limit 60 s); a bad molecule gives its reason in place. */
  admet(items: AdmetItem[], limits?: CallLimits): Promise<AdmetOutcome[]>;
  /** The molecule database's RDKit work; call it through `moleculeChem` (molecule-ops.ts), which checks the answer. */
  molecules(task: MoleculeTask, limits?: CallLimits): Promise<unknown>;
  /** Counts since start: drawings made by a worker and drawings answered from memory. */
  stats(): { drawn: number; cacheHits: number };
  /** Stops the workers and refuses waiting calls; a later call starts new workers. */
  close(): Promise<void>;
}

export interface ChemServiceOptions {
  /** Longest a single call may run before the worker is restarted and the call refused. */
  timeoutMs?: number;
  /** Calls waiting at most; more are refused as busy. */
  maxQueue?: number;
  /** Worker threads (each loads its own RDKit); default 2, or 1 on a single core. */
  workers?: number;
  /** Recent drawings kept (default 256; 0 keeps none). Only small requests are kept. */
  cacheSize?: number;
}

/** The service is busy or its worker failed: not the user's fault (errors.ts makes it a 503). */
export class ChemUnavailableError extends DomainError {
  constructor(message: string) {
    super('chem_unavailable', message);
    this.name = 'ChemUnavailableError';
  }
}

const summary = z.object({ canonicalSmiles: z.string(), formula: z.string(), numAtoms: z.number().int() });
const depiction = summary.extend({ svg: z.string(), highlightedAtoms: z.array(z.number().int()), highlightedBonds: z.array(z.number().int()) });
const descriptors = z.record(z.string(), z.number());
const identities = z.array(z.object({ canonicalSmiles: z.string(), inchiKey: z.string() }).nullable());

type Unsent<T> = T extends ChemRequest ? Omit<T, 'id'> : never;
type ChemCall = Unsent<ChemRequest>;

export interface CallLimits {
  timeoutMs?: number;
}

type Job = {
  request: ChemRequest;
  timeoutMs: number;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  /** Already failed once inside RDKit and was given to a fresh worker. */
  retried?: boolean;
};

/** The file URL of tsx's ESM API (its `./esm/api` export for `import`), found from `from`. */
function tsxEsmApi(from: string): string {
  const pkgFile = createRequire(from).resolve('tsx/package.json');
  const pkg = z
    .object({ exports: z.object({ './esm/api': z.object({ import: z.object({ default: z.string() }) }) }) })
    .parse(JSON.parse(fs.readFileSync(pkgFile, 'utf8')));
  return new URL(pkg.exports['./esm/api'].import.default, pathToFileURL(pkgFile)).href;
}

/** Starts the worker from source (tests, tsx) or from the bundle (dist/server/rdkit-worker.js). */
function startWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    // From source the worker is TypeScript: load it through tsx, resolved from here so the
    // working directory does not matter.
    const target = new URL('./rdkit-worker.ts', here).href;
    const tsxApi = tsxEsmApi(here);
    const boot = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(target)}, ${JSON.stringify(here)}))`;
    return new Worker(boot, { eval: true });
  }
  return new Worker(new URL('./rdkit-worker.js', here));
}

/** One worker thread and the call it is running. */
interface Lane {
  worker?: Worker;
  /** The worker has loaded RDKit: the current call's own time limit runs. */
  ready?: boolean;
  current?: Job & { timer?: NodeJS.Timeout };
}

/** How long a new worker may take to load RDKit (tsx and WASM start slowly on a busy machine). */
const STARTUP_MS = 120_000;

export function createChemService({ timeoutMs = 10_000, maxQueue = 64, workers = defaultWorkers(), cacheSize = 256 }: ChemServiceOptions = {}): ChemService {
  const lanes: Lane[] = Array.from({ length: Math.max(1, workers) }, () => ({}));
  const queue: Job[] = [];
  let nextId = 1;
  /** Recent drawings by request, least recently used first (a Map keeps insertion order). */
  const drawings = new Map<string, Depiction>();
  const counts = { drawn: 0, cacheHits: 0 };

  function stopWorker(lane: Lane) {
    const w = lane.worker;
    lane.worker = undefined;
    lane.ready = false;
    if (w) {
      w.removeAllListeners();
      void w.terminate();
    }
  }

  function finish(lane: Lane, fn: (job: Job) => void) {
    const job = lane.current;
    if (!job) return;
    clearTimeout(job.timer);
    lane.current = undefined;
    fn(job);
    pump();
  }

  function ensureWorker(lane: Lane): Worker {
    if (lane.worker) return lane.worker;
    const w = startWorker();
    w.on('message', (res: ChemResponse | ChemReady) => {
      if ('ready' in res) {
        lane.ready = true;
        if (lane.current) arm(lane, lane.current);
        return;
      }
      if (!lane.current || res.id !== lane.current.request.id) return;
      if (res.ok) finish(lane, (job) => job.resolve(res.result));
      else if (res.kind === 'input') finish(lane, (job) => job.reject(new ChemInputError(res.code, res.message, res.field)));
      else {
        // A failure inside RDKit (a WASM trap such as "memory access out of bounds") leaves its
        // memory unusable, and may come from an earlier call that corrupted it rather than from
        // this one: the worker is replaced and the call tried once more on the fresh one. Failing
        // there too, it is the structure's doing (no internal text reaches the user).
        stopWorker(lane);
        finish(lane, (job) => {
          if (!job.retried) queue.unshift({ ...job, retried: true });
          else job.reject(new ChemInputError('mol_too_complex', '结构过于复杂，化学计算失败，请简化结构后重试', fieldOf('input' in job.request ? job.request.input : undefined)));
        });
      }
    });
    const crashed = (why: string) => {
      if (lane.worker !== w) return;
      stopWorker(lane);
      finish(lane, (job) => job.reject(new ChemUnavailableError(`化学计算进程异常退出（${why}），请重试`)));
    };
    w.on('error', (err) => crashed(err.message));
    w.on('exit', (code) => crashed(`退出码 ${code}`));
    lane.worker = w;
    return w;
  }

  /** Gives waiting calls to idle lanes; an idle worker does not keep the process alive. */
  function pump() {
    for (const lane of lanes) {
      if (lane.current) continue;
      const job = queue.shift();
      if (!job) {
        lane.worker?.unref();
        continue;
      }
      const w = ensureWorker(lane);
      w.ref();
      lane.current = { ...job };
      arm(lane, lane.current);
      w.postMessage(job.request);
    }
  }

  /**
   * (Re)starts the current call's timer: the call's own limit once the worker has RDKit loaded
   * (running over it means the structure is too complex), the start-up limit before that (a
   * worker that cannot start is the service's failure, not the input's).
   */
  function arm(lane: Lane, job: Job & { timer?: NodeJS.Timeout }) {
    clearTimeout(job.timer);
    job.timer = lane.ready
      ? setTimeout(() => {
          stopWorker(lane);
          finish(lane, (j) => j.reject(new ChemInputError('mol_too_complex', '结构过于复杂，计算超时，请简化结构后重试', fieldOf('input' in j.request ? j.request.input : undefined))));
        }, job.timeoutMs)
      : setTimeout(() => {
          stopWorker(lane);
          finish(lane, (j) => j.reject(new ChemUnavailableError('化学计算进程启动超时，请稍后重试')));
        }, STARTUP_MS);
  }

  function call<T>(request: ChemCall, schema: z.ZodType<T>, limits: CallLimits = {}): Promise<T> {
    if (queue.length >= maxQueue) return Promise.reject(new ChemUnavailableError('化学计算服务繁忙，请稍后再试'));
    return new Promise<unknown>((resolve, reject) => {
      const full: ChemRequest = { ...request, id: nextId++ };
      queue.push({ request: full, timeoutMs: limits.timeoutMs ?? timeoutMs, resolve, reject });
      pump();
    }).then((value) => schema.parse(value));
  }

  return {
    describe: (input) => call({ op: 'describe', input }, summary),
    descriptors: (input) => call({ op: 'descriptors', input }, descriptors),
    molfile: (input) => call({ op: 'molfile', input }, z.string()),
    admet: (items, limits = {}) => call({ op: 'admet', items }, z.array(admetOutcome), { timeoutMs: limits.timeoutMs ?? ADMET_TIMEOUT_MS }),
    identify: (smiles) =>
      smiles.length > 64
        ? Promise.reject(new ChemInputError('input_too_large', '一次最多识别 64 个结构', 'smiles'))
        : call({ op: 'identify', smiles }, identities),
    molecules: (task, limits) => call({ op: 'molecules', task }, z.unknown(), limits),
    async depict(input, options = {}, limits = {}) {
      // The same structure is often drawn many times (an answer, a list of hits): keep recent drawings.
      const key = JSON.stringify([input, options]);
      const hit = drawings.get(key);
      if (hit) {
        counts.cacheHits++;
        drawings.delete(key);
        drawings.set(key, hit);
        return { ...hit, highlightedAtoms: [...hit.highlightedAtoms], highlightedBonds: [...hit.highlightedBonds] };
      }
      const drawn = await call({ op: 'depict', input, options }, depiction, limits);
      counts.drawn++;
      if (cacheSize > 0 && key.length <= 64 * 1024) {
        drawings.set(key, drawn);
        if (drawings.size > cacheSize) drawings.delete(drawings.keys().next().value ?? '');
      }
      return { ...drawn, highlightedAtoms: [...drawn.highlightedAtoms], highlightedBonds: [...drawn.highlightedBonds] };
    },
    stats: () => ({ ...counts }),
    async close() {
      const stopped = () => new ChemUnavailableError('化学计算服务已停止');
      drawings.clear();
      for (const job of queue.splice(0)) job.reject(stopped());
      await Promise.all(
        lanes.map(async (lane) => {
          if (lane.current) {
            clearTimeout(lane.current.timer);
            lane.current.reject(stopped());
            lane.current = undefined;
          }
          const w = lane.worker;
          lane.worker = undefined;
          if (w) {
            w.removeAllListeners();
            await w.terminate();
          }
        }),
      );
    },
  };
}

/** A batch of 50 molecules takes ~1 s; the first call also loads the patterns and fragment scores. */
const ADMET_TIMEOUT_MS = 60_000;

/** Two workers where there are two cores: one slow drawing does not hold up everyone else. */
const defaultWorkers = () => Math.min(2, os.availableParallelism());

const fieldOf = (input: MolInput | undefined) => (input && 'molfile' in input ? 'molfile' : 'smiles');

let shared: ChemService | undefined;

/** One service for the whole process, for modules that need chemistry outside a request (tools). */
export function sharedChemService(): ChemService {
  shared ??= createChemService();
  return shared;
}
