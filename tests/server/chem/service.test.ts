import { afterAll, describe, expect, it } from 'vitest';
import { ChemInputError } from '../../../src/server/chem/engine';
import { createChemService } from '../../../src/server/chem/service';
import { DRUGS } from './drugs';
import { inspectSvg } from './svg-check';

const service = createChemService();
afterAll(() => service.close());

describe('the chemistry worker', () => {
  it('draws and describes in a worker thread', async () => {
    const d = await service.depict({ smiles: 'CC(=O)Oc1ccccc1C(=O)O' }, { width: 200, height: 150, highlight: { smarts: 'c1ccccc1' } });
    expect(d).toMatchObject({ canonicalSmiles: 'CC(=O)Oc1ccccc1C(=O)O', formula: 'C9H8O4', numAtoms: 13 });
    expect(d.highlightedAtoms).toEqual([4, 5, 6, 7, 8, 9]);
    expect(inspectSvg(d.svg).width).toBe('200px');
    expect(await service.describe({ smiles: 'c1ccccc1' })).toEqual({ canonicalSmiles: 'c1ccccc1', formula: 'C6H6', numAtoms: 6 });
    expect((await service.descriptors({ smiles: 'CCO' })).NumHeavyAtoms).toBe(3);
    expect(await service.molfile({ smiles: 'CCO' })).toMatch(/V2000[\s\S]*M {2}END/);
  });

  it('answers many calls at once, each with its own result', async () => {
    const results = await Promise.all(DRUGS.map((d) => service.describe({ smiles: d.smiles })));
    expect(results.map((r) => r.formula)).toEqual(DRUGS.map((d) => d.formula));
  });

  it('passes refusals through as typed errors with their Chinese message', async () => {
    const err = await service.depict({ smiles: 'C1CC' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChemInputError);
    expect(err).toMatchObject({ code: 'invalid_smiles', field: 'smiles' });
    expect((err as ChemInputError).message).toContain('无法解析 SMILES');
  });

  it('stops a call that runs past its limit and keeps serving afterwards', async () => {
    // 1 ms cannot cover a round trip to the worker, so this call always runs past its limit.
    const err = await service.depict({ smiles: 'C'.repeat(400) }, {}, { timeoutMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChemInputError);
    expect(err).toMatchObject({ code: 'mol_too_complex' });
    expect((err as ChemInputError).message).toContain('超时');
    expect((await service.describe({ smiles: 'CCO' })).formula).toBe('C2H6O');
  });

  it('refuses calls beyond its queue as busy', async () => {
    const small = createChemService({ maxQueue: 1, workers: 1 });
    try {
      const calls = [small.describe({ smiles: 'C' }), small.describe({ smiles: 'CC' }), small.describe({ smiles: 'CCC' })];
      const settled = await Promise.allSettled(calls);
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      expect(settled[2]).toMatchObject({ reason: { message: '化学计算服务繁忙，请稍后再试' } });
    } finally {
      await small.close();
    }
  });
});

describe('with two workers', () => {
  it('keeps serving on the other worker while one is restarted after a timeout', async () => {
    const pair = createChemService({ workers: 2 });
    try {
      const [slow, fine] = await Promise.allSettled([
        pair.depict({ smiles: 'C'.repeat(400) }, {}, { timeoutMs: 1 }),
        pair.describe({ smiles: 'CC(=O)Nc1ccc(O)cc1' }),
      ]);
      expect(slow).toMatchObject({ status: 'rejected', reason: { code: 'mol_too_complex' } });
      expect(fine).toMatchObject({ status: 'fulfilled', value: { formula: 'C8H9NO2' } });
      const again = await Promise.all(DRUGS.map((d) => pair.describe({ smiles: d.smiles })));
      expect(again.map((r) => r.numAtoms)).toEqual(DRUGS.map((d) => d.heavyAtoms));
    } finally {
      await pair.close();
    }
  });
});

describe('recent drawings', () => {
  it('answers a repeated drawing from memory, as a fresh copy', async () => {
    const first = await service.depict({ smiles: 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C' }, { highlight: { atoms: [0] } });
    first.highlightedAtoms.push(99);
    // A 1 ms limit cannot cover a worker round trip (see above), so this answer comes from memory.
    const again = await service.depict({ smiles: 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C' }, { highlight: { atoms: [0] } }, { timeoutMs: 1 });
    expect(again.svg).toBe(first.svg);
    expect(again.highlightedAtoms).toEqual([0]);
    expect(service.stats().cacheHits).toBeGreaterThanOrEqual(1);
  });

  it('keeps drawings apart by options and never keeps failures', async () => {
    const small = await service.depict({ smiles: 'CCO' }, { width: 100, height: 100 });
    const large = await service.depict({ smiles: 'CCO' }, { width: 200, height: 100 });
    expect(small.svg).not.toBe(large.svg);
    await expect(service.depict({ smiles: 'C1CC' })).rejects.toMatchObject({ code: 'invalid_smiles' });
    await expect(service.depict({ smiles: 'C1CC' })).rejects.toMatchObject({ code: 'invalid_smiles' });
  });

  it('can be turned off', async () => {
    const uncached = createChemService({ cacheSize: 0, workers: 1 });
    try {
      await uncached.depict({ smiles: 'CCO' });
      await uncached.depict({ smiles: 'CCO' });
      expect(uncached.stats()).toEqual({ drawn: 2, cacheHits: 0 });
    } finally {
      await uncached.close();
    }
  });
});
