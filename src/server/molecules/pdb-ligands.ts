import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Water and common ions and salts of crystallisation: not ligands a chemist searches for. */
const NOT_LIGANDS = new Set([
  'HOH', 'WAT', 'DOD', 'H2O', 'TIP', 'TIP3', 'SOL',
  'SO4', 'PO4', 'NO3', 'NH4', 'CO3', 'SCN', 'AZI', 'CYN', 'PER', 'OXY', 'BCT', 'ACT',
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
}

/**
 * The ligands of a PDB file: HETATM groups of the first model that are not water, ions (single
 * heavy atoms or the salts above) or polymer residues, one per chain, residue number and name.
 */
export function pdbLigands(text: string): PdbLigand[] {
  const groups = new Map<string, PdbLigand & { heavy: number }>();
  for (const line of text.split(/\r?\n/)) {
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
      group = { name: `${resName} ${chain}:${resSeq}`, records: [], heavy: 0 };
      groups.set(key, group);
    }
    group.records.push(line);
    const element = line.slice(76, 78).trim() || line.slice(12, 14).trim().replace(/\d/g, '');
    if (element.toUpperCase() !== 'H' && element.toUpperCase() !== 'D') group.heavy++;
  }
  return [...groups.values()].filter((g) => g.heavy >= 2).map(({ name, records }) => ({ name, records }));
}

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
