import { loadRdkit } from '../rdkit-loader';
import { createAdmetEngine, type AdmetEngine } from './index';
import type { AdmetItem, AdmetOutcome } from './protocol';

let engine: Promise<AdmetEngine> | undefined;

/** The worker side of the `admet` op: one engine per worker, built on first use (patterns, data files). */
export async function runAdmet(items: AdmetItem[]): Promise<AdmetOutcome[]> {
  engine ??= loadRdkit().then(createAdmetEngine);
  engine.catch(() => {
    engine = undefined;
  });
  return (await engine).batch(items);
}
