import type { AdmetMolecule } from '../../../contract/admet';

/**
 * ESOL (Delaney, J. Chem. Inf. Comput. Sci. 44 (2004) 1000–1005):
 * log S = 0.16 − 0.63 clogP − 0.0062 MW + 0.066 RB − 0.74 AP, with WLOGP standing in for clogP;
 * the class is SwissADME's log S scale.
 */
export function esol(x: { logp: number; mw: number; rotatable: number; aromaticProportion: number }): { logS: number; klass: AdmetMolecule['esol_class'] } {
  const logS = 0.16 - 0.63 * x.logp - 0.0062 * x.mw + 0.066 * x.rotatable - 0.74 * x.aromaticProportion;
  const klass = logS < -10 ? 'insoluble' : logS < -6 ? 'poorly' : logS < -4 ? 'moderately' : logS < -2 ? 'soluble' : logS < 0 ? 'very' : 'highly';
  return { logS, klass };
}

/**
 * Skin permeation (Potts & Guy, Pharm. Res. 9 (1992) 663–669) in cm/s as SwissADME gives it:
 * log Kp = 0.71 log P − 0.0061 MW − 6.3, with WLOGP as log P.
 */
export const logKp = (logp: number, mw: number) => 0.71 * logp - 0.0061 * mw - 6.3;

/** What the drug-likeness filters read. */
export interface RuleInput {
  mw: number;
  wlogp: number;
  mlogp: number;
  mr: number;
  /** All atoms including hydrogens (Ghose). */
  atoms: number;
  tpsa: number;
  rotatable: number;
  hba: number;
  hbd: number;
  /** N + O atoms and NH + OH (Lipinski's own counts). */
  lipinskiHba: number;
  lipinskiHbd: number;
  rings: number;
  carbons: number;
  heteroatoms: number;
  /** A carboxylic acid or tetrazole: an anion at physiological pH (Abbott score). */
  anion: boolean;
}

const fmt = (n: number) => String(n);

/** One range check: the violation text when `value` is outside [min, max]. */
function range(label: string, value: number, min: number | undefined, max: number | undefined): string[] {
  if (min !== undefined && value < min) return [`${label}<${fmt(min)}`];
  if (max !== undefined && value > max) return [`${label}>${fmt(max)}`];
  return [];
}

/**
 * The drug-likeness filters with the violated rules named as SwissADME writes them, the Abbott
 * bioavailability score and lead-likeness. Thresholds:
 * - Lipinski: Lipinski et al., Adv. Drug Deliv. Rev. 23 (1997) 3–25 (MLOGP as in that paper);
 * - Ghose: Ghose, Viswanadhan & Wendoloski, J. Comb. Chem. 1 (1999) 55–68;
 * - Veber: Veber et al., J. Med. Chem. 45 (2002) 2615–2623;
 * - Egan: Egan, Merz & Baldwin, J. Med. Chem. 43 (2000) 3867–3877;
 * - Muegge: Muegge, Heald & Brittelli, J. Med. Chem. 44 (2001) 1841–1846 (WLOGP for XLOGP3);
 * - Abbott score: Martin, J. Med. Chem. 48 (2005) 3164–3170;
 * - lead-likeness: Teague, Davis, Leeson & Oprea, Angew. Chem. Int. Ed. 38 (1999) 3743–3748 (WLOGP for XLOGP3).
 */
export function druglikeness(x: RuleInput) {
  const lipinski = [
    ...range('MW', x.mw, undefined, 500),
    ...range('MLOGP', x.mlogp, undefined, 4.15),
    ...range('NorO', x.lipinskiHba, undefined, 10),
    ...range('NHorOH', x.lipinskiHbd, undefined, 5),
  ];
  const ghose = [
    ...range('MW', x.mw, 160, 480),
    ...range('WLOGP', x.wlogp, -0.4, 5.6),
    ...range('MR', x.mr, 40, 130),
    ...range('#atoms', x.atoms, 20, 70),
  ];
  const veber = [...range('Rotors', x.rotatable, undefined, 10), ...range('TPSA', x.tpsa, undefined, 140)];
  const egan = [...range('WLOGP', x.wlogp, undefined, 5.88), ...range('TPSA', x.tpsa, undefined, 131.6)];
  const muegge = [
    ...range('MW', x.mw, 200, 600),
    ...range('WLOGP', x.wlogp, -2, 5),
    ...range('TPSA', x.tpsa, undefined, 150),
    ...range('#rings', x.rings, undefined, 7),
    ...(x.carbons <= 4 ? ['#C<5'] : []),
    ...(x.heteroatoms <= 1 ? ['#heteroatoms<2'] : []),
    ...range('#rotatable bonds', x.rotatable, undefined, 15),
    ...range('H-acc', x.hba, undefined, 10),
    ...range('H-don', x.hbd, undefined, 5),
  ];
  // Martin 2005: anions by polar surface area; everything else by the rule of five (≤ 1 violation passes).
  const bioavailability_score = x.anion ? (x.tpsa < 75 ? 0.85 : x.tpsa <= 150 ? 0.56 : 0.11) : lipinski.length <= 1 ? 0.55 : 0.17;
  const leadlikeness = [...range('MW', x.mw, 250, 350), ...range('WLOGP', x.wlogp, undefined, 3.5), ...range('Rotors', x.rotatable, undefined, 7)];
  return { lipinski, ghose, veber, egan, muegge, bioavailability_score, leadlikeness };
}
