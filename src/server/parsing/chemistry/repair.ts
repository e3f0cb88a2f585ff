import type { MainModule } from '@rdkit/rdkit';
import { withValidMol } from '../../chem/rdkit-loader';

/**
 * Repairs of OSRA's typical misreadings, offered as extra candidates beside the reading
 * itself: judge.ts scores both and the caller keeps the more plausible, so a repair never replaces
 * a reading blindly. Each repair fixes something a drawing in a paper almost never means:
 * - a charged oxygen on a carbon that still carries a hydrogen, in a molecule whose charges do not
 *   balance (no counter-ion drawn): OSRA's reading of a C=O double bond → C=O;
 * - a radical (an atom short of its valence): OSRA lost a bond or a hydrogen → the atom's hydrogens;
 * - a terminal boron: an OCR'd "Br" whose r was lost → bromine;
 * - a nitro group whose O⁻ lost its charge (N⁺(=O)OH, in a reading whose charges do not balance):
 *   OSRA missed the minus sign → N⁺(=O)O⁻; one read as NH–O⁻ (its =O and the N's charge lost,
 *   charges unbalanced) → N⁺(=O)O⁻ too;
 * - a six-membered carbon ring with two C=C bonds that one more C=C between two of its CH atoms
 *   makes a benzene ring: OSRA lost one of the ring's double bonds (a cyclohexadiene is rarely what
 *   a paper draws, a phenyl ring very often) → benzene.
 * A genuinely charged molecule (a nitro group, an N-oxide, a zwitterion, a carboxylate beside its
 * cation) has balanced charges or no hydrogen on the oxygen's carbon, and is left as it is.
 */

interface Atom {
  z?: number;
  chg?: number;
  impHs?: number;
  nRad?: number;
}
interface Bond {
  bo?: number;
  atoms: [number, number];
}
interface Molecule {
  atoms: Atom[];
  bonds?: Bond[];
  extensions?: unknown[];
}
interface MolJson {
  defaults: { atom: Required<Atom>; bond: { bo: number } };
  molecules: Molecule[];
}

export interface Repair {
  /** RDKit's canonical SMILES of the repaired molecule. */
  smiles: string;
  /** What was repaired, for the structure's "how it was read". */
  reason: string;
}

const atomValue = (json: MolJson, a: Atom, key: keyof Atom) => a[key] ?? json.defaults.atom[key];
const bondOrder = (json: MolJson, b: Bond) => b.bo ?? json.defaults.bond.bo;
/** The atom at the other end of `b` from atom `i`. */
const across = (b: Bond, i: number) => (b.atoms[0] === i ? b.atoms[1] : b.atoms[0]);
/** The reading's net charge, over all its molecules (counter-ions included). */
const netCharge = (json: MolJson) => json.molecules.reduce((s, m) => s + m.atoms.reduce((t, a) => t + atomValue(json, a, 'chg'), 0), 0);

/** Each repair (it edits the molecule in place and says whether it changed anything), with what it repairs. */
const REPAIRS: ReadonlyArray<[(json: MolJson) => boolean, string]> = [
  [chargedOxygens, 'C=O read as charged O'],
  [radicals, 'radical filled with hydrogen'],
  [terminalBoron, 'terminal B read for Br'],
  [unchargedNitro, 'nitro O⁻ read without its charge'],
  [hydroxylamineNitro, 'nitro read as N–O⁻'],
  [benzeneRings, 'benzene ring read with a double bond lost'],
];

/** The repaired readings of `raw` (none when nothing looks misread, or RDKit refuses it). */
export function repairs(rdkit: MainModule, raw: string): Repair[] {
  if (!raw || raw.length > 2000) return [];
  // RDKit JSON gives the Kekulé bond orders (aromaticity only in an extension, dropped on edit).
  let read: { json: MolJson; original: string } | null;
  try {
    read = withValidMol(rdkit, raw, (mol) => ({ json: JSON.parse(mol.get_json()) as MolJson, original: mol.get_smiles() }));
  } catch {
    return [];
  }
  if (!read) return [];
  const { json, original } = read;
  const out: Repair[] = [];
  const seen = new Set([original]);
  const emit = (edit: (m: MolJson) => boolean, reason: string) => {
    const copy = JSON.parse(JSON.stringify(json)) as MolJson;
    for (const m of copy.molecules) delete m.extensions;
    if (!edit(copy)) return;
    const smiles = canonical(rdkit, JSON.stringify(copy));
    if (smiles && !seen.has(smiles)) {
      seen.add(smiles);
      out.push({ smiles, reason });
    }
  };
  for (const [edit, reason] of REPAIRS) emit(edit, reason);
  // Several misreadings at once.
  emit((m) => REPAIRS.map(([edit]) => edit(m)).filter(Boolean).length > 1, 'several misreadings repaired');
  return out;
}

function canonical(rdkit: MainModule, input: string): string | null {
  return withValidMol(rdkit, input, (mol) => mol.get_smiles());
}

/** Each molecule's bonds per atom. */
function bondsOf(m: Molecule): Bond[][] {
  const per: Bond[][] = m.atoms.map(() => []);
  for (const b of m.bonds ?? []) {
    per[b.atoms[0]]!.push(b);
    per[b.atoms[1]]!.push(b);
  }
  return per;
}

/**
 * O⁻ with one single bond to a carbon that has a hydrogen to give, where the reading's charges do
 * not balance (summed over the whole reading, counter-ions included): the O⁻ becomes =O. With
 * several, as many as the imbalance asks for.
 */
function chargedOxygens(json: MolJson): boolean {
  let net = netCharge(json);
  let changed = false;
  for (const m of json.molecules) {
    const per = bondsOf(m);
    m.atoms.forEach((a, i) => {
      if (net >= 0 || atomValue(json, a, 'z') !== 8 || atomValue(json, a, 'chg') !== -1) return;
      const bonds = per[i]!;
      if (bonds.length !== 1 || bondOrder(json, bonds[0]!) !== 1) return;
      const c = m.atoms[across(bonds[0]!, i)]!;
      if (atomValue(json, c, 'z') !== 6 || atomValue(json, c, 'chg') !== 0 || atomValue(json, c, 'impHs') < 1) return;
      a.chg = 0;
      a.impHs = 0;
      c.impHs = atomValue(json, c, 'impHs') - 1;
      bonds[0]!.bo = 2;
      net += 1;
      changed = true;
    });
  }
  return changed;
}

/** Radical electrons become hydrogens (C, N, O, S: what a drawing's bare atom means). */
function radicals(json: MolJson): boolean {
  let changed = false;
  for (const m of json.molecules)
    for (const a of m.atoms) {
      const n = atomValue(json, a, 'nRad');
      if (n > 0 && [6, 7, 8, 16].includes(atomValue(json, a, 'z'))) {
        a.nRad = 0;
        a.impHs = atomValue(json, a, 'impHs') + n;
        changed = true;
      }
    }
  return changed;
}

/** A neutral boron with one single bond and hydrogens (BH2–R): the label "Br" OCR'd as "B". */
function terminalBoron(json: MolJson): boolean {
  let changed = false;
  for (const m of json.molecules) {
    const per = bondsOf(m);
    m.atoms.forEach((a, i) => {
      if (atomValue(json, a, 'z') !== 5 || atomValue(json, a, 'chg') !== 0 || per[i]!.length !== 1) return;
      if (bondOrder(json, per[i]![0]!) !== 1) return;
      a.z = 35;
      a.impHs = 0;
      changed = true;
    });
  }
  return changed;
}

/**
 * N⁺ with a =O and an –OH (one single bond, one hydrogen, no charge), where the reading's charges do
 * not balance: the OH is the nitro group's O⁻.
 */
function unchargedNitro(json: MolJson): boolean {
  let net = netCharge(json);
  let changed = false;
  for (const m of json.molecules) {
    const per = bondsOf(m);
    m.atoms.forEach((n, i) => {
      if (net <= 0 || atomValue(json, n, 'z') !== 7 || atomValue(json, n, 'chg') !== 1) return;
      const oxygens = per[i]!.filter((b) => atomValue(json, m.atoms[across(b, i)]!, 'z') === 8);
      if (!oxygens.some((b) => bondOrder(json, b) === 2)) return;
      const hydroxy = oxygens.find((b) => {
        const o = m.atoms[across(b, i)]!;
        return bondOrder(json, b) === 1 && per[across(b, i)]!.length === 1 && atomValue(json, o, 'chg') === 0 && atomValue(json, o, 'impHs') === 1;
      });
      if (!hydroxy) return;
      const o = m.atoms[across(hydroxy, i)]!;
      o.chg = -1;
      o.impHs = 0;
      net -= 1;
      changed = true;
    });
  }
  return changed;
}

/**
 * A neutral N with one hydrogen, bonded to one carbon and to a lone O⁻ (single bonds), where the
 * reading's charges do not balance: a nitro group that lost its =O and its charge. The N becomes N⁺
 * and gains its =O.
 */
function hydroxylamineNitro(json: MolJson): boolean {
  let net = netCharge(json);
  let changed = false;
  for (const m of json.molecules) {
    const per = bondsOf(m);
    const count = m.atoms.length;
    for (let i = 0; i < count; i++) {
      const n = m.atoms[i]!;
      if (net >= 0 || atomValue(json, n, 'z') !== 7 || atomValue(json, n, 'chg') !== 0 || atomValue(json, n, 'impHs') !== 1) continue;
      const bonds = per[i]!;
      if (bonds.length !== 2 || bonds.some((b) => bondOrder(json, b) !== 1)) continue;
      const [x, y] = bonds.map((b) => across(b, i)) as [number, number];
      const isOxide = (j: number) => atomValue(json, m.atoms[j]!, 'z') === 8 && atomValue(json, m.atoms[j]!, 'chg') === -1 && per[j]!.length === 1;
      const isCarbon = (j: number) => atomValue(json, m.atoms[j]!, 'z') === 6;
      if (!((isOxide(x) && isCarbon(y)) || (isOxide(y) && isCarbon(x)))) continue;
      n.chg = 1;
      n.impHs = 0;
      m.atoms.push({ z: 8, chg: 0, impHs: 0 });
      (m.bonds ??= []).push({ bo: 2, atoms: [i, m.atoms.length - 1] });
      net += 1;
      changed = true;
    }
  }
  return changed;
}

/**
 * Each six-membered ring of neutral carbons with two C=C bonds, not sharing an atom, whose two other
 * ring atoms are adjacent, singly bonded to everything, and carry a hydrogen each: the bond between
 * those two becomes double, and the ring a benzene ring.
 */
function benzeneRings(json: MolJson): boolean {
  let changed = false;
  for (const m of json.molecules) {
    const per = bondsOf(m);
    const bo = (b: Bond) => bondOrder(json, b);
    const carbon = (i: number) => atomValue(json, m.atoms[i]!, 'z') === 6 && atomValue(json, m.atoms[i]!, 'chg') === 0;
    const saturated = (i: number) => carbon(i) && atomValue(json, m.atoms[i]!, 'impHs') >= 1 && per[i]!.every((b) => bo(b) === 1);
    const step = (from: number, order: number, not: number[]) => per[from]!.filter((b) => bo(b) === order && carbon(across(b, from)) && !not.includes(across(b, from))).map((b) => across(b, from));
    for (const bond of m.bonds ?? []) {
      const [a, b] = bond.atoms;
      if (bo(bond) !== 1 || !saturated(a) || !saturated(b)) continue;
      // a–b, then b–c single, c=d, d–e single, e=f, f–a single: a ring of six.
      const ring = step(b, 1, [a, b]).flatMap((c) =>
        step(c, 2, [a, b, c]).flatMap((d) => step(d, 1, [a, b, c, d]).flatMap((e) => step(e, 2, [a, b, c, d, e]).filter((f) => per[f]!.some((x) => across(x, f) === a && bo(x) === 1)))),
      );
      if (!ring.length) continue;
      bond.bo = 2;
      m.atoms[a]!.impHs = atomValue(json, m.atoms[a]!, 'impHs') - 1;
      m.atoms[b]!.impHs = atomValue(json, m.atoms[b]!, 'impHs') - 1;
      changed = true;
    }
  }
  return changed;
}
