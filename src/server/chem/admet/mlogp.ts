import type { MainModule } from '@rdkit/rdkit';
import { neighbours, type MolGraph } from './graph';
import { compilePatterns, hasMatch, matchAtoms, type Pattern, type Target } from './patterns';

/**
 * MLOGP, Moriguchi's topological log P: Moriguchi, Hirono, Liu, Nakagome & Matsushita, Chem. Pharm.
 * Bull. 40 (1992) 127–130, with the 13-parameter equation of Chem. Pharm. Bull. 42 (1994) 976–978:
 *
 *   log P = −1.041 + 1.244 CX^0.6 − 1.017 NO^0.9 + 0.406 PRX − 0.145 UB^0.8 + 0.511 HB + 0.268 POL
 *           − 2.215 AMP + 0.912 ALK − 0.392 RNG − 3.684 QN + 0.474 NO2 + 1.582 NCS + 0.773 BLM
 *
 * The parameters are counted from the structure as the papers define them (Moriguchi 1992, Table I);
 * where a definition leaves room (HB, POL) the choice made here is written next to it. Checked
 * against Dragon's MLOGP (Todeschini's implementation) as published with the bioconcentration data
 * set of Grisoni et al., Environ. Int. 88 (2016) 198–205 — see tests/server/chem/mlogp.test.ts —
 * which settles two readings: the N–O bonds of a nitro group count in PRX (2 each), and ALK is only
 * for hydrocarbons with at most one double bond.
 */
export const MLOGP_COEFFICIENTS = {
  constant: -1.041,
  cx: 1.244,
  no: -1.017,
  prx: 0.406,
  ub: -0.145,
  hb: 0.511,
  pol: 0.268,
  amp: -2.215,
  alk: 0.912,
  rng: -0.392,
  qn: -3.684,
  no2: 0.474,
  ncs: 1.582,
  blm: 0.773,
} as const;

/** The 13 structural parameters of one molecule. */
export interface MlogpParameters {
  cx: number;
  no: number;
  prx: number;
  ub: number;
  hb: number;
  pol: number;
  amp: number;
  alk: number;
  rng: number;
  qn: number;
  no2: number;
  ncs: number;
  blm: number;
}

/** Moriguchi's equation over the 13 parameters. */
export function mlogpFromParameters(x: MlogpParameters): number {
  const k = MLOGP_COEFFICIENTS;
  return (
    k.constant +
    k.cx * x.cx ** 0.6 +
    k.no * x.no ** 0.9 +
    k.prx * x.prx +
    k.ub * x.ub ** 0.8 +
    k.hb * x.hb +
    k.pol * x.pol +
    k.amp * x.amp +
    k.alk * x.alk +
    k.rng * x.rng +
    k.qn * x.qn +
    k.no2 * x.no2 +
    k.ncs * x.ncs +
    k.blm * x.blm
  );
}

const SMARTS = {
  nitro: '[N;$([N+](=O)[O-]),$(N(=O)=O)](~[OX1])~[OX1]',
  // HB: an intramolecular hydrogen bond between ortho substituents of an aromatic ring — a donor
  // (OH, NH, NH2) next to a carbonyl, nitro or ring-nitrogen acceptor (o-hydroxy/amino aryl
  // ketones, acids, esters, amides, nitro compounds; 8-hydroxyquinoline-like peri pairs).
  hbond: [
    '[OX2H,NX3;H1,H2;!$(NC=O)]-c:c-[CX3]=[O,N]',
    '[OX2H,NX3;H1,H2]-c:c-[$([N+](=O)[O-]),$(N(=O)=O)]',
    '[OX2H]-c1:c:c:c:c2:c:c:c:n:c:1:2',
  ],
  // AMP: α-amino acid 1.0; aminobenzoic and pyridinecarboxylic acids 0.5 (charged or neutral forms).
  aminoAcid: '[NX3,NX4+;!$(NC=O)][CX4][CX3](=O)[OX2H,OX1-]',
  aminoBenzoic: '[NX3,NX4+;!$(NC=O);!a]c1ccc(cc1)[CX3](=O)[OX2H,OX1-]',
  aminoBenzoicMeta: '[NX3,NX4+;!$(NC=O);!a]c1cccc(c1)[CX3](=O)[OX2H,OX1-]',
  aminoBenzoicOrtho: '[NX3,NX4+;!$(NC=O);!a]c1ccccc1[CX3](=O)[OX2H,OX1-]',
  pyridineAcid3: '[CX3](=O)([OX2H,OX1-])c1c[nX2]ccc1',
  pyridineAcid2: '[CX3](=O)([OX2H,OX1-])c1[nX2]cccc1',
  pyridineAcid4: '[CX3](=O)([OX2H,OX1-])c1cc[nX2]cc1',
  // QN: quaternary nitrogen 1.0 (four carbon substituents — a protonated amine is not quaternary), N-oxide 0.5.
  quaternary: '[NX4+;H0;!$([N+][O-])]',
  nOxide: '[$([NX4+][O-]),$([nX3+][O-]),$([NX3+](=C)[O-])]',
  // NCS: isothiocyanate 1.0, thiocyanate 0.5.
  isothiocyanate: 'N=C=S',
  thiocyanate: 'SC#N',
  // BLM: β-lactam.
  betaLactam: 'O=C1CCN1',
} as const;

/** MLOGP with its SMARTS compiled once for a worker. */
export function createMlogp(rdkit: MainModule) {
  const one = (s: string): Pattern => compilePatterns(rdkit, [s])[0]!;
  const p = {
    nitro: one(SMARTS.nitro),
    hbond: compilePatterns(rdkit, SMARTS.hbond),
    aminoAcid: one(SMARTS.aminoAcid),
    aminoBenzoic: compilePatterns(rdkit, [SMARTS.aminoBenzoic, SMARTS.aminoBenzoicMeta, SMARTS.aminoBenzoicOrtho]),
    pyridineAcid: compilePatterns(rdkit, [SMARTS.pyridineAcid2, SMARTS.pyridineAcid3, SMARTS.pyridineAcid4]),
    quaternary: one(SMARTS.quaternary),
    nOxide: one(SMARTS.nOxide),
    isothiocyanate: one(SMARTS.isothiocyanate),
    thiocyanate: one(SMARTS.thiocyanate),
    betaLactam: one(SMARTS.betaLactam),
  };

  function parameters(mol: Target, g: MolGraph): MlogpParameters {
    const nitroAtoms = new Set(matchAtoms(mol, p.nitro).flat());
    const isNO = (i: number) => g.atoms[i]!.z === 7 || g.atoms[i]!.z === 8;
    let cx = 0;
    let no = 0;
    for (const a of g.atoms) {
      if (a.z === 6) cx += 1;
      else if (a.z === 9) cx += 0.5;
      else if (a.z === 17) cx += 1;
      else if (a.z === 35) cx += 1.5;
      else if (a.z === 53) cx += 2;
      else if (a.z === 7 || a.z === 8) no += 1;
    }

    // PRX: N/O proximity — X–Y bonded 2, X–A–Y (A = C, S, P) 1; −1 per carboxamide or sulfonamide.
    // The N–O bonds of a nitro group count too (4 per nitro group), as in Dragon's values.
    let prx = 0;
    for (const b of g.bonds) if (isNO(b.a) && isNO(b.b)) prx += 2;
    g.atoms.forEach((a, i) => {
      if (a.z !== 6 && a.z !== 16 && a.z !== 15) return;
      const hetero = neighbours(g, i).filter(isNO);
      prx += (hetero.length * (hetero.length - 1)) / 2;
      const doubleO = a.bonds.some((bi) => {
        const bond = g.bonds[bi]!;
        const o = bond.a === i ? bond.b : bond.a;
        return g.atoms[o]!.z === 8 && bond.order === 2 && !bond.aromatic;
      });
      const amideN = hetero.some((n) => g.atoms[n]!.z === 7);
      if (doubleO && amideN && (a.z === 6 || a.z === 16)) prx -= 1;
    });
    prx = Math.max(0, prx);

    // UB: double and triple bonds (Kekulé form, so a benzene ring counts 3) except those of nitro groups.
    let ub = 0;
    for (const b of g.bonds) {
      if (b.order < 2) continue;
      if (nitroAtoms.has(b.a) && nitroAtoms.has(b.b)) continue;
      ub += 1;
    }

    const hb = p.hbond.some((q) => hasMatch(mol, q)) ? 1 : 0;

    // POL: aromatic substituents that are polar — attached through a heteroatom, or through a
    // carbon that carries a heteroatom (e.g. COOH, CN, CF3); counted once per substituent.
    let pol = 0;
    g.bonds.forEach((b) => {
      if (b.inRing) return;
      const ends: [number, number][] = [
        [b.a, b.b],
        [b.b, b.a],
      ];
      for (const [ring, sub] of ends) {
        if (!g.atoms[ring]!.aromatic || g.atoms[sub]!.aromatic) continue;
        const s = g.atoms[sub]!;
        const polar = s.z !== 6 || neighbours(g, sub).some((n) => n !== ring && g.atoms[n]!.z !== 6);
        if (polar) pol += 1;
      }
    });

    let amp = 0;
    if (hasMatch(mol, p.aminoAcid)) amp = 1;
    else if (p.aminoBenzoic.some((q) => hasMatch(mol, q)) || p.pyridineAcid.some((q) => hasMatch(mol, q))) amp = 0.5;

    // ALK: alkanes, alkenes, cycloalkanes and cycloalkenes — hydrocarbons with no aromatic ring, no
    // triple bond and at most one double bond (4-vinylcyclohexene, with two, has ALK 0 in Dragon).
    const hydrocarbon = g.atoms.every((a) => a.z === 6 && !a.aromatic) && g.bonds.every((b) => b.order < 3);
    const alk = hydrocarbon && g.bonds.filter((b) => b.order === 2).length <= 1 ? 1 : 0;

    // RNG: any ring other than benzene and its condensed rings.
    const rng = g.rings.some((r) => !r.every((i) => g.atoms[i]!.z === 6 && g.atoms[i]!.aromatic)) ? 1 : 0;

    const qn = matchAtoms(mol, p.quaternary).length > 0 ? 1 : matchAtoms(mol, p.nOxide).length > 0 ? 0.5 : 0;
    const no2 = matchAtoms(mol, p.nitro).length;
    const ncs = hasMatch(mol, p.isothiocyanate) ? 1 : hasMatch(mol, p.thiocyanate) ? 0.5 : 0;
    const blm = hasMatch(mol, p.betaLactam) ? 1 : 0;
    return { cx, no, prx, ub, hb, pol, amp, alk, rng, qn, no2, ncs, blm };
  }

  return {
    parameters,
    /** MLOGP of a molecule. */
    mlogp: (mol: Target, g: MolGraph): number => mlogpFromParameters(parameters(mol, g)),
  };
}
