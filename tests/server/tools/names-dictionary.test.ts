import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MainModule } from '@rdkit/rdkit';
import { loadRdkit } from '../../../src/server/chem/rdkit-loader';
import { createDictionary, DICTIONARY_ENTRIES, normaliseName } from '../../../src/server/tools/names/dictionary';
import { createOpsin } from '../../../src/server/tools/names/opsin';
import data from '../../../src/server/tools/names/dictionary.json';

let rdkit: MainModule;
const opsin = createOpsin({ timeoutMs: 20_000 });
beforeAll(async () => {
  rdkit = await loadRdkit();
});
afterAll(() => opsin.close());

/** Standard InChIKey of a SMILES (stereochemistry included), or null when RDKit cannot read it. */
function inchiKey(smiles: string): string | null {
  const mol = rdkit.get_mol(smiles);
  if (!mol) return null;
  try {
    return rdkit.get_inchikey_for_inchi(mol.get_inchi());
  } finally {
    mol.delete();
  }
}

describe('the bundled dictionary of drugs and reagents', () => {
  it('names its sources and licence', () => {
    expect(data.sources.join(' ')).toMatch(/INN/);
    expect(data.sources.join(' ')).toMatch(/中国药品通用名称/);
    expect(data.licence).toMatch(/OPSIN/);
    expect(DICTIONARY_ENTRIES.length).toBeGreaterThanOrEqual(200);
  });

  it('holds for every entry the structure OPSIN builds from its systematic name (same InChIKey, stereo included)', async () => {
    const wrong: string[] = [];
    for (const entry of DICTIONARY_ENTRIES) {
      const mine = inchiKey(entry.smiles);
      const answer = await opsin.parse(entry.iupac);
      const theirs = 'smiles' in answer ? inchiKey(answer.smiles) : null;
      if (!mine || mine !== theirs) wrong.push(`${entry.en[0]}: ${entry.smiles} vs ${'smiles' in answer ? answer.smiles : answer.failure}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('stores canonical SMILES and never gives one name two structures', () => {
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const entry of DICTIONARY_ENTRIES) {
      const mol = rdkit.get_mol(entry.smiles)!;
      expect(mol.get_smiles(), entry.en[0]).toBe(entry.smiles);
      mol.delete();
      for (const name of [...entry.zh, ...entry.en]) {
        const key = normaliseName(name);
        const before = owner.get(key);
        if (before !== undefined && before !== entry.smiles) clashes.push(name);
        owner.set(key, entry.smiles);
      }
    }
    expect(clashes).toEqual([]);
  });

  it('finds Chinese, English, trade and abbreviated names, whatever their case, width, spaces or hyphens', () => {
    const dict = createDictionary();
    const smilesOf = (name: string) => dict.lookup(name)?.smiles;
    expect(smilesOf('阿司匹林')).toBe('CC(=O)Oc1ccccc1C(=O)O');
    expect(smilesOf('乙酰水杨酸')).toBe('CC(=O)Oc1ccccc1C(=O)O');
    expect(smilesOf('Aspirin')).toBe('CC(=O)Oc1ccccc1C(=O)O');
    expect(smilesOf('ACETYL-SALICYLIC ACID')).toBe('CC(=O)Oc1ccccc1C(=O)O');
    expect(smilesOf('布洛芬')).toBe(smilesOf('ibuprofen'));
    expect(smilesOf('对乙酰氨基酚')).toBe(smilesOf('Tylenol'));
    expect(smilesOf('扑热息痛')).toBe(smilesOf('acetaminophen'));
    expect(smilesOf('伊马替尼')).toBe(smilesOf('Gleevec'));
    expect(smilesOf('格列卫')).toBe(smilesOf('imatinib'));
    expect(smilesOf('ＤＭＳＯ')).toBe('CS(C)=O');
    expect(smilesOf('  dmso ')).toBe('CS(C)=O');
    expect(smilesOf('unobtainium')).toBeUndefined();
    expect(smilesOf('')).toBeUndefined();
  });

  it('finds the Chinese names mentioned in a question', () => {
    const dict = createDictionary();
    expect(dict.mentions('阿司匹林的ADMET性质')).toEqual(['阿司匹林']);
    expect(dict.mentions('比较乙酰水杨酸和布洛芬的溶解度')).toEqual(expect.arrayContaining(['乙酰水杨酸', '布洛芬']));
    expect(dict.mentions('比较乙酰水杨酸和布洛芬的溶解度')).not.toContain('水杨酸');
    expect(dict.mentions('今天天气很好')).toEqual([]);
  });
});
