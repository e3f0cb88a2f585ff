import { beforeAll, describe, expect, it } from 'vitest';
import type { MainModule } from '@rdkit/rdkit';
import { loadRdkit } from '../../../../src/server/chem/rdkit-loader';
import { judge } from '../../../../src/server/parsing/chemistry/judge';
import { blackBelow, choose } from '../../../../src/server/parsing/chemistry/recognize';
import { repairs } from '../../../../src/server/parsing/chemistry/repair';

let rdkit: MainModule;
beforeAll(async () => {
  rdkit = await loadRdkit();
});

const canon = (s: string) => {
  const m = rdkit.get_mol(s)!;
  try {
    return m.get_smiles();
  } finally {
    m.delete();
  }
};
const repaired = (s: string) => repairs(rdkit, s).map((r) => r.smiles);

describe('repairs of OSRA misreadings', () => {
  it('reads a lone charged O on a carbon with a hydrogen (no counter-ion) as C=O', () => {
    // OSRA's reading of cyclohexanecarboxylic acid with its C=O as O−.
    expect(repaired('[O-]C(O)C1CCCCC1')).toEqual([canon('OC(=O)C1CCCCC1')]);
    // An acetophenone's carbonyl read as an alkoxide.
    expect(repaired('CC([O-])c1ccccc1')).toEqual([canon('CC(=O)c1ccccc1')]);
    expect(repairs(rdkit, 'CC([O-])c1ccccc1')[0]!.reason).toMatch(/C=O/);
  });

  it('leaves genuinely charged molecules alone', () => {
    for (const genuine of [
      'O=[N+]([O-])c1ccccc1', // nitro
      'C[N+](C)(C)CC[O-]', // zwitterion: the charges balance
      '[NH3+]CC(=O)[O-]', // amino acid zwitterion
      'CC(=O)[O-].[Na+]', // a salt with its counter-ion
      '[O-]c1ccccc1', // phenolate: its carbon has no hydrogen to give
      'C[n+]1ccccc1[O-]', // pyridinium olate
      'C[N+](C)(C)C', // quaternary ammonium drawn alone: no O−
      'CCO', // nothing to repair
    ])
      expect(repaired(genuine), genuine).toEqual([]);
  });

  it('fills radicals with hydrogens', () => {
    expect(repaired('C[CH]C')).toEqual([canon('CCC')]);
    expect(repaired('Oc1ccccc1[CH2]')).toEqual([canon('Cc1ccccc1O')]);
    expect(repaired('CC[N]C')).toEqual([canon('CCNC')]);
  });

  it('reads a terminal BH2 as Br, not a boronic acid', () => {
    expect(repaired('BC(CC)C(=O)Nc1ccccc1C')).toEqual([canon('CCC(Br)C(=O)Nc1ccccc1C')]);
    expect(repaired('OB(O)c1ccccc1')).toEqual([]);
  });

  it('gives a nitro group back the O⁻ whose charge was lost, only where the charges do not balance', () => {
    expect(repaired('O=[N+](O)c1ccccc1OCC1CO1')).toEqual([canon('O=[N+]([O-])c1ccccc1OCC1CO1')]);
    expect(repairs(rdkit, 'COC(=O)c1cccc([N+](=O)O)c1Br')[0]!.reason).toMatch(/nitro/);
    // Balanced by a counter-ion drawn beside it: left alone.
    expect(repaired('O=[N+](O)c1ccccc1.[Cl-]')).toEqual([]);
    // Read as NH–O⁻: its =O and the nitrogen's charge were lost too.
    expect(repaired('Nc1c(Cl)cc(N[O-])cc1Cl')).toEqual([canon('Nc1c(Cl)cc([N+](=O)[O-])cc1Cl')]);
    expect(repaired('C[NH+](C)[O-]')).toEqual([]);
    expect(repaired('CN[O-].[Na+]')).toEqual([]);
  });

  it('reads a six-membered carbon ring one C=C short of benzene as benzene, and leaves other rings alone', () => {
    expect(repaired('O=C(C1=CCC(O)C=C1)c1ccc(O)cc1')).toEqual([canon('O=C(c1ccc(O)cc1)c1ccc(O)cc1')]);
    // The ring's CH2 and its substituted CH are the two atoms that lost their double bond.
    expect(repaired('ON=C(Cc1ccccc1)CC1C=CC=CC1')).toEqual([canon('ON=C(Cc1ccccc1)Cc1ccccc1')]);
    for (const other of [
      'C1=CCC=CC1', // 1,4-cyclohexadiene: no single bond makes it benzene
      'C1=CCCCC1', // one double bond only
      'CC1(C)C=CC=CC1', // its saturated neighbour has no hydrogen to give
      'C1=CC=NCC1', // a nitrogen in the ring: not a carbon ring
      'O=C1C=CC(=O)C=C1', // a quinone
    ])
      expect(repaired(other), other).toEqual([]);
  });

  it('repairs several misreadings of one reading at once, and refuses nonsense', () => {
    expect(repaired('[CH2]CC([O-])C')).toContain(canon('CCC(C)=O'));
    expect(repaired('not a smiles')).toEqual([]);
    expect(repaired('')).toEqual([]);
  });

  it('a repaired reading beats its misreading when judged, for the same place', () => {
    const box: [number, number, number, number] = [0, 0, 100, 100];
    const raw = 'CC([O-])c1ccccc1';
    const original = judge(rdkit, raw, 1)!;
    const fixed = judge(rdkit, repairs(rdkit, raw)[0]!.smiles, 1)!;
    const picked = choose([
      { ...original, box, method: 'osra' },
      { ...fixed, score: fixed.score + 0.1, box, method: 'osra, repaired' },
    ]);
    expect(picked.map((p) => p.smiles)).toEqual([canon('CC(=O)c1ccccc1')]);
  });
});

describe('binarisation of a region', () => {
  const img = (fill: (x: number, y: number) => number, w = 100, h = 100) => {
    const data = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * w + x] = fill(x, y);
    return { data, width: w, height: h };
  };

  it('cuts clean paper at 150 and scanned grey paper just below its own level', () => {
    const clean = img((x) => (x % 10 === 0 ? 0 : 255));
    expect(blackBelow(clean, [0, 0, 100, 100])).toBe(150);
    // Grey speckled paper around 240, faint grey ink.
    const scan = img((x, y) => (x % 10 === 0 ? 160 : 235 + ((x * 7 + y * 13) % 11)));
    expect(Math.abs(blackBelow(scan, [0, 0, 100, 100]) - 200)).toBeLessThanOrEqual(2);
    // Dark paper never lifts the cut above 215 nor drops it below 150.
    expect(blackBelow(img(() => 170), [0, 0, 100, 100])).toBe(150);
  });
});
