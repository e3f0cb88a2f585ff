import type { MolGraph } from './graph';
import { otherAtom, totalDegree } from './graph';

/** RDKit's 32-bit copy of boost's hash_combine (RDGeneral/hash/hash.hpp). */
function hashCombine(seed: number, value: number): number {
  return (seed ^ ((value + 0x9e3779b9 + ((seed << 6) >>> 0) + (seed >>> 2)) >>> 0)) >>> 0;
}

const hashList = (values: number[]) => values.reduce((seed, v) => hashCombine(seed, v >>> 0), 0);

/** Bond types as RDKit numbers them (Bond::BondType): SINGLE 1, DOUBLE 2, TRIPLE 3, AROMATIC 12. */
const bondType = (g: MolGraph, bondIdx: number) => {
  const bond = g.bonds[bondIdx]!;
  return bond.aromatic ? 12 : bond.order;
};

/**
 * The unfolded Morgan fingerprint of radius `radius` with counts, as RDKit's
 * `GetMorganFingerprint(mol, radius)` builds it (connectivity invariants, bond types, redundant
 * environments dropped), which is what the SA fragment scores are keyed by.
 */
export function morganCounts(g: MolGraph, radius = 2): Map<number, number> {
  const n = g.atoms.length;
  const counts = new Map<number, number>();
  const add = (id: number) => counts.set(id, (counts.get(id) ?? 0) + 1);
  // Connectivity invariants (getConnectivityInvariants with ring membership). The mass term is
  // 0 for the natural isotope mixture; isotope labels are not distinguished here.
  let invariants = g.atoms.map((atom, i) => {
    const parts = [atom.z, totalDegree(g, i), atom.hs, atom.charge, 0];
    if (atom.rings > 0) parts.push(1);
    return hashList(parts);
  });
  invariants.forEach(add);

  // Environments as sets of bond indices (a string key per set).
  let atomEnvs: Set<number>[] = Array.from({ length: n }, () => new Set<number>());
  const seen = new Set<string>();
  const dead = new Array<boolean>(n).fill(false);
  for (let layer = 0; layer < radius; layer++) {
    const next = [...invariants];
    const roundEnvs = atomEnvs.map((s) => new Set(s));
    const thisRound: { key: string; invariant: number; atom: number }[] = [];
    for (let i = 0; i < n; i++) {
      if (dead[i]) continue;
      // An atom without bonds has no larger environment (RDKit adds none for it).
      if (g.atoms[i]!.bonds.length === 0) {
        dead[i] = true;
        continue;
      }
      const nbrs: [number, number][] = [];
      for (const b of g.atoms[i]!.bonds) {
        roundEnvs[i]!.add(b);
        const o = otherAtom(g, b, i);
        atomEnvs[o]!.forEach((x) => roundEnvs[i]!.add(x));
        nbrs.push([bondType(g, b), invariants[o]!]);
      }
      nbrs.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      let invariant = hashCombine(layer, invariants[i]!);
      for (const [t, inv] of nbrs) invariant = hashCombine(invariant, hashCombine(hashCombine(0, t), inv));
      next[i] = invariant;
      const key = [...roundEnvs[i]!].sort((a, b) => a - b).join(',');
      thisRound.push({ key, invariant, atom: i });
      if (seen.has(key)) dead[i] = true;
    }
    // Equal environments: the smallest invariant (then atom index) is kept, as RDKit sorts them.
    thisRound.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : x.invariant - y.invariant || x.atom - y.atom));
    for (const env of thisRound) {
      if (!seen.has(env.key)) {
        add(env.invariant);
        seen.add(env.key);
      } else {
        dead[env.atom] = true;
      }
    }
    invariants = next;
    atomEnvs = roundEnvs;
  }
  return counts;
}

/** Fragment score by Morgan environment id (Ertl & Schuffenhauer 2009, published with RDKit's Contrib/SA_Score). */
export type FragmentScores = ReadonlyMap<number, number>;

/** Counts the synthetic-accessibility score needs besides the fingerprint. */
export interface SaFeatures {
  heavyAtoms: number;
  stereoCentres: number;
  spiroAtoms: number;
  bridgeheadAtoms: number;
}

/**
 * Synthetic accessibility score, 1 (easy) to 10 (hard): Ertl & Schuffenhauer, J. Cheminf. 1:8 (2009),
 * with the fragment-density correction and macrocycle term of its reference implementation (v1.1).
 */
export function saScore(g: MolGraph, scores: FragmentScores, f: SaFeatures): number {
  const fp = morganCounts(g, 2);
  let fragment = 0;
  let nf = 0;
  for (const [id, count] of fp) {
    nf += count;
    fragment += (scores.get(id) ?? -4) * count;
  }
  fragment /= nf;
  const nAtoms = f.heavyAtoms;
  const macrocycles = g.rings.some((r) => r.length > 8);
  const complexity =
    0 -
    (nAtoms ** 1.005 - nAtoms) -
    Math.log10(f.stereoCentres + 1) -
    Math.log10(f.spiroAtoms + 1) -
    Math.log10(f.bridgeheadAtoms + 1) -
    (macrocycles ? Math.log10(2) : 0);
  const density = nAtoms > fp.size ? Math.log(nAtoms / fp.size) * 0.5 : 0;
  const raw = fragment + complexity + density;
  const min = -4.0;
  const max = 2.5;
  let sa = 11 - ((raw - min + 1) / (max - min)) * 9;
  if (sa > 8) sa = 8 + Math.log(sa + 1 - 9);
  return Math.min(10, Math.max(1, sa));
}
