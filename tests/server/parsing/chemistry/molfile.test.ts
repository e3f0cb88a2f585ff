import { describe, expect, it } from 'vitest';
import { loadRdkit, withValidMol } from '../../../../src/server/chem/rdkit-loader';
import { withChargedNitrogens, withoutAtoms } from '../../../../src/server/parsing/chemistry/molfile';

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

describe('withChargedNitrogens', () => {
  /** `molfile` with every charge line left out but the ones on the atoms `kept` (1-based). */
  const withChargesOn = (molfile: string, kept: number[]) =>
    molfile.replace(/^M {2}CHG.*$/m, `M  CHG${String(kept.length).padStart(3)}${kept.map((k) => `${String(k).padStart(4)}  -1`).join('')}`);

  it('charges a nitrogen with four bonds that lost its + (a nitro group, a pyridinium), which RDKit refuses as it stands', async () => {
    // Nitrobenzene written by RDKit: c1ccccc1 (1–6), N 7, O 8 (=O), O 9 (O⁻); its N's charge taken out.
    const nitro = withChargesOn(await molfileOf('c1ccccc1[N+](=O)[O-]'), [9]);
    expect(await smilesOf(nitro)).toBeNull();
    expect(await smilesOf(withChargedNitrogens(nitro)!)).toBe('O=[N+]([O-])c1ccccc1');
    // N-methylpyridinium with aromatic bonds (order 4) and no charge line at all.
    const rdkit = await loadRdkit();
    const pyridinium = withValidMol(rdkit, 'C[n+]1ccccc1', (m) => m.get_molblock(JSON.stringify({ kekulize: false })))!.replace(/^M {2}CHG.*\n/m, '');
    expect(await smilesOf(pyridinium)).toBeNull();
    expect(await smilesOf(withChargedNitrogens(pyridinium)!)).toBe('C[n+]1ccccc1');
  });

  it('keeps the charges the atom block holds when it adds a charge line', async () => {
    // Open Babel writes charges in the atom block (code 5 is −1) and no charge line: the O⁻ (atom 9)
    // so, the N without its +.
    const lines = (await molfileOf('c1ccccc1[N+](=O)[O-]')).split('\n').filter((l) => !l.startsWith('M  CHG'));
    const oxide = lines.findIndex((l) => l.endsWith('V2000')) + 9;
    expect(lines[oxide]!.slice(31, 34).trim()).toBe('O');
    lines[oxide] = `${lines[oxide]!.slice(0, 36)}  5${lines[oxide]!.slice(39)}`;
    expect(await smilesOf(lines.join('\n'))).toBeNull();
    expect(await smilesOf(withChargedNitrogens(lines.join('\n'))!)).toBe('O=[N+]([O-])c1ccccc1');
  });

  it('leaves a molfile with no such nitrogen alone', async () => {
    expect(withChargedNitrogens(await molfileOf('c1ccccc1[N+](=O)[O-]'))).toBeNull();
    expect(withChargedNitrogens(await molfileOf('CN(C)C'))).toBeNull();
    expect(withChargedNitrogens('not a molfile')).toBeNull();
  });
});
