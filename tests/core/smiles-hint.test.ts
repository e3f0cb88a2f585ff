import { describe, expect, it } from 'vitest';
import type { SmilesCompletionOutput } from '../../src/contract/names';
import { smilesBeingTyped, smilesHintModel } from '../../src/core/smiles-hint';

const broken = (smiles: string): SmilesCompletionOutput => ({
  input: smiles,
  valid: false,
  candidates: [{ smiles: `${smiles}-fixed`, inchi_key: 'X', changes: ['补全'] }],
  message: 'SMILES 无效',
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('smilesBeingTyped', () => {
  it('finds a SMILES at the end of the question', () => {
    expect(smilesBeingTyped('这个分子 c1ccccc1C(=O')).toBe('c1ccccc1C(=O');
    expect(smilesBeingTyped('CC(=O)Oc1ccccc1C(=O)O')).toBe('CC(=O)Oc1ccccc1C(=O)O');
    expect(smilesBeingTyped('*CC(=O')).toBe('*CC(=O');
    expect(smilesBeingTyped('c1cccc')).toBe('c1cccc');
    expect(smilesBeingTyped('C1CCCC')).toBe('C1CCCC');
  });

  it('ignores words, Chinese, numbers and links', () => {
    for (const text of ['布洛芬的作用机制', 'what is aspirin', 'IC50', '2024', 'see http://x.org/a(1)', 'CCO ', '']) {
      expect(smilesBeingTyped(text), text).toBeUndefined();
    }
  });
});

describe('the SMILES hint model', () => {
  it('asks once after typing pauses, and shows the candidates of a broken SMILES', async () => {
    const asked: string[] = [];
    const model = smilesHintModel({ delayMs: 20, complete: async (s) => (asked.push(s), broken(s)) });
    for (const text of ['c1', 'c1c', 'c1cc', 'c1ccc(']) model.input(text);
    await sleep(60);
    expect(asked).toEqual(['c1ccc(']);
    expect(model.$hint.value?.completion.candidates[0]?.smiles).toBe('c1ccc(-fixed');
    expect(model.accept('看看 c1ccc(', 'c1ccccc1')).toBe('看看 c1ccccc1');
    expect(model.$hint.value).toBeNull();
  });

  it('aborts the request in flight when the text changes and ignores its late answer', async () => {
    const aborted: string[] = [];
    const model = smilesHintModel({
      delayMs: 5,
      complete: (s, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => aborted.push(s));
          setTimeout(() => resolve(broken(s)), s === 'CC(C' ? 80 : 10);
        }),
    });
    model.input('CC(C');
    await sleep(20);
    model.input('CC(CC(');
    await sleep(120);
    expect(aborted).toEqual(['CC(C']);
    expect(model.$hint.value?.token).toBe('CC(CC(');
  });

  it('shows nothing for a valid SMILES, a failed request, or after the asker dismissed it', async () => {
    let fail = false;
    const model = smilesHintModel({
      delayMs: 5,
      complete: async (s) => {
        if (fail) throw new Error('offline');
        return s === 'CCO(C)' ? { input: s, valid: true, candidates: [{ smiles: 'CC(C)O', inchi_key: 'K', changes: [] }], message: '' } : broken(s);
      },
    });
    model.input('CCO(C)');
    await sleep(30);
    expect(model.$hint.value).toBeNull();
    model.input('CC(=O');
    await sleep(30);
    expect(model.$hint.value).not.toBeNull();
    model.dismiss();
    model.input('CC(=O ');
    model.input('CC(=O');
    await sleep(30);
    expect(model.$hint.value).toBeNull();
    fail = true;
    model.input('CCC(');
    await sleep(30);
    expect(model.$hint.value).toBeNull();
    model.dispose();
  });
});
