import type { MainModule } from '@rdkit/rdkit';
import { withValidMol } from '../../chem/rdkit-loader';

/**
 * Repairs of OSRA's typical misreadings, offered as extra candidates beside the reading
 * itself: judge.ts scores both and the caller keeps the more plausible, so a repair never replaces
 * a reading blindly. Each repair fixes something a drawing in a paper almost never means:
 * - a charged oxygen on a carbon that still carries a hydrogen, in a molecule whose charges do not
 *   balance (no counter-ion drawn): OSRA's reading of a C=O double bond → C=O;
 * - a radical (an atom short of its valence): OSRA lost a bond or a hydrogen → the atom's hydrogens;
 * - a terminal boron: an OCR'd "Br" whose r was lost → bromine.
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
  emit((m) => chargedOxygens(m), 'C=O read as charged O');
  emit((m) => radicals(m), 'radical filled with hydrogen');
  emit((m) => terminalBoron(m), 'terminal B read for Br');
  // Several misreadings at once.
  emit((m) => [chargedOxygens(m), radicals(m), terminalBoron(m)].filter(Boolean).length > 1, 'several misreadings repaired');
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
  const all = json.molecules.flatMap((m) => m.atoms);
  let net = all.reduce((s, a) => s + atomValue(json, a, 'chg'), 0);
  let changed = false;
  for (const m of json.molecules) {
    const per = bondsOf(m);
    m.atoms.forEach((a, i) => {
      if (net >= 0 || atomValue(json, a, 'z') !== 8 || atomValue(json, a, 'chg') !== -1) return;
      const bonds = per[i]!;
      if (bonds.length !== 1 || (bonds[0]!.bo ?? json.defaults.bond.bo) !== 1) return;
      const other = bonds[0]!.atoms[0] === i ? bonds[0]!.atoms[1] : bonds[0]!.atoms[0];
      const c = m.atoms[other]!;
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
      if ((per[i]![0]!.bo ?? json.defaults.bond.bo) !== 1) return;
      a.z = 35;
      a.impHs = 0;
      changed = true;
    });
  }
  return changed;
}
