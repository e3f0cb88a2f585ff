import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOILED_EGG, insideEgg, type AdmetMolecule } from '../../../src/contract/admet';
import { createAdmetEngine, type AdmetEngine } from '../../../src/server/chem/admet';
import { loadPains } from '../../../src/server/chem/admet/data';
import { loadRdkit } from '../../../src/server/chem/rdkit-loader';
import { DRUGS } from './drugs';

const RDKIT_DATA = '/usr/share/RDKit/Data';
const PYTHON = '/usr/bin/python3';
const hasPythonRdkit = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import rdkit'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let engine: AdmetEngine;
beforeAll(async () => {
  engine = createAdmetEngine(await loadRdkit());
}, 60_000);

const row = (smiles: string): AdmetMolecule => engine.molecule({ input: { smiles }, label: smiles, name: '', source: 'smiles' });

/** Non-comment lines of a data file of rdkit-data. */
const dataLines = (file: string) =>
  fs
    .readFileSync(`${RDKIT_DATA}/${file}`, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'));

describe('TPSA against Daylight and Ertl’s own program (rdkit-data NCI/first_5k.tpsa.csv)', () => {
  it('agrees within 0.01 Å² for at least 99% of 500 NCI molecules', () => {
    const lines = dataLines('NCI/first_5k.tpsa.csv').filter((_, i) => i % 10 === 0);
    expect(lines.length).toBe(500);
    const off: string[] = [];
    for (const line of lines) {
      const comma = line.lastIndexOf(',');
      const [smiles, expected] = [line.slice(0, comma), Number(line.slice(comma + 1))];
      let got: number;
      try {
        got = row(smiles).tpsa;
      } catch (err) {
        off.push(`${smiles}: ${String(err)}`);
        continue;
      }
      if (Math.abs(got - expected) > 0.01) off.push(`${smiles}: ${got} ≠ ${expected}`);
    }
    expect(off.length, off.slice(0, 5).join('\n')).toBeLessThanOrEqual(5);
  }, 120_000);
});

describe('PAINS against the expected families (rdkit-data Pains/test_data/test_set3.txt)', () => {
  it('has all 480 families of Baell & Holloway', () => {
    expect(loadPains()).toHaveLength(480);
  });

  it('finds the expected family in every one of the 462 test molecules', () => {
    const families = loadPains().map((p) => p.family);
    const lines = dataLines('Pains/test_data/test_set3.txt');
    expect(lines).toHaveLength(462);
    const missed: string[] = [];
    for (const line of lines) {
      const [index, , smiles, id] = line.split('\t');
      const expected = families[Number(index)]!;
      if (!row(smiles!).pains.includes(expected)) missed.push(`${id} ${smiles}: ${expected}`);
    }
    expect(missed).toEqual([]);
  }, 180_000);

  it('finds nothing in aspirin, caffeine and ibuprofen', () => {
    for (const s of ['CC(=O)Oc1ccccc1C(=O)O', 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 'CC(C)Cc1ccc(cc1)C(C)C(=O)O']) expect(row(s).pains).toEqual([]);
  });
});

describe.runIf(hasPythonRdkit)('against Debian python3-rdkit (an independent RDKit build with FilterCatalog and SA_Score)', () => {
  type Reference = {
    wlogp: number; mr: number; tpsa: number; tpsa_sp: number; qed: number; hba: number; hbd: number; rotatable_bonds: number;
    fraction_csp3: number; heavy_atoms: number; mw: number; sa_score: number; pains: string[]; brenk: string[];
  };
  const nci = dataLines('NCI/first_5K.smi').map((l) => l.split(/\s+/)[0]!).filter((_, i) => i % 16 === 0).slice(0, 300);
  const smiles = [...nci, ...DRUGS.map((d) => d.smiles)];
  let reference: (Reference | null)[];
  let rows: AdmetMolecule[];
  beforeAll(() => {
    const out = execFileSync(PYTHON, [new URL('./admet-reference.py', import.meta.url).pathname], { input: JSON.stringify(smiles), maxBuffer: 64 << 20 });
    reference = JSON.parse(out.toString()) as (Reference | null)[];
    rows = smiles.map(row);
  }, 240_000);

  const close = (field: keyof Reference & keyof AdmetMolecule, tolerance: number) => () => {
    const off = smiles.flatMap((s, i) => {
      const ref = reference[i];
      const got = rows[i]![field];
      return ref && Math.abs(Number(got) - Number(ref[field])) > tolerance ? [`${s}: ${String(got)} ≠ ${String(ref[field])}`] : [];
    });
    expect(off).toEqual([]);
  };

  it(`reads all ${313} molecules`, () => {
    expect(reference.filter(Boolean)).toHaveLength(smiles.length);
  });
  it('WLOGP = MolLogP (Wildman–Crippen)', close('wlogp', 0.006));
  it('MR = MolMR', close('mr', 0.006));
  it('TPSA (N, O) = CalcTPSA', close('tpsa', 0.006));
  it('TPSA with S and P = CalcTPSA(includeSandP=True)', close('tpsa_sp', 0.006));
  it('molecular weight', close('mw', 0.006));
  it('heavy atoms, H-bond donors, rotatable bonds, Fsp3', () => {
    close('heavy_atoms', 0)();
    close('hbd', 0)();
    close('rotatable_bonds', 0)();
    close('fraction_csp3', 0.006)();
  });
  it('H-bond acceptors: RDKit 2026 (WASM) and 2022 (Debian) differ only on some azole nitrogens (≥ 95% equal)', () => {
    const equal = smiles.filter((_, i) => reference[i]!.hba === rows[i]!.hba).length;
    expect(equal / smiles.length).toBeGreaterThanOrEqual(0.95);
  });
  it('QED = QED.qed (Bickerton 2012)', close('qed', 0.006));
  it('SA score = Contrib/SA_Score sascorer (Ertl & Schuffenhauer 2009)', close('sa_score', 0.006));
  it('PAINS families = FilterCatalog PAINS', () => {
    const off = smiles.flatMap((s, i) => (JSON.stringify([...rows[i]!.pains].sort()) === JSON.stringify(reference[i]!.pains) ? [] : [s]));
    expect(off).toEqual([]);
    expect(rows.filter((r) => r.pains.length > 0).length).toBeGreaterThan(0);
  });
  it('Brenk alerts = FilterCatalog BRENK', () => {
    const off = smiles.flatMap((s, i) => (JSON.stringify([...rows[i]!.brenk].sort()) === JSON.stringify(reference[i]!.brenk) ? [] : [`${s}: ${rows[i]!.brenk} ≠ ${reference[i]!.brenk}`]));
    expect(off).toEqual([]);
    expect(rows.filter((r) => r.brenk.length > 0).length).toBeGreaterThan(20);
  });
});

describe('the table of a chemist’s familiar molecules', () => {
  it('aspirin: SwissADME’s physicochemical values, an acid’s Abbott score, the phenol-ester alert', () => {
    const a = row('CC(=O)Oc1ccccc1C(=O)O');
    expect(a).toMatchObject({
      formula: 'C9H8O4',
      mw: 180.16,
      heavy_atoms: 13,
      aromatic_heavy_atoms: 6,
      fraction_csp3: 0.11,
      rotatable_bonds: 2,
      mr: 44.71,
      tpsa: 63.6,
      wlogp: 1.31,
      gi_absorption: 'high',
      lipinski: [],
      bioavailability_score: 0.85,
      brenk: ['phenol_ester'],
    });
  });

  it('ESOL follows Delaney’s equation with WLOGP, and its class the SwissADME scale', () => {
    const ibuprofen = row('CC(C)Cc1ccc(cc1)C(C)C(=O)O');
    const expected = 0.16 - 0.63 * 3.0732 - 0.0062 * 206.285 + 0.066 * 4 - 0.74 * (6 / 15);
    expect(ibuprofen.esol_log_s).toBeCloseTo(expected, 2);
    expect(ibuprofen.esol_class).toBe('soluble');
    expect(ibuprofen.esol_mol_l).toBeCloseTo(10 ** expected, 5);
    expect(ibuprofen.esol_mg_ml).toBeCloseTo(10 ** expected * 206.285, 2);
    expect(row('CCO').esol_class).toBe('very');
  });

  it('names each violated rule: a large lipophilic molecule fails Lipinski, Ghose, Veber, Egan and Muegge', () => {
    const big = row('CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC(=O)OC(COC(=O)CCCCCCCCCCCCCCCCC)COC(=O)CCCCCCCCCCCCCCCCC');
    expect(big.lipinski).toEqual(expect.arrayContaining(['MW>500', 'MLOGP>4.15']));
    expect(big.ghose).toEqual(expect.arrayContaining(['MW>480', 'WLOGP>5.6', 'MR>130', '#atoms>70']));
    expect(big.veber).toEqual(['Rotors>10']);
    expect(big.egan).toEqual(['WLOGP>5.88']);
    expect(big.muegge).toEqual(expect.arrayContaining(['MW>600', 'WLOGP>5', '#rotatable bonds>15']));
    expect(big.bioavailability_score).toBe(0.17);
    expect(big.leadlikeness).toEqual(['MW>350', 'WLOGP>3.5', 'Rotors>7']);
  });

  it('MLOGP counts Moriguchi’s parameters: benzene, nitrobenzene, glycine, a β-lactam', () => {
    expect(row('c1ccccc1').mlogp).toBeCloseTo(-1.041 + 1.244 * 6 ** 0.6 - 0.145 * 3 ** 0.8, 2);
    expect(engine.mlogpParameters('c1ccccc1')).toMatchObject({ cx: 6, no: 0, ub: 3, rng: 0, alk: 0 });
    expect(engine.mlogpParameters('O=[N+]([O-])c1ccccc1')).toMatchObject({ no2: 1, ub: 3, no: 3, prx: 4 });
    expect(engine.mlogpParameters('NCC(=O)O')).toMatchObject({ amp: 1 });
    expect(engine.mlogpParameters('CCCCCC')).toMatchObject({ alk: 1, cx: 6 });
    expect(engine.mlogpParameters('C1CCCCC1')).toMatchObject({ alk: 1, rng: 1 });
    expect(engine.mlogpParameters('O=C1CCN1')).toMatchObject({ blm: 1, rng: 1 });
    expect(engine.mlogpParameters('C[N+](C)(C)C')).toMatchObject({ qn: 1 });
    expect(engine.mlogpParameters('S=C=Nc1ccccc1')).toMatchObject({ ncs: 1 });
    expect(engine.mlogpParameters('Oc1ccccc1C(C)=O')).toMatchObject({ hb: 1 });
  });

  it('BOILED-Egg: the egg’s own ellipse points lie on its border; its centre inside; far points outside', () => {
    for (const part of ['gi', 'bbb'] as const) {
      const pts = BOILED_EGG[part].outline;
      const cx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
      const cy = pts.reduce((s, p) => s + p[1], 0) / pts.length;
      expect(insideEgg(part, cx, cy)).toBe(true);
      expect(insideEgg(part, 200, 0)).toBe(false);
      expect(insideEgg(part, 40, 9)).toBe(false);
    }
    // Caffeine (WLOGP −1.03) lies in the white but below the yolk; ibuprofen in the yolk.
    expect(row('CN1C=NC2=C1C(=O)N(C(=O)N2C)C')).toMatchObject({ gi_absorption: 'high', bbb_permeant: false });
    expect(row('CC(C)Cc1ccc(cc1)C(C)C(=O)O')).toMatchObject({ gi_absorption: 'high', bbb_permeant: true });
  });

  it('refuses what is not a molecule with a Chinese message', () => {
    expect(() => row('C1CC')).toThrow(/无法解析 SMILES/);
    expect(() => row('x'.repeat(3000))).toThrow(/不能超过/);
    const outcomes = engine.batch([
      { input: { smiles: 'CCO' }, label: 'CCO', name: '', source: 'smiles' },
      { input: { smiles: 'not-a-smiles' }, label: 'not-a-smiles', name: '', source: 'smiles' },
    ]);
    expect(outcomes[0]).toMatchObject({ ok: true });
    expect(outcomes[1]).toMatchObject({ ok: false, code: 'invalid_smiles' });
  });
});
