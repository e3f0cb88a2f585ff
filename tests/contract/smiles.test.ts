import { describe, expect, it } from 'vitest';
import { looksLikeStructure, smilesInText } from '../../src/contract/smiles';

describe('SMILES in free text', () => {
  it('finds structures written between Chinese words, in order, once each, without surrounding punctuation', () => {
    const q = '阿司匹林CC(=O)Oc1ccccc1C(=O)O和苯(c1ccccc1)比较，乙醇 `CCO`、CCO? 再加 C/C=C/C。';
    expect(smilesInText(q)).toEqual(['CC(=O)Oc1ccccc1C(=O)O', 'c1ccccc1', 'CCO', 'C/C=C/C']);
  });

  it('leaves words, acronyms, formulas, numbers and units alone', () => {
    const q = 'What is the IC50 of CNS drugs by HPLC-MS, NMR and PCB in H2O, CO2 or CH4 at pH 7.4 (2024)? no, on, is, NO, Cl, CC, OC, C-1, http://a.b/c1ccccc1';
    expect(smilesInText(q)).toEqual([]);
  });

  it('refuses malformed structures: open branches, unpaired rings, stray brackets, aromatic atoms outside rings', () => {
    for (const bad of ['C1CC((', 'CC(C', 'CC)C(', 'C1CCC', 'C[NH4+', 'CC]C', 'ccc', '=CC', 'CC=', '%1CC']) expect(looksLikeStructure(bad), bad).toBe(false);
    for (const good of ['CCO', 'C1CC1', 'c1ccncc1', '[Na+].[Cl-]', 'N[C@@H](C)C(=O)O', 'C%10CC%10', 'ClCCCl']) expect(looksLikeStructure(good), good).toBe(true);
  });

  it('stays bounded on a huge text: at most max candidates, tokens longer than the limit skipped', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `C${'C'.repeat(i % 50)}O`).join(' ');
    expect(smilesInText(many, 8)).toHaveLength(8);
    expect(smilesInText('C'.repeat(20_000))).toEqual([]);
  });
});
