// Name → SMILES. Warm p95 per name through the whole resolver (OPSIN in its one JVM,
// the dictionary, RDKit canonicalisation and InChIKey in the chemistry worker) against the 200 ms
// budget, and against the bare OPSIN round trip for the same names measured in the same run.
import { createChemService } from '../src/server/chem/service';
import { loadConfig } from '../src/server/config';
import { DICTIONARY_ENTRIES } from '../src/server/tools/names/dictionary';
import { createOpsin } from '../src/server/tools/names/opsin';
import { createNameResolver } from '../src/server/tools/names/resolver';
import type { Figure } from './lib';

const BUDGET_MS = 200;

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
}

async function timeEach(names: string[], fn: (name: string) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (const name of names) {
    const t = performance.now();
    await fn(name);
    times.push(performance.now() - t);
  }
  return times;
}

export async function run(): Promise<Figure[]> {
  const chem = createChemService({ workers: 1 });
  const names = createNameResolver({ config: loadConfig({ CSAI_DATA_DIR: '/tmp/csai-bench-names' }), chem, log: { warn: () => undefined } });
  const bare = createOpsin();
  const systematic = DICTIONARY_ENTRIES.map((e) => e.iupac);
  const chinese = DICTIONARY_ENTRIES.map((e) => e.zh[0]!).filter(Boolean);
  const trade = DICTIONARY_ENTRIES.map((e) => e.en[e.en.length - 1]!);
  const unknown = Array.from({ length: 50 }, (_, i) => `unknownium ${i} chloride`);
  const resolve = (n: string) => names.resolve(n, AbortSignal.timeout(30_000));
  try {
    // Warm-up: start the JVM and the worker, and let the JIT see every name once.
    for (const list of [systematic, chinese, trade, unknown]) await timeEach(list, resolve);
    await timeEach(systematic, (n) => bare.parse(n));
    const rawOpsin = await timeEach(systematic, (n) => bare.parse(n));
    const bySystematic = await timeEach(systematic, resolve);
    const byDictionary = await timeEach([...chinese, ...trade], resolve);
    const byUnknown = await timeEach(unknown, resolve);
    const all = [...bySystematic, ...byDictionary, ...byUnknown];
    const whole = p95(all);
    return [
      {
        name: `name → SMILES warm p95 over ${all.length} names (systematic, Chinese, trade, unknown) against the ${BUDGET_MS} ms budget`,
        value: `${whole.toFixed(1)} ms`,
        baseline: `${BUDGET_MS} ms`,
        ratio: whole / BUDGET_MS,
        target: { op: '<=', ratio: 1 },
      },
      {
        name: `systematic names (${systematic.length}) through the resolver, warm p95`,
        value: `${p95(bySystematic).toFixed(1)} ms`,
        baseline: `${p95(rawOpsin).toFixed(1)} ms bare OPSIN round trip`,
        ratio: p95(bySystematic) / Math.max(0.001, p95(rawOpsin)),
      },
      {
        name: `dictionary names (${byDictionary.length} Chinese and trade) warm p95`,
        value: `${p95(byDictionary).toFixed(1)} ms`,
        baseline: `${BUDGET_MS} ms`,
        ratio: p95(byDictionary) / BUDGET_MS,
      },
      {
        name: `unknown names (${byUnknown.length}, every offline source asked) warm p95`,
        value: `${p95(byUnknown).toFixed(1)} ms`,
        baseline: `${BUDGET_MS} ms`,
        ratio: p95(byUnknown) / BUDGET_MS,
      },
    ];
  } finally {
    await Promise.all([names.close(), bare.close(), chem.close()]);
  }
}
