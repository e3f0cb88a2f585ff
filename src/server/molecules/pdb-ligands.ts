import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Water, ions, and the solvents, cryoprotectants and buffers of crystallisation: not ligands a chemist
 * searches for (the usual exclusions of ligand databases such as BioLiP). Single heavy atoms (metal
 * and halide ions) are left out by size.
 */
const NOT_LIGANDS = new Set([
  'HOH', 'WAT', 'DOD', 'H2O', 'TIP', 'TIP3', 'SOL',
  'SO4', 'PO4', 'NO3', 'NH4', 'CO3', 'SCN', 'AZI', 'CYN', 'PER', 'OXY', 'BCT', 'ACT', 'ACY', 'FMT', 'SIN',
  'GOL', 'EDO', 'PEG', 'PGE', 'PG4', '1PE', 'P6G', 'MPD', 'DMS', 'EOH', 'MOH', 'IPA', 'ACN', 'BU3',
  'TRS', 'MES', 'EPE', 'BME', 'DTT', 'IMD', 'UNX', 'UNL',
]);
/** Residues of polymer chains (amino acids, nucleotides) that appear as HETATM in some files. */
const POLYMER = new Set([
  'ALA', 'ARG', 'ASN', 'ASP', 'CYS', 'GLN', 'GLU', 'GLY', 'HIS', 'ILE', 'LEU', 'LYS', 'MET', 'PHE', 'PRO', 'SER', 'THR', 'TRP', 'TYR', 'VAL',
  'SEC', 'PYL', 'MSE', 'DA', 'DC', 'DG', 'DT', 'DU', 'A', 'C', 'G', 'U',
]);
/** Ligands taken from one file at most. */
export const MAX_LIGANDS = 200;
const OBABEL_TIMEOUT_MS = 60_000;

export interface PdbLigand {
  /** Residue name, chain and number: `5DN A:401`. */
  name: string;
  /** The ligand's HETATM records. */
  records: string[];
  /** Hydrogens of the residue's formula (the file's FORMUL record), when the file gives it for one neutral residue. */
  hydrogens?: number;
}

/**
 * The ligands of a PDB file: HETATM groups of the first model that are not water, ions (single
 * heavy atoms or the salts above) or polymer residues, one per chain, residue number and name.
 */
export function pdbLigands(text: string): PdbLigand[] {
  const groups = new Map<string, PdbLigand & { heavy: number }>();
  const lines = text.split(/\r?\n/);
  const hydrogens = formulaHydrogens(lines);
  for (const line of lines) {
    if (line.startsWith('ENDMDL')) break; // the first model only
    if (!line.startsWith('HETATM')) continue;
    const resName = line.slice(17, 20).trim();
    if (!resName || NOT_LIGANDS.has(resName) || POLYMER.has(resName)) continue;
    const chain = line.slice(21, 22).trim() || '_';
    const resSeq = line.slice(22, 27).trim();
    const key = `${chain}|${resSeq}|${resName}`;
    let group = groups.get(key);
    if (!group) {
      if (groups.size >= MAX_LIGANDS) continue;
      group = { name: `${resName} ${chain}:${resSeq}`, records: [], heavy: 0, hydrogens: hydrogens.get(resName) };
      groups.set(key, group);
    }
    group.records.push(line);
    const element = line.slice(76, 78).trim() || line.slice(12, 14).trim().replace(/\d/g, '');
    if (element.toUpperCase() !== 'H' && element.toUpperCase() !== 'D') group.heavy++;
  }
  return [...groups.values()].filter((g) => g.heavy >= 2).map(({ name, records, hydrogens: h }) => (h === undefined ? { name, records } : { name, records, hydrogens: h }));
}

/**
 * Hydrogens per residue from the FORMUL records (`FORMUL   3  SKE    C15 H12 F2 N6 O3 S`, continued
 * on further lines; `2(C6 H12 O6)` for two copies). Residues with a charge in their formula are left out.
 */
export function formulaHydrogens(lines: string[]): Map<string, number> {
  const formulas = new Map<string, string>();
  for (const line of lines) {
    if (!line.startsWith('FORMUL')) continue;
    const het = line.slice(12, 15).trim();
    if (het) formulas.set(het, `${formulas.get(het) ?? ''} ${line.slice(18).trim()}`);
  }
  const out = new Map<string, number>();
  for (const [het, raw] of formulas) {
    const formula = raw.replace(/^\s*\*?\s*\d*\s*\(/, '').replace(/\)\s*$/, '').trim();
    if (/[+-]/.test(formula)) continue;
    const h = /(?:^|\s)H(\d*)(?=\s|$)/.exec(formula);
    out.set(het, h ? Number(h[1] || '1') : 0);
  }
  return out;
}

/** Covalent radii (Å) of the elements a ligand's bonds are worked out for here; other elements: no fallback. */
const RADIUS: Record<string, number> = { C: 0.76, N: 0.71, O: 0.66, S: 1.05, P: 1.07, F: 0.57, CL: 1.02, BR: 1.2, I: 1.39, B: 0.84, SE: 1.2, SI: 1.11 };
/** Neutral valences, lowest first. */
const VALENCES: Record<string, number[]> = { C: [4], N: [3], O: [2], S: [2, 4, 6], P: [3, 5], F: [1], CL: [1], BR: [1], I: [1], B: [3], SE: [2], SI: [4] };
/** Search steps before giving up on a ligand. */
const MAX_STEPS = 200_000;
/** Assignments compared at most. */
const MAX_SOLUTIONS = 5000;

interface Atom {
  element: string;
  xyz: [number, number, number];
  neighbours: number[];
}

const distance = (a: Atom, b: Atom) => Math.hypot(a.xyz[0] - b.xyz[0], a.xyz[1] - b.xyz[1], a.xyz[2] - b.xyz[2]);
function angle(centre: Atom, a: Atom, b: Atom): number {
  const u = a.xyz.map((v, k) => v - centre.xyz[k]!);
  const w = b.xyz.map((v, k) => v - centre.xyz[k]!);
  const cos = (u[0]! * w[0]! + u[1]! * w[1]! + u[2]! * w[2]!) / (Math.hypot(...u) * Math.hypot(...w));
  return (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI;
}

/**
 * The ligand as a molfile whose bond orders agree with its formula: bonds from the atoms' distances,
 * then multiple bonds placed so every atom has a neutral valence and the hydrogens add up to the
 * FORMUL count, trying first the atoms whose geometry looks planar or linear. For the ligands Open
 * Babel's geometric perception gets wrong (a distorted ring in a crystal structure leaves it with a
 * five-valent carbon, which RDKit refuses). Null without a formula, with other elements, or when no
 * assignment is found.
 */
export function ligandMolfile(ligand: PdbLigand): string | null {
  if (ligand.hydrogens === undefined) return null;
  const atoms: Atom[] = [];
  for (const line of ligand.records) {
    const element = (line.slice(76, 78).trim() || line.slice(12, 14).trim().replace(/\d/g, '')).toUpperCase();
    if (element === 'H' || element === 'D') continue;
    if (!(element in RADIUS)) return null;
    const xyz: [number, number, number] = [Number(line.slice(30, 38)), Number(line.slice(38, 46)), Number(line.slice(46, 54))];
    if (xyz.some((v) => !Number.isFinite(v))) return null;
    atoms.push({ element, xyz, neighbours: [] });
  }
  if (atoms.length < 2 || atoms.length > 250) return null;
  const bonds: [number, number][] = [];
  for (let i = 0; i < atoms.length; i++) {
    for (let j = i + 1; j < atoms.length; j++) {
      const d = distance(atoms[i]!, atoms[j]!);
      if (d > 0.4 && d < RADIUS[atoms[i]!.element]! + RADIUS[atoms[j]!.element]! + 0.4) {
        bonds.push([i, j]);
        atoms[i]!.neighbours.push(j);
        atoms[j]!.neighbours.push(i);
      }
    }
  }
  const degree = atoms.map((a) => a.neighbours.length);
  if (atoms.some((a, i) => degree[i]! > Math.max(...VALENCES[a.element]!))) return null;
  // Geometry that suggests a multiple bond: a short terminal bond, an open or straight angle, a flat centre.
  const inRing = ringBonds(atoms.length, bonds);
  const ringAtom = atoms.map((_, i) => bonds.filter(([a, b], k) => inRing[k] && (a === i || b === i)).length >= 2);
  const flat = atoms.map((a, i): boolean | null => {
    const n = a.neighbours.map((k) => atoms[k]!);
    // A terminal N only when much shorter (C≡N 1.15 Å, C=N 1.28 Å against an amine's C–N 1.35–1.47 Å).
    if (n.length === 1) return distance(a, n[0]!) < RADIUS[a.element]! + RADIUS[n[0]!.element]! - (a.element === 'N' ? 0.2 : 0.1);
    // A flat nitrogen may be an amide's or an aniline's: its geometry says nothing about its bonds.
    if (a.element === 'N') return null;
    // In a ring the angle says little (108° in a flat five-membered ring): no preference.
    if (n.length === 2) return ringAtom[i] ? null : angle(a, n[0]!, n[1]!) > 115;
    if (n.length === 3) return angle(a, n[0]!, n[1]!) + angle(a, n[0]!, n[2]!) + angle(a, n[1]!, n[2]!) > 345;
    return false;
  });
  // At most one multiple-bond order on an atom unless it is straight (sp: a triple bond or an allene
  // centre); sulfur and phosphorus take theirs only towards terminal atoms (sulfonyl, phosphoryl).
  const linear = atoms.map((a, i) => degree[i]! === 1 || (degree[i]! === 2 && angle(a, atoms[a.neighbours[0]!]!, atoms[a.neighbours[1]!]!) > 160));
  const hyper = (i: number) => atoms[i]!.element === 'S' || atoms[i]!.element === 'P';
  const maxExtra = atoms.map((a, i) => Math.min(Math.max(...VALENCES[a.element]!) - degree[i]!, hyper(i) ? a.neighbours.filter((k) => degree[k] === 1).length * 2 : linear[i] ? 2 : 1));
  /** Hydrogens of an atom with `extra` bond orders beyond single bonds: its lowest valence that fits. */
  const hydrogensOf = (i: number, extra: number) => {
    const used = degree[i]! + extra;
    const v = VALENCES[atoms[i]!.element]!.find((x) => x >= used);
    return v === undefined ? -1 : v - used;
  };
  // Terminal atoms decide first (a short S–O is S=O), then the rest in file order.
  const sequence = atoms.map((_, i) => i).sort((a, b) => Number(degree[a] !== 1) - Number(degree[b] !== 1) || a - b);
  const position = new Array<number>(atoms.length);
  sequence.forEach((atom, k) => (position[atom] = k));
  const order = new Map<number, number>(); // bond index → extra order (0–2)
  const extra = new Array<number>(atoms.length).fill(0);
  const bondOf = (i: number, j: number) => bonds.findIndex(([a, b]) => (a === i && b === j) || (a === j && b === i));
  let steps = 0;
  const target = ligand.hydrogens;
  // Of the assignments found (up to MAX_SOLUTIONS), the one whose multiple bonds best fit the geometry.
  let best: { score: number; order: Map<number, number> } | undefined;
  let solutions = 0;
  // Ring bonds (not bridges of the graph): multiple bonds inside rings are preferred (aromatic
  // rings, and the amino rather than the imino tautomer of an amino-heterocycle).
  const score = () => atoms.reduce((sum, _, i) => sum + (flat[i] !== null && flat[i] === extra[i]! > 0 ? 1 : 0), 0) + bonds.reduce((sum, _, b) => sum + (inRing[b] && order.get(b) ? 1 : 0), 0);

  /** Atom by atom (in `sequence`): how many more multiple-bond orders it takes towards atoms after it. */
  function place(k: number, hydrogens: number): boolean {
    if (++steps > MAX_STEPS) return true;
    if (hydrogens > target) return false;
    if (k === atoms.length) {
      if (hydrogens !== target) return false;
      const s = score();
      if (!best || s > best.score) best = { score: s, order: new Map(order) };
      return ++solutions >= MAX_SOLUTIONS;
    }
    const i = sequence[k]!;
    const partners = atoms[i]!.neighbours.filter((j) => position[j]! > k && extra[j]! < maxExtra[j]!).sort((a, b) => Number(flat[b]) - Number(flat[a]));
    const options: number[] = [];
    for (let more = 0; more <= Math.min(maxExtra[i]! - extra[i]!, 2 * partners.length); more++) options.push(more);
    if (flat[i] !== false) options.reverse();
    for (const more of options) {
      const h = hydrogensOf(i, extra[i]! + more);
      if (h < 0) continue;
      if (spread(i, partners, 0, more, () => place(k + 1, hydrogens + h))) return true;
    }
    return false;
  }
  /** Spreads `left` bond orders of atom i over its later partners (at most a triple bond each); true stops the search. */
  function spread(i: number, partners: number[], k: number, left: number, then: () => boolean): boolean {
    if (left === 0) return then();
    if (k === partners.length) return false;
    const j = partners[k]!;
    const b = bondOf(i, j);
    for (let add = Math.min(left, 2 - (order.get(b) ?? 0), maxExtra[j]! - extra[j]!); add >= 0; add--) {
      if (add) {
        order.set(b, (order.get(b) ?? 0) + add);
        extra[i]! += add;
        extra[j]! += add;
      }
      const stop = spread(i, partners, k + 1, left - add, then);
      if (add) {
        order.set(b, order.get(b)! - add);
        extra[i]! -= add;
        extra[j]! -= add;
      }
      if (stop) return true;
    }
    return false;
  }
  place(0, 0);
  if (!best) return null;
  const chosen = best.order;
  const count = (n: number, w: number) => String(n).padStart(w);
  const fixed = (v: number) => v.toFixed(4).padStart(10);
  return [
    ligand.name,
    '  CSAI          3D',
    '',
    `${count(atoms.length, 3)}${count(bonds.length, 3)}  0  0  0  0  0  0  0  0999 V2000`,
    ...atoms.map((a) => `${fixed(a.xyz[0])}${fixed(a.xyz[1])}${fixed(a.xyz[2])} ${(a.element[0]! + a.element.slice(1).toLowerCase()).padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`),
    ...bonds.map(([a, b], k) => `${count(a + 1, 3)}${count(b + 1, 3)}${count(1 + (chosen.get(k) ?? 0), 3)}  0`),
    'M  END',
    '',
  ].join('\n');
}

/** Which bonds lie in a ring: those that are not bridges (Tarjan's low-link). */
function ringBonds(n: number, bonds: [number, number][]): boolean[] {
  const adjacent: [number, number][][] = Array.from({ length: n }, () => []);
  bonds.forEach(([a, b], k) => {
    adjacent[a]!.push([b, k]);
    adjacent[b]!.push([a, k]);
  });
  const seen = new Array<number>(n).fill(-1);
  const low = new Array<number>(n).fill(0);
  const ring = bonds.map(() => true);
  let time = 0;
  const visit = (v: number, viaBond: number) => {
    seen[v] = low[v] = time++;
    for (const [w, k] of adjacent[v]!) {
      if (k === viaBond) continue;
      if (seen[w] === -1) {
        visit(w, k);
        low[v] = Math.min(low[v]!, low[w]!);
        if (low[w]! > seen[v]!) ring[k] = false;
      } else low[v] = Math.min(low[v]!, seen[w]!);
    }
  };
  for (let v = 0; v < n; v++) if (seen[v] === -1) visit(v, -1);
  return ring;
}

/** A SMILES with an uncharged radical atom (`[C]`, `[NH]`): Open Babel's perception did not close the valences. */
export const perceptionFailed = (smiles: string) => /\[(?:[CNOS]H?\d*|[cos])\]/.test(smiles);

/**
 * SMILES of each ligand, in order (null where none could be made), perceived from its 3D atoms by
 * Open Babel (`obabel`, Debian `openbabel`): PDB files carry no bond orders, RDKit's WebAssembly
 * build cannot perceive them, Open Babel can. Without `obabel` every entry is null.
 */
export async function ligandSmiles(ligands: PdbLigand[], signal?: AbortSignal): Promise<(string | null)[]> {
  if (!ligands.length) return [];
  // One MODEL per ligand: Open Babel reads each as its own molecule and writes one line each.
  const input = ligands.map((l, i) => [`MODEL     ${String(i + 1).padStart(4)}`, ...l.records, 'ENDMDL'].join('\n')).join('\n') + '\nEND\n';
  // From a file: read from standard input, Open Babel stops after the first model.
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'csai-ligands-'));
  const file = path.join(dir, 'ligands.pdb');
  let out: string | null;
  try {
    await fsp.writeFile(file, input);
    out = await new Promise<string | null>((resolve) => {
      execFile('obabel', ['-ipdb', file, '-ocan'], { timeout: OBABEL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, signal }, (err, stdout) => resolve(err ? null : stdout));
    });
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
  if (out === null) return ligands.map(() => null);
  const lines = out.split('\n').filter((l) => l.trim());
  // A ligand Open Babel could not read leaves no line: the order would no longer say which is which.
  if (lines.length !== ligands.length) return ligands.map(() => null);
  return lines.map((l) => l.split(/\s+/)[0] || null);
}
