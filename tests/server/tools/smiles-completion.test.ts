import { afterAll, describe, expect, it } from 'vitest';
import { createChemService } from '../../../src/server/chem/service';
import { completeSmiles } from '../../../src/server/tools/names/completion';

const chem = createChemService({ workers: 1 });
afterAll(() => chem.close());

const complete = (s: string) => completeSmiles(s, chem);
const smilesOf = async (s: string) => (await complete(s)).candidates.map((c) => c.smiles);

describe('SMILES completion', () => {
  it('gives a valid SMILES back canonical, with its InChIKey and no changes', async () => {
    const out = await complete('OC(=O)c1ccccc1OC(C)=O');
    expect(out).toEqual({
      input: 'OC(=O)c1ccccc1OC(C)=O',
      valid: true,
      candidates: [{ smiles: 'CC(=O)Oc1ccccc1C(=O)O', inchi_key: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N', changes: [] }],
      message: '已是有效的 SMILES，已转换为规范形式',
    });
  });

  it('closes an unclosed branch', async () => {
    const out = await complete('c1ccccc1C(=O');
    expect(out.valid).toBe(false);
    expect(out.candidates[0]).toEqual({ smiles: 'O=Cc1ccccc1', inchi_key: 'HUMNYLRZRPPJDN-UHFFFAOYSA-N', changes: ['补全 1 个未闭合的支链 “)”'] });
    expect(await smilesOf('CC(C)(C')).toEqual(['CC(C)C']);
  });

  it('drops an unmatched ")" and bonds or branches with nothing after them', async () => {
    expect((await complete('CC)C')).candidates[0]).toMatchObject({ smiles: 'CCC', changes: ['删除多余的 “)”（1 处）'] });
    expect((await complete('CC=')).candidates[0]).toMatchObject({ smiles: 'CC', changes: ['删除末尾没有连接原子的 “=”'] });
    expect((await complete('CC(C)(C)C(')).candidates[0]).toMatchObject({ smiles: 'CC(C)(C)C' });
  });

  it('completes an unclosed aromatic ring to six atoms, or closes or drops the ring label', async () => {
    const benzene = await complete('c1cccc');
    expect(benzene.candidates[0]).toEqual({ smiles: 'c1ccccc1', inchi_key: 'UHOVQNZJYSORNB-UHFFFAOYSA-N', changes: ['补全芳香环：添加 1 个芳香碳并闭合环 1'] });
    expect(await smilesOf('C1CCCC')).toEqual(['C1CCCC1', 'CCCCC']);
    // The inner ring of a fused system first: 2-methylnaphthalene.
    expect((await smilesOf('Cc1ccc2cc'))[0]).toBe('Cc1ccc2ccccc2c1');
  });

  it('closes an unclosed bracket atom, or drops the "["', async () => {
    const out = await complete('C[NH3+');
    expect(out.candidates[0]).toMatchObject({ smiles: 'C[NH3+]', changes: ['补全方括号原子缺失的 “]”'] });
    expect((await complete('CC]O')).candidates[0]).toMatchObject({ smiles: 'CCO', changes: ['删除多余的 “]”（1 处）'] });
  });

  it('makes lower-case atoms that cannot be aromatic aliphatic, outside rings first', async () => {
    expect((await complete('cccc')).candidates[0]).toMatchObject({ smiles: 'CCCC', changes: ['将环外的小写（芳香）原子改为大写（脂肪族）'] });
    expect((await complete('c1ccccc1cc')).candidates[0]).toMatchObject({ smiles: 'CCc1ccccc1' });
    // Aromatic rings that are fine stay aromatic: no saturated alternative of benzene is offered.
    expect(await smilesOf('c1ccccc1CC(')).toEqual(['CCc1ccccc1']);
  });

  it('caps * attachment points of a fragment with hydrogen or methyl, keeping the fragment itself first', async () => {
    const out = await complete('*c1ccccc1');
    expect(out.valid).toBe(true);
    expect(out.candidates).toEqual([
      { smiles: '*c1ccccc1', inchi_key: '', changes: [] },
      { smiles: 'c1ccccc1', inchi_key: 'UHOVQNZJYSORNB-UHFFFAOYSA-N', changes: ['将 1 个连接点 * 替换为氢'] },
      { smiles: 'Cc1ccccc1', inchi_key: 'YXFVVABEGXRONW-UHFFFAOYSA-N', changes: ['将 1 个连接点 * 替换为甲基'] },
    ]);
    expect(await smilesOf('[*]CC(=O)[1*]')).toEqual(['*CC([1*])=O', 'CC=O', 'CCC(C)=O']);
    // A broken fragment: the branch is closed and the attachment point capped.
    expect(await smilesOf('*CC(=O')).toEqual(['CC=O', 'CCC=O']);
  });

  it('offers at most five candidates, each a distinct valid molecule', async () => {
    for (const input of ['Cc1ccc2cc', 'c1cc(C(=O', '[C@@H](N)(C', 'C1CC2CC(', 'n1cccc1[']) {
      const out = await complete(input);
      expect(out.candidates.length).toBeLessThanOrEqual(5);
      expect(new Set(out.candidates.map((c) => c.smiles)).size).toBe(out.candidates.length);
      for (const c of out.candidates) expect((await complete(c.smiles)).valid).toBe(true);
    }
  });

  it('says so when nothing can be made of the input', async () => {
    const out = await complete('XYZ');
    expect(out).toEqual({ input: 'XYZ', valid: false, candidates: [], message: '无法补全为有效的结构，请检查 SMILES' });
  });
});
