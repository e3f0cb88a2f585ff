/** An atom of a V2000 molfile: its coordinates and element. */
export interface MolAtom {
  x: number;
  y: number;
  symbol: string;
}
/** A bond of a V2000 molfile: its atoms (0-based) and its order. */
export interface MolBond {
  a: number;
  b: number;
  order: number;
}

/**
 * A V2000 molfile read: its lines, the counts line's index `c`, its atoms and bonds (atom lines follow
 * line c, then bond lines). Null when it is none, or its coordinates or bonds do not hold together.
 * Shared by crossed.ts, relabel.ts and withoutAtoms.
 */
export function readV2000(molfile: string): { lines: string[]; c: number; atoms: MolAtom[]; bonds: MolBond[] } | null {
  const lines = molfile.split('\n');
  const c = lines.findIndex((l) => /V2000\s*$/.test(l));
  if (c < 0) return null;
  const nAtoms = Number(lines[c]!.slice(0, 3));
  const nBonds = Number(lines[c]!.slice(3, 6));
  if (!Number.isInteger(nAtoms) || !Number.isInteger(nBonds) || lines.length < c + 1 + nAtoms + nBonds) return null;
  const atoms = lines.slice(c + 1, c + 1 + nAtoms).map((l) => ({ x: Number(l.slice(0, 10)), y: Number(l.slice(10, 20)), symbol: l.slice(31, 34).trim() }));
  const bonds = lines.slice(c + 1 + nAtoms, c + 1 + nAtoms + nBonds).map((l) => ({ a: Number(l.slice(0, 3)) - 1, b: Number(l.slice(3, 6)) - 1, order: Number(l.slice(6, 9)) }));
  if (atoms.some((a) => !Number.isFinite(a.x) || !Number.isFinite(a.y)) || bonds.some((b) => !atoms[b.a] || !atoms[b.b])) return null;
  return { lines, c, atoms, bonds };
}

/** A bond to add to a molfile: its atoms (0-based), its order and its V2000 stereo field. */
export interface NewBond {
  a: number;
  b: number;
  order: number;
  stereo: number;
}

/**
 * `molfile` (V2000) without the atoms `removed` (0-based) and the bonds they are in, with the bonds
 * `added`; the atoms left are renumbered, in their charges, radicals and isotopes too. Null when it
 * is not a V2000 molfile, or names atoms in any other property (which could not be renumbered).
 * Shared by crossed.ts (a crossing taken out) and relabel.ts (a label's extra atoms taken out).
 */
export function withoutAtoms(molfile: string, removed: ReadonlySet<number>, added: readonly NewBond[] = []): string | null {
  const read = readV2000(molfile);
  if (!read) return null;
  const { lines, c } = read;
  const atomLines = lines.slice(c + 1, c + 1 + read.atoms.length);
  const bonds = lines.slice(c + 1 + atomLines.length, c + 1 + atomLines.length + read.bonds.length).map((line, i) => ({ ...read.bonds[i]!, line }));
  const rest = lines.slice(c + 1 + atomLines.length + bonds.length);
  if (rest.some((l) => l.startsWith('M  ') && !/^M {2}(END|CHG|RAD|ISO)/.test(l))) return null;
  if (added.some((b) => !atomLines[b.a] || !atomLines[b.b] || removed.has(b.a) || removed.has(b.b))) return null;

  const number = new Map<number, number>();
  atomLines.forEach((_, i) => {
    if (!removed.has(i)) number.set(i, number.size + 1);
  });
  // The rest of a kept bond's line (its stereo and the fields after it) stays as it was.
  const kept = bonds.filter((b) => !removed.has(b.a) && !removed.has(b.b)).map((b) => `${pad(number.get(b.a)!)}${pad(number.get(b.b)!)}${b.line.slice(6)}`);
  const joined = added.map((b) => `${pad(number.get(b.a)!)}${pad(number.get(b.b)!)}${pad(b.order)}${pad(b.stereo)}  0  0  0`);
  return [
    ...lines.slice(0, c),
    `${pad(number.size)}${pad(kept.length + joined.length)}${lines[c]!.slice(6)}`,
    ...atomLines.filter((_, i) => !removed.has(i)),
    ...kept,
    ...joined,
    ...rest.map((l) => (/^M {2}(CHG|RAD|ISO)/.test(l) ? renumbered(l, number) : l)).filter((l): l is string => l !== null),
  ].join('\n');
}

const pad = (n: number) => String(n).padStart(3);

/** An "M  CHG" (RAD, ISO) line's atoms (1-based) and values. */
function entriesOf(line: string): Array<[number, number]> {
  const values = line.slice(6).trim().split(/\s+/).map(Number).slice(1);
  const entries: Array<[number, number]> = [];
  for (let i = 0; i + 1 < values.length; i += 2) entries.push([values[i]!, values[i + 1]!]);
  return entries;
}

/** A property line (`tag` "M  CHG", …) of atoms (1-based) and values; at most eight a line. */
function propertyLine(tag: string, entries: Array<[number, number]>): string {
  return `${tag}${pad(entries.length)}${entries.map(([atom, v]) => `${String(atom).padStart(4)}${String(v).padStart(4)}`).join('')}`;
}

/** An "M  CHG" (RAD, ISO) line with its atoms renumbered and those taken out left out (null: none left). */
function renumbered(line: string, number: Map<number, number>): string | null {
  const kept = entriesOf(line).flatMap(([atom, v]): Array<[number, number]> => {
    const n = number.get(atom - 1);
    return n === undefined ? [] : [[n, v]];
  });
  return kept.length ? propertyLine(line.slice(0, 6), kept) : null;
}

/** The V2000 atom block's charge codes (4 is a radical, no charge). */
const BLOCK_CHARGE: Record<number, number> = { 1: 3, 2: 2, 3: 1, 5: -1, 6: -2, 7: -3 };

/**
 * `molfile` (V2000) with each neutral nitrogen whose bonds add up to four (a nitro group's N beside
 * its =O and O⁻, a quaternary or ring N⁺) charged +1, or null when there is none. Four bonds are
 * only possible for N⁺, so such a reading lost its + sign (small in a scan or a picture) and
 * RDKit refuses it as it stands. Aromatic bonds (order 4) count 1.5.
 */
export function withChargedNitrogens(molfile: string): string | null {
  const read = readV2000(molfile);
  if (!read) return null;
  const { lines, c, atoms, bonds } = read;
  const valence = atoms.map(() => 0);
  for (const b of bonds) {
    const v = b.order === 4 ? 1.5 : b.order;
    valence[b.a]! += v;
    valence[b.b]! += v;
  }
  // Charges: the atom block's, unless "M  CHG" lines are present (which then hold them all).
  const end = c + 1 + atoms.length + bonds.length;
  const chgLines = lines.slice(end).filter((l) => l.startsWith('M  CHG'));
  const charge = atoms.map((_, i) => (chgLines.length ? 0 : (BLOCK_CHARGE[Number(lines[c + 1 + i]!.slice(36, 39))] ?? 0)));
  for (const [atom, q] of chgLines.flatMap(entriesOf)) if (atoms[atom - 1]) charge[atom - 1] = q;
  const nitrogens = atoms.flatMap((a, i) => (a.symbol === 'N' && charge[i] === 0 && valence[i] === 4 ? [i] : []));
  if (!nitrogens.length) return null;
  const mEnd = lines.findIndex((l, i) => i >= end && l.startsWith('M  END'));
  if (mEnd < 0) return null;
  // An "M  CHG" line makes the atom block's charge fields unread: the charges read from them are
  // written in it too. At most eight atoms a line.
  const charged: Array<[number, number]> = [...(chgLines.length ? [] : atoms.flatMap((_, i): Array<[number, number]> => (charge[i] !== 0 ? [[i + 1, charge[i]!]] : []))), ...nitrogens.map((i): [number, number] => [i + 1, 1])];
  const added: string[] = [];
  for (let k = 0; k < charged.length; k += 8) added.push(propertyLine('M  CHG', charged.slice(k, k + 8)));
  return [...lines.slice(0, mEnd), ...added, ...lines.slice(mEnd)].join('\n');
}
