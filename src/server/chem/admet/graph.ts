import { z } from 'zod';

/** One atom as RDKit perceived it (hydrogens implicit, counted in `hs`). */
export interface GraphAtom {
  z: number;
  /** Hydrogens on the atom (implicit and explicit-in-brackets). */
  hs: number;
  charge: number;
  isotope: number;
  aromatic: boolean;
  /** Indices of bonds at this atom. */
  bonds: number[];
  /** Number of SSSR rings the atom is in. */
  rings: number;
}

/** One bond: `order` 1, 2, 3 (Kekulé form as RDKit writes it) and the aromatic flag. */
export interface GraphBond {
  a: number;
  b: number;
  order: number;
  aromatic: boolean;
  inRing: boolean;
}

/** A molecule's graph read from RDKit's JSON (`Mol.get_json()`), with its SSSR rings. */
export interface MolGraph {
  atoms: GraphAtom[];
  bonds: GraphBond[];
  rings: number[][];
}

const atomJson = z.object({ z: z.number().optional(), impHs: z.number().optional(), chg: z.number().optional(), isotope: z.number().optional() });
const bondJson = z.object({ bo: z.number().optional(), atoms: z.tuple([z.number(), z.number()]) });
const rdkitJson = z.object({
  defaults: z.object({ atom: atomJson.optional(), bond: z.object({ bo: z.number().optional() }).optional() }).optional(),
  molecules: z
    .array(
      z.object({
        atoms: z.array(atomJson).default([]),
        bonds: z.array(bondJson).default([]),
        extensions: z
          .array(
            z.object({
              name: z.string(),
              aromaticAtoms: z.array(z.number()).optional(),
              aromaticBonds: z.array(z.number()).optional(),
              atomRings: z.array(z.array(z.number())).optional(),
            }),
          )
          .optional(),
      }),
    )
    .min(1),
});

/** Reads RDKit's JSON of one molecule into a graph. */
export function readGraph(json: string): MolGraph {
  const parsed = rdkitJson.parse(JSON.parse(json));
  const mol = parsed.molecules[0]!;
  const atomDefaults = { z: 6, impHs: 0, chg: 0, isotope: 0, ...parsed.defaults?.atom };
  const bondDefault = parsed.defaults?.bond?.bo ?? 1;
  const ext = mol.extensions?.find((e) => e.name === 'rdkitRepresentation');
  const aromaticAtoms = new Set(ext?.aromaticAtoms ?? []);
  const aromaticBonds = new Set(ext?.aromaticBonds ?? []);
  const rings = ext?.atomRings ?? [];
  const atoms: GraphAtom[] = mol.atoms.map((a, i) => ({
    z: a.z ?? atomDefaults.z,
    hs: a.impHs ?? atomDefaults.impHs,
    charge: a.chg ?? atomDefaults.chg,
    isotope: a.isotope ?? atomDefaults.isotope,
    aromatic: aromaticAtoms.has(i),
    bonds: [],
    rings: 0,
  }));
  const ringBondKeys = new Set<string>();
  for (const ring of rings) {
    for (let i = 0; i < ring.length; i++) {
      const x = ring[i]!;
      const y = ring[(i + 1) % ring.length]!;
      ringBondKeys.add(x < y ? `${x}-${y}` : `${y}-${x}`);
      atoms[x]!.rings++;
    }
  }
  const bonds: GraphBond[] = mol.bonds.map((b, i) => {
    const [a, c] = b.atoms;
    atoms[a]!.bonds.push(i);
    atoms[c]!.bonds.push(i);
    return { a, b: c, order: b.bo ?? bondDefault, aromatic: aromaticBonds.has(i), inRing: ringBondKeys.has(a < c ? `${a}-${c}` : `${c}-${a}`) };
  });
  return { atoms, bonds, rings };
}

/** The atom at the other end of bond `bondIdx` from atom `atomIdx`. */
export const otherAtom = (g: MolGraph, bondIdx: number, atomIdx: number) => {
  const bond = g.bonds[bondIdx]!;
  return bond.a === atomIdx ? bond.b : bond.a;
};

/** Heavy-atom neighbours of an atom. */
export const neighbours = (g: MolGraph, atomIdx: number) => g.atoms[atomIdx]!.bonds.map((b) => otherAtom(g, b, atomIdx));

/** Heavy neighbours plus hydrogens. */
export const totalDegree = (g: MolGraph, atomIdx: number) => g.atoms[atomIdx]!.bonds.length + g.atoms[atomIdx]!.hs;
