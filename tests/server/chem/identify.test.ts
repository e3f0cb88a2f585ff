import { afterAll, describe, expect, it } from 'vitest';
import { ChemInputError } from '../../../src/server/chem/engine';
import { createChemService } from '../../../src/server/chem/service';

const chem = createChemService({ workers: 1 });
afterAll(() => chem.close());

describe('chem service identify', () => {
  it('gives canonical SMILES and the standard InChIKey of each SMILES, null where RDKit cannot read it', async () => {
    expect(await chem.identify(['OC(=O)c1ccccc1OC(C)=O', 'C1CC', '', '*CC', 'CC\n{'])).toEqual([
      { canonicalSmiles: 'CC(=O)Oc1ccccc1C(=O)O', inchiKey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N' },
      null,
      null,
      { canonicalSmiles: '*CC', inchiKey: '' },
      null,
    ]);
  });

  it('keeps stereochemistry in the InChIKey', async () => {
    const [l, d] = await chem.identify(['N[C@@H](C)C(=O)O', 'N[C@H](C)C(=O)O']);
    expect(l?.inchiKey).toBe('QNAYBMKLOCPYGJ-REOHCLBHSA-N');
    expect(d?.inchiKey).toBe('QNAYBMKLOCPYGJ-UWTATZPHSA-N');
  });

  it('refuses more than 64 structures in one call', async () => {
    await expect(chem.identify(Array.from({ length: 65 }, () => 'C'))).rejects.toBeInstanceOf(ChemInputError);
  });
});
