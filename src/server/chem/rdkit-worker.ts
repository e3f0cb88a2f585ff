/**
 * The chemistry worker thread: loads RDKit once and answers ChemRequests one at a time. The main
 * thread terminates it when a call runs too long, so a pathological structure never blocks the
 * server's event loop.
 */
import { parentPort } from 'node:worker_threads';
import { runAdmet } from './admet/worker-op';
import { ChemInputError, createChemEngine, type ChemEngine } from './engine';
import type { ChemReady, ChemRequest, ChemResponse } from './protocol';
import { createMoleculeOps } from './molecule-ops';
import { loadRdkit } from './rdkit-loader';

let engine: Promise<ChemEngine> | undefined;
let moleculeOps: Promise<ReturnType<typeof createMoleculeOps>> | undefined;

function run(e: ChemEngine, req: Exclude<ChemRequest, { op: 'admet' }>): unknown {
  switch (req.op) {
    case 'describe':
      return e.describe(req.input);
    case 'descriptors':
      return e.descriptors(req.input);
    case 'molfile':
      return e.molfile(req.input);
    case 'identify':
      return e.identify(req.smiles);
    case 'depict':
      return e.depict(req.input, req.options);
    case 'molecules':
      throw new Error('molecule tasks run in answer()');
  }
}

async function answer(req: ChemRequest): Promise<ChemResponse> {
  try {
    if (req.op === 'admet') return { id: req.id, ok: true, result: await runAdmet(req.items) };
    if (req.op === 'molecules') {
      moleculeOps ??= loadRdkit().then(createMoleculeOps);
      return { id: req.id, ok: true, result: (await moleculeOps).run(req.task) };
    }
    engine ??= loadRdkit().then(createChemEngine);
    return { id: req.id, ok: true, result: run(await engine, req) };
  } catch (err) {
    if (err instanceof ChemInputError) return { id: req.id, ok: false, kind: 'input', code: err.code, message: err.message, field: err.field };
    return { id: req.id, ok: false, kind: 'internal', message: err instanceof Error ? err.message : String(err) };
  }
}

// RDKit loads at once; the main thread times a call from when it has loaded (a slow start on a
// busy machine is not a complex structure). A failed load is reported by the calls themselves.
void loadRdkit().then(
  () => parentPort?.postMessage({ ready: true } satisfies ChemReady),
  () => undefined,
);

parentPort?.on('message', (req: ChemRequest) => {
  void answer(req).then((res) => parentPort?.postMessage(res));
});
