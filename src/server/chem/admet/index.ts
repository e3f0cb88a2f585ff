import type { MainModule, Mol } from '@rdkit/rdkit';
import { insideEgg, type AdmetMolecule } from '../../../contract/admet';
import { ELEMENT_SYMBOLS, hillFormula } from '../elements';
import { ChemInputError, parseMolInput } from '../engine';
import type { AdmetItem, AdmetOutcome } from './protocol';
import { loadBrenk, loadFragmentScores, loadPains, loadQed, type QedData } from './data';
import { readGraph, type MolGraph } from './graph';
import { createMlogp } from './mlogp';
import { compilePatterns, hasMatch, matchAtoms, target, type Pattern, type Target } from './patterns';
import { druglikeness, esol, logKp } from './rules';
import { saScore } from './sascore';


/** RDKit's get_descriptors() values the table uses. */
interface RdkitDescriptors {
  amw: number;
  NumHeavyAtoms: number;
  NumAtoms: number;
  FractionCSP3: number;
  NumRotatableBonds: number;
  NumHBA: number;
  NumHBD: number;
  lipinskiHBA: number;
  lipinskiHBD: number;
  CrippenMR: number;
  CrippenClogP: number;
  tpsa: number;
  NumRings: number;
  NumHeteroatoms: number;
  NumSpiroAtoms: number;
  NumBridgeheadAtoms: number;
  NumAtomStereoCenters: number;
}

const DESCRIPTOR_KEYS: (keyof RdkitDescriptors)[] = [
  'amw', 'NumHeavyAtoms', 'NumAtoms', 'FractionCSP3', 'NumRotatableBonds', 'NumHBA', 'NumHBD', 'lipinskiHBA', 'lipinskiHBD',
  'CrippenMR', 'CrippenClogP', 'tpsa', 'NumRings', 'NumHeteroatoms', 'NumSpiroAtoms', 'NumBridgeheadAtoms', 'NumAtomStereoCenters',
];

function readDescriptors(mol: Mol): RdkitDescriptors {
  const raw = JSON.parse(mol.get_descriptors()) as Record<string, unknown>;
  const out = {} as Record<keyof RdkitDescriptors, number>;
  for (const k of DESCRIPTOR_KEYS) {
    const v = raw[k];
    if (typeof v !== 'number') throw new Error(`RDKit descriptor ${k} missing`);
    out[k] = v;
  }
  return out;
}

/**
 * TPSA contributions of S and P (Ertl, Rohde & Selzer, J. Med. Chem. 43 (2000) 3714–3717, Table 1),
 * added to RDKit's N,O TPSA for the variant SwissADME shows.
 */
export function sulfurPhosphorusPsa(g: MolGraph): number {
  let sum = 0;
  g.atoms.forEach((a) => {
    if ((a.z !== 16 && a.z !== 15) || a.charge !== 0) return;
    let single = 0;
    let double = 0;
    let aromatic = 0;
    for (const bi of a.bonds) {
      const b = g.bonds[bi]!;
      if (b.aromatic) aromatic++;
      else if (b.order === 1) single++;
      else if (b.order === 2) double++;
    }
    const degree = a.bonds.length;
    const hs = a.hs;
    if (a.z === 16) {
      if (a.aromatic) {
        if (degree === 2 && aromatic === 2) sum += 28.24;
        else if (degree === 3 && aromatic === 2 && double === 1) sum += 21.7;
      } else if (hs === 0) {
        if (degree === 2 && single === 2) sum += 25.3;
        else if (degree === 1 && double === 1) sum += 32.09;
        else if (degree === 3 && single === 2 && double === 1) sum += 19.21;
        else if (degree === 4 && single === 2 && double === 2) sum += 8.38;
      } else if (hs === 1 && degree === 1 && single === 1) sum += 38.8;
    } else if (hs === 0) {
      if (degree === 3 && single === 3) sum += 13.59;
      else if (degree === 2 && single === 1 && double === 1) sum += 34.14;
      else if (degree === 4 && single === 3 && double === 1) sum += 9.81;
    } else if (hs === 1 && degree === 3 && single === 2 && double === 1) sum += 23.47;
  });
  return sum;
}

/** Hill formula from the graph (hydrogens included, net charge appended). */
function formulaOf(g: MolGraph): string {
  const counts = new Map<string, number>();
  let charge = 0;
  for (const a of g.atoms) {
    const symbol = ELEMENT_SYMBOLS[a.z] ?? '*';
    counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
    if (a.hs > 0) counts.set('H', (counts.get('H') ?? 0) + a.hs);
    charge += a.charge;
  }
  return hillFormula(counts, charge);
}

/** QED's asymmetric double sigmoid, normalised by its maximum. */
function ads(x: number, [a, b, c, d, e, f, dmax]: readonly number[]): number {
  const exp1 = 1 + Math.exp(-(x - c! + d! / 2) / e!);
  const exp2 = 1 + Math.exp(-(x - c! - d! / 2) / f!);
  return (a! + (b! / exp1) * (1 - 1 / exp2)) / dmax!;
}

/** Rounds for the table (the exports carry the same values). */
const r = (x: number, digits: number) => {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
};

/**
 * The ADMET engine over one loaded RDKit module: every pattern compiled once, data files read on
 * first use. Pure and synchronous (runs in the chemistry worker).
 */
export function createAdmetEngine(rdkit: MainModule) {
  const pains = loadPains();
  const painsPatterns = compilePatterns(rdkit, pains.map((p) => p.smarts));
  const brenk = loadBrenk();
  const brenkPatterns = compilePatterns(rdkit, brenk.map((b) => b.smarts));
  const qedData: QedData = loadQed();
  const acceptors = compilePatterns(rdkit, qedData.acceptors);
  const qedAlerts = compilePatterns(rdkit, qedData.alerts);
  const aliphaticRingAtom = compilePatterns(rdkit, ['[$([A;R][!a])]'])[0]!;
  const anion = compilePatterns(rdkit, ['[CX3](=O)[OX2H1,OX1-]', 'c1nn[nH]n1', 'c1nnn[nH]1', 'c1nn[n-]n1']);
  const mlogp = createMlogp(rdkit);
  const fragmentScores = loadFragmentScores();

  function qed(mol: Target, g: MolGraph, d: RdkitDescriptors): number {
    const hba = acceptors.reduce((sum, p) => sum + matchAtoms(mol, p).length, 0);
    const removed = new Set(matchAtoms(mol, aliphaticRingAtom).flat());
    const arom = g.rings.filter((ring) => ring.every((i) => !removed.has(i))).length;
    const alerts = qedAlerts.filter((p) => hasMatch(mol, p)).length;
    const values: Record<string, number> = {
      MW: d.amw,
      ALOGP: d.CrippenClogP,
      HBA: hba,
      HBD: d.NumHBD,
      PSA: d.tpsa,
      ROTB: d.NumRotatableBonds,
      AROM: arom,
      ALERTS: alerts,
    };
    let t = 0;
    let wsum = 0;
    qedData.properties.forEach((name, i) => {
      const w = qedData.weights[i]!;
      const params = qedData.ads[name];
      if (!params) throw new Error(`QED parameters for ${name} missing`);
      t += w * Math.log(ads(values[name] ?? 0, params));
      wsum += w;
    });
    return Math.exp(t / wsum);
  }

  function painsFamilies(mol: Mol): string[] {
    // The wehi_pains SMARTS name hydrogens explicitly ([#1]): they match only with explicit H atoms.
    const withH = mol.copy();
    if (!withH) throw new Error('RDKit could not copy the molecule');
    try {
      withH.add_hs_in_place();
      const t = target(withH);
      const found: string[] = [];
      painsPatterns.forEach((p, i) => {
        if (hasMatch(t, p)) found.push(pains[i]!.family);
      });
      return found;
    } finally {
      withH.delete();
    }
  }

  function brenkAlerts(mol: Target): string[] {
    return brenkPatterns.flatMap((p: Pattern, i) => {
      const alert = brenk[i]!;
      if (alert.minCount <= 1) return hasMatch(mol, p) ? [alert.name] : [];
      return matchAtoms(mol, p).length >= alert.minCount ? [alert.name] : [];
    });
  }

  function row(mol: Mol, g: MolGraph, item: AdmetItem): AdmetMolecule {
    const t = target(mol);
    const d = readDescriptors(mol);
    const wlogp = d.CrippenClogP;
    const ml = mlogp.mlogp(t, g);
    const tpsaSp = d.tpsa + sulfurPhosphorusPsa(g);
    const aromaticHeavy = g.atoms.filter((a) => a.aromatic).length;
    const solubility = esol({ logp: wlogp, mw: d.amw, rotatable: d.NumRotatableBonds, aromaticProportion: d.NumHeavyAtoms ? aromaticHeavy / d.NumHeavyAtoms : 0 });
    const carbons = g.atoms.filter((a) => a.z === 6).length;
    const rules = druglikeness({
      mw: d.amw,
      wlogp,
      mlogp: ml,
      mr: d.CrippenMR,
      atoms: d.NumAtoms,
      tpsa: d.tpsa,
      rotatable: d.NumRotatableBonds,
      hba: d.NumHBA,
      hbd: d.NumHBD,
      lipinskiHba: d.lipinskiHBA,
      lipinskiHbd: d.lipinskiHBD,
      rings: d.NumRings,
      carbons,
      heteroatoms: d.NumHeteroatoms,
      anion: anion.some((p) => hasMatch(t, p)),
    });
    return {
      input: item.label,
      name: item.name,
      source: item.source,
      smiles: mol.get_smiles(),
      formula: formulaOf(g),
      mw: r(d.amw, 2),
      heavy_atoms: d.NumHeavyAtoms,
      aromatic_heavy_atoms: aromaticHeavy,
      fraction_csp3: r(d.FractionCSP3, 2),
      rotatable_bonds: d.NumRotatableBonds,
      hba: d.NumHBA,
      hbd: d.NumHBD,
      mr: r(d.CrippenMR, 2),
      tpsa: r(d.tpsa, 2),
      tpsa_sp: r(tpsaSp, 2),
      wlogp: r(wlogp, 2),
      mlogp: r(ml, 2),
      consensus_logp: r((wlogp + ml) / 2, 2),
      esol_log_s: r(solubility.logS, 2),
      esol_mg_ml: Number((10 ** solubility.logS * d.amw).toPrecision(3)),
      esol_mol_l: Number((10 ** solubility.logS).toPrecision(3)),
      esol_class: solubility.klass,
      gi_absorption: insideEgg('gi', tpsaSp, wlogp) ? 'high' : 'low',
      bbb_permeant: insideEgg('bbb', tpsaSp, wlogp),
      log_kp: r(logKp(wlogp, d.amw), 2),
      ...rules,
      pains: painsFamilies(mol),
      brenk: brenkAlerts(t),
      sa_score: r(saScore(g, fragmentScores, { heavyAtoms: d.NumHeavyAtoms, stereoCentres: d.NumAtomStereoCenters, spiroAtoms: d.NumSpiroAtoms, bridgeheadAtoms: d.NumBridgeheadAtoms }), 2),
      qed: r(qed(t, g, d), 2),
    };
  }

  return {
    /** The table row of one molecule; bad input throws ChemInputError. */
    molecule(item: AdmetItem): AdmetMolecule {
      const mol = parseMolInput(rdkit, item.input);
      try {
        if (mol.get_num_atoms() === 0) throw new ChemInputError('empty_structure', '结构中没有原子', 'smiles');
        const g = readGraph(mol.get_json());
        // A wildcard or attachment point (atomic number 0) has no properties to predict from.
        if (g.atoms.some((a) => a.z === 0)) throw new ChemInputError('invalid_smiles', 'ADMET 需要完整的分子：结构中含连接点或未知原子（*）', 'smiles');
        return row(mol, g, item);
      } finally {
        mol.delete();
      }
    },
    /** Rows of several molecules; a molecule that fails gives its reason instead of failing the batch. */
    batch(items: AdmetItem[]): AdmetOutcome[] {
      return items.map((item) => {
        try {
          return { ok: true, row: this.molecule(item) };
        } catch (err) {
          if (err instanceof ChemInputError) return { ok: false, code: err.code, message: err.message };
          throw err;
        }
      });
    },
    /** For tests: the raw MLOGP parameters. */
    mlogpParameters(smiles: string) {
      const mol = parseMolInput(rdkit, { smiles });
      try {
        return mlogp.parameters(target(mol), readGraph(mol.get_json()));
      } finally {
        mol.delete();
      }
    },
  };
}

export type AdmetEngine = ReturnType<typeof createAdmetEngine>;
