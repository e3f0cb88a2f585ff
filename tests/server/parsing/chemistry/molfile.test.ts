import { describe, expect, it } from 'vitest';
import { loadRdkit, withValidMol } from '../../../../src/server/chem/rdkit-loader';
import { withoutAtoms } from '../../../../src/server/parsing/chemistry/molfile';

// The V2000 edit shared by crossed.ts and relabel.ts: atoms taken out, bonds added, the rest renumbered.

async function molfileOf(smiles: string): Promise<string> {
  const rdkit = await loadRdkit();
  return withValidMol(rdkit, smiles, (m) => m.get_molblock())!;
}

async function smilesOf(molfile: string): Promise<string | null> {
  const rdkit = await loadRdkit();
  return withValidMol(rdkit, molfile, (m) => m.get_smiles());
}

describe('withoutAtoms', () => {
  it('takes atoms out with their bonds and keeps the charges on the atoms that carry them', async () => {
    // Betaine: C[N+](C)(C)CC(=O)[O-], atoms 0–7; taking out the first methyl (0) leaves the charges where they were.
    const molfile = await molfileOf('C[N+](C)(C)CC(=O)[O-]');
    const out = withoutAtoms(molfile, new Set([0]));
    expect(out).not.toBeNull();
    expect(await smilesOf(out!)).toBe(await smilesOf(await molfileOf('C[NH+](C)CC(=O)[O-]')));
    // A charged atom taken out takes its charge with it.
    expect(await smilesOf(withoutAtoms(molfile, new Set([7]))!)).toBe(await smilesOf(await molfileOf('C[N+](C)(C)CC=O')));
  });

  it('adds bonds between the atoms left, by their old numbers', async () => {
    // Propane C0–C1–C2 without C1, its ends joined by a double bond: ethene.
    const out = withoutAtoms(await molfileOf('CCC'), new Set([1]), [{ a: 0, b: 2, order: 2, stereo: 0 }]);
    expect(await smilesOf(out!)).toBe('C=C');
  });

  it('refuses what it cannot renumber or does not know', async () => {
    expect(withoutAtoms('not a molfile', new Set([0]))).toBeNull();
    const molfile = await molfileOf('CCO');
    // A bond to an atom taken out, or to one that does not exist.
    expect(withoutAtoms(molfile, new Set([1]), [{ a: 0, b: 1, order: 1, stereo: 0 }])).toBeNull();
    expect(withoutAtoms(molfile, new Set(), [{ a: 0, b: 9, order: 1, stereo: 0 }])).toBeNull();
    // A property naming atoms that is not a charge, radical or isotope (an atom list).
    const listed = molfile.replace('M  END', 'M  ALS   1  2 F C   N   \nM  END');
    expect(withoutAtoms(listed, new Set([0]))).toBeNull();
  });
});
