import type { MainModule } from '@rdkit/rdkit';
import { z } from 'zod';

/**
 * Group labels of structure drawings (CF3, OMe, CO2H, NHBoc, Me2N, F3C …) expanded into atoms for
 * the vector reader (vector.ts). The facts — which label means which group — follow RDKit's default
 * abbreviations (rdkit/Chem/rdAbbreviations, `GetDefaultAbbreviations()`, RDKit 2022.09: label, its
 * mirrored form for a bond coming from the right, and the group's SMILES) and Open Babel's
 * superatom.txt (originally OSRA's list), written here in this module's own form: a few substituents
 * (Me, Et, Ph, Boc, Ts …), what joins them (O, N, CO2, SO2 …), and groups that are read as a whole.
 * Where those lists are wrong it follows chemistry: iBu is CH2CH(CH3)2 (RDKit 2022 has sec-butyl).
 *
 * Every group's SMILES starts at the atom that carries the bond to the rest of the drawing.
 */

/** Substituents (monovalent), by the names written for them. */
const SUBSTITUENTS: Record<string, string> = {
  Me: 'C',
  CH3: 'C',
  Et: 'CC',
  C2H5: 'CC',
  Pr: 'CCC',
  nPr: 'CCC',
  'n-Pr': 'CCC',
  iPr: 'C(C)C',
  'i-Pr': 'C(C)C',
  Bu: 'CCCC',
  nBu: 'CCCC',
  'n-Bu': 'CCCC',
  iBu: 'CC(C)C',
  'i-Bu': 'CC(C)C',
  sBu: 'C(C)CC',
  's-Bu': 'C(C)CC',
  tBu: 'C(C)(C)C',
  't-Bu': 'C(C)(C)C',
  cPr: 'C1CC1',
  'c-Pr': 'C1CC1',
  Ph: 'c1ccccc1',
  Bn: 'Cc1ccccc1',
  Bz: 'C(=O)c1ccccc1',
  Ac: 'C(C)=O',
  Boc: 'C(=O)OC(C)(C)C',
  Cbz: 'C(=O)OCc1ccccc1',
  Fmoc: 'C(=O)OCC1c2ccccc2-c2ccccc21',
  Piv: 'C(=O)C(C)(C)C',
  PMB: 'Cc1ccc(OC)cc1',
  Ts: 'S(=O)(=O)c1ccc(C)cc1',
  Ms: 'S(C)(=O)=O',
  Tf: 'S(=O)(=O)C(F)(F)F',
  TMS: '[Si](C)(C)C',
  TBS: '[Si](C)(C)C(C)(C)C',
  TBDMS: '[Si](C)(C)C(C)(C)C',
  TIPS: '[Si](C(C)C)(C(C)C)C(C)C',
  Tr: 'C(c1ccccc1)(c1ccccc1)c1ccccc1',
  Trt: 'C(c1ccccc1)(c1ccccc1)c1ccccc1',
  CF3: 'C(F)(F)F',
  CHF2: 'C(F)F',
};

/** What joins a substituent to the drawing: `{R}` stands for it (twice for NMe2). */
const LINKS: Record<string, string> = {
  O: 'O{R}',
  S: 'S{R}',
  N: 'N{R}',
  NH: 'N{R}',
  CO2: 'C(=O)O{R}',
  COO: 'C(=O)O{R}',
  CO: 'C(=O){R}',
  SO2: 'S(=O)(=O){R}',
  CONH: 'C(=O)N{R}',
  NHCO: 'NC(=O){R}',
  NHSO2: 'NS(=O)(=O){R}',
  CH2: 'C{R}',
  OCO: 'OC(=O){R}',
};

/** Groups read as a whole (as written to the right of their bond). */
const GROUPS: Record<string, string> = {
  CF3: 'C(F)(F)F',
  CCl3: 'C(Cl)(Cl)Cl',
  CBr3: 'C(Br)(Br)Br',
  CHF2: 'C(F)F',
  CH2F: 'CF',
  OCF3: 'OC(F)(F)F',
  OCHF2: 'OC(F)F',
  SCF3: 'SC(F)(F)F',
  SF5: 'S(F)(F)(F)(F)F',
  CN: 'C#N',
  NC: '[N+]#[C-]',
  NO2: '[N+](=O)[O-]',
  NO: 'N=O',
  N3: 'N=[N+]=[N-]',
  NCO: 'N=C=O',
  NCS: 'N=C=S',
  SCN: 'SC#N',
  OCN: 'OC#N',
  SO3H: 'S(=O)(=O)O',
  SO2NH2: 'S(N)(=O)=O',
  SO2Cl: 'S(=O)(=O)Cl',
  SO2F: 'S(=O)(=O)F',
  CO2H: 'C(=O)O',
  COOH: 'C(=O)O',
  CHO: 'C=O',
  CONH2: 'C(N)=O',
  CONHMe: 'C(=O)NC',
  CONMe2: 'C(=O)N(C)C',
  CONEt2: 'C(=O)N(CC)CC',
  CH2OH: 'CO',
  CH2NH2: 'CN',
  CH2CN: 'CC#N',
  NHNH2: 'NN',
  NHOH: 'NO',
  OCH3: 'OC',
  SCH3: 'SC',
  NHCH3: 'NC',
  'N(CH3)2': 'N(C)C',
  COCH3: 'C(C)=O',
  CO2CH3: 'C(=O)OC',
  COOCH3: 'C(=O)OC',
  SO2CH3: 'S(C)(=O)=O',
  OC2H5: 'OCC',
  CO2C2H5: 'C(=O)OCC',
  COOC2H5: 'C(=O)OCC',
};

/** Labels written to the left of their bond that are no group's pieces turned round. */
const MIRRORED: Record<string, string> = { H2NSO2: 'SO2NH2', H2NCO: 'CONH2', Me2NCO: 'CONMe2', MeHNCO: 'CONHMe', HOH2C: 'CH2OH', NCH2C: 'CH2CN' };

/** The pieces of a label: substituent names, elements with their counts, digits; null when none fit. */
function tokens(label: string): string[] | null {
  const names = Object.keys(SUBSTITUENTS)
    .filter((n) => !/^(CH3|C2H5|CF3|CHF2)$/.test(n))
    .sort((a, b) => b.length - a.length);
  const out: string[] = [];
  for (let i = 0; i < label.length; ) {
    const name = names.find((n) => label.startsWith(n, i));
    const m = name ? null : /^(?:Cl|Br|Si|Se|[BCNOSPFIH])\d*/.exec(label.slice(i));
    const t = name ? (/^\d/.exec(label.slice(i + name.length)) ? name + label[i + name.length] : name) : m?.[0];
    if (!t) return null;
    out.push(t);
    i += t.length;
  }
  return out;
}

/** The label as written to the right of its bond, for one written to the left (MeO2C → CO2Me, AcHN → NHAc, Me2N → NMe2). */
function unmirror(label: string): string[] {
  const t = tokens(label);
  if (!t) return [];
  const r = [...t].reverse();
  const out = [r.join('')];
  // A hydrogen written before its atom (AcHN, BocHN): after it once turned round.
  for (let i = 0; i + 1 < r.length; i++) if (/^H\d*$/.test(r[i]!) && /^[A-Z][a-z]?$/.test(r[i + 1]!) && !SUBSTITUENTS[r[i + 1]!]) [r[i], r[i + 1]] = [r[i + 1]!, r[i]!];
  out.push(r.join(''));
  // A link written forwards after its substituent (MeSO2, AcNH, MeCO, BocNH).
  for (const link of Object.keys(LINKS)) {
    if (!label.endsWith(link)) continue;
    const sub = label.slice(0, -link.length);
    if (sub) out.push(link + sub);
  }
  if (MIRRORED[label]) out.push(MIRRORED[label]);
  return out;
}

/** The group's SMILES for a label as written to the right of its bond, or null. */
function leftGroup(label: string): string | null {
  if (GROUPS[label]) return GROUPS[label];
  if (SUBSTITUENTS[label]) return SUBSTITUENTS[label];
  for (const link of Object.keys(LINKS).sort((a, b) => b.length - a.length)) {
    if (!label.startsWith(link)) continue;
    const rest = label.slice(link.length);
    // The substituent, then how many (NMe2): or a substituent whose name ends in a digit (OCH3).
    const m = /^(.+?)(\d?)$/.exec(rest);
    const [name, count] = m && SUBSTITUENTS[m[1]!] ? [m[1]!, m[2]!] : [rest, ''];
    const sub = SUBSTITUENTS[name];
    if (!sub) continue;
    if (!count || count === '1') return LINKS[link]!.replace('{R}', `(${sub})`);
    // Two substituents only on nitrogen (NMe2, NEt2).
    if (count === '2' && link === 'N') return `N(${sub})${sub}`;
  }
  return null;
}

/**
 * The group a label names (SMILES from its attachment atom), read as written to the right of its
 * bond (`mirrored` false: CO2Me, NHAc) or to the left (`mirrored` true: MeO2C, AcHN). Hyphens and
 * subscript digits as the text layer gives them; null for anything that is no group.
 */
export function groupSmiles(raw: string, mirrored: boolean): string | null {
  const label = raw.replace(/[₀-₉]/g, (d) => String(d.charCodeAt(0) - 0x2080)).replace(/\s+/g, '').replace(/[\u2212\u2010\u2013]/g, '-');
  if (!label || label.length > 16) return null;
  if (!mirrored) return leftGroup(label);
  // Some labels read the same both ways (tBu, Ph, CF3 written as such on the left).
  for (const l of unmirror(label)) {
    const g = leftGroup(l);
    if (g) return g;
  }
  return null;
}

/** Whether a label names a group either way round. */
export const isGroupLabel = (raw: string) => groupSmiles(raw, false) !== null || groupSmiles(raw, true) !== null;

const rdkitJson = z.object({
  molecules: z
    .array(
      z.object({
        atoms: z.array(z.object({ z: z.number().optional(), chg: z.number().optional() })),
        bonds: z.array(z.object({ bo: z.number().optional(), atoms: z.tuple([z.number(), z.number()]) })).default([]),
      }),
    )
    .length(1),
  defaults: z.object({ atom: z.object({ z: z.number(), chg: z.number() }), bond: z.object({ bo: z.number() }) }),
});

export interface GroupGraph {
  /** Atoms by atomic number and charge; the first carries the bond to the drawing. */
  atoms: { z: number; charge: number }[];
  /** Bonds between them (Kekulé orders 1–3). */
  bonds: { i: number; j: number; order: number }[];
}

const graphs = new Map<string, GroupGraph | null>();
/** A group's atoms and bonds, from its SMILES read by RDKit (Kekulé form). */
export function groupGraph(rdkit: MainModule, smiles: string): GroupGraph | null {
  if (graphs.has(smiles)) return graphs.get(smiles)!;
  let graph: GroupGraph | null = null;
  const mol = rdkit.get_mol(smiles);
  try {
    if (mol?.is_valid()) {
      const parsed = rdkitJson.safeParse(JSON.parse(mol.get_json()));
      if (parsed.success) {
        const { molecules, defaults } = parsed.data;
        const m = molecules[0]!;
        graph = {
          atoms: m.atoms.map((a) => ({ z: a.z ?? defaults.atom.z, charge: a.chg ?? defaults.atom.chg })),
          bonds: m.bonds.map((b) => ({ i: b.atoms[0], j: b.atoms[1], order: b.bo ?? defaults.bond.bo })),
        };
      }
    }
  } finally {
    mol?.delete();
  }
  graphs.set(smiles, graph);
  return graph;
}
