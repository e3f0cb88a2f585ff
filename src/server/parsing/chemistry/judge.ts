import type { MainModule } from '@rdkit/rdkit';
import { withValidMol } from '../../chem/rdkit-loader';

/**
 * RDKit sanity checks on a structure OSRA read: a SMILES RDKit refuses (a bad
 * valence, an unclosed ring) is no molecule; what remains is scored on what drawings of
 * medicinal chemistry hold — one fragment (or a salt), the usual elements, rings of 3–8 atoms, few
 * charges — on top of OSRA's own estimate.
 */
export interface Judged {
  /** RDKit's canonical SMILES. */
  smiles: string;
  inchiKey: string;
  /** Higher is more plausible; below 0 is not kept. */
  score: number;
  heavyAtoms: number;
}

const ORGANIC = new Set([1, 5, 6, 7, 8, 9, 14, 15, 16, 17, 34, 35, 53]);
/** Counter-ions a drawing may carry beside its molecule. */
const COUNTER_IONS = new Set([3, 11, 12, 19, 20, 17, 35, 53]);

interface JsonAtom {
  z?: number;
  chg?: number;
  nRad?: number;
}
interface MolJson {
  defaults: { atom: { z: number; chg: number; nRad: number } };
  molecules: { atoms: JsonAtom[]; extensions?: { atomRings?: number[][] }[] }[];
}

/** OSRA's estimate (about −5…5) mapped to 0–1. */
export const osraConfidence = (score: number) => 1 / (1 + Math.exp(-1.2 * score));

/** A molecule's standard InChIKey, or '' when InChI cannot describe it. */
export function inchiKeyOf(rdkit: MainModule, mol: { get_inchi(): string }): string {
  try {
    const inchi = mol.get_inchi();
    return inchi ? rdkit.get_inchikey_for_inchi(inchi) : '';
  } catch {
    return '';
  }
}

export function judge(rdkit: MainModule, raw: string, osraScore: number): Judged | null {
  if (!raw || raw.length > 2000) return null;
  return withValidMol(rdkit, raw, (mol) => {
    const smiles = mol.get_smiles();
    const json = JSON.parse(mol.get_json()) as MolJson;
    const d = json.defaults.atom;
    const atoms = json.molecules.flatMap((m) => m.atoms);
    const heavy = atoms.filter((a) => (a.z ?? d.z) !== 1);
    if (heavy.length < 3 || !heavy.some((a) => (a.z ?? d.z) === 6)) return null;
    let penalty = 0;
    // Fragments: one molecule, or one with small counter-ions.
    const frags = smiles.split('.');
    if (frags.length > 1) {
      const small = json.molecules.length > 1 ? json.molecules.slice(1) : [];
      const ions = frags.filter((f) => f.length <= 6).length;
      penalty += ions === frags.length - 1 && small.length >= 0 ? 0.3 : 1.2 * (frags.length - 1);
    }
    // Elements: query atoms, R groups and metals are misreadings more often than not.
    for (const a of heavy) {
      const z = a.z ?? d.z;
      if (z === 0) penalty += 0.8;
      else if (!ORGANIC.has(z) && !COUNTER_IONS.has(z)) penalty += 1.0;
    }
    // Charges and radicals.
    const charged = heavy.filter((a) => (a.chg ?? d.chg) !== 0).length;
    if (charged > 2) penalty += 0.3 * (charged - 2);
    if (heavy.some((a) => (a.nRad ?? d.nRad) > 0)) penalty += 0.8;
    // Ring closures: rings of 3–8 atoms; many small rings mean bonds read across each other.
    const rings = json.molecules.flatMap((m) => m.extensions?.flatMap((e) => e.atomRings ?? []) ?? []);
    for (const r of rings) {
      if (r.length > 8) penalty += 0.8;
      else if (r.length <= 4) penalty += 0.35;
    }
    const inchiKey = inchiKeyOf(rdkit, mol);
    if (!inchiKey) penalty += 0.5;
    // Larger molecules read right are worth more than small fragments of them.
    const size = Math.min(0.3, heavy.length / 100);
    return { smiles, inchiKey, heavyAtoms: heavy.length, score: osraConfidence(osraScore) + size - penalty };
  });
}
