import { DOCKING_LIMITS, type DockingBox } from '../../contract/docking';
import { DomainError } from '../errors';
import { pdbLigands, type PdbLigand } from '../molecules/pdb-ligands';

/** A heavy (non-hydrogen) atom with its element (upper case) and position. */
export interface Atom3d {
  element: string;
  x: number;
  y: number;
  z: number;
}

/** A request a user can correct: the message is shown as is (Chinese); errors.ts makes it a 400. */
export class DockingInputError extends DomainError {
  constructor(message: string, field?: string) {
    super('invalid_docking_input', message, field);
    this.name = 'DockingInputError';
  }
}

const num = (line: string, from: number, to: number) => Number(line.slice(from, to));

/** Element of a PDB ATOM/HETATM record: columns 77–78, else from the atom name. */
export function pdbElement(line: string): string {
  const e = line.slice(76, 78).trim();
  if (e) return e.toUpperCase();
  return line.slice(12, 14).trim().replace(/[^A-Za-z]/g, '').toUpperCase() || line.slice(12, 16).trim().replace(/[^A-Za-z]/g, '').slice(0, 1).toUpperCase();
}

export function pdbAtom(line: string): Atom3d {
  return { element: pdbElement(line), x: num(line, 30, 38), y: num(line, 38, 46), z: num(line, 46, 54) };
}

const isHydrogen = (element: string) => element === 'H' || element === 'D';

/** The records of the first model. */
function firstModel(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('ENDMDL')) break;
    out.push(line);
  }
  return out;
}

/**
 * The receptor: the protein (ATOM records) of the first model, alternate locations other than the
 * first dropped; every HETATM (ligands, water, ions) removed.
 */
export function receptorPdb(text: string, opts: { chains?: string[]; waters?: boolean } = {}): string {
  return receptorOf(text, opts).pdb;
}

/** What `receptorPdb` kept and dropped. */
export interface ReceptorSummary {
  pdb: string;
  chains: string[];
  waters: number;
  altlocsDropped: number;
}

/**
 * The receptor with a summary: protein atoms of the first model (only `chains` when given), the first
 * alternate location of each atom, crystal waters when `waters`, and the chains' SEQRES records (for
 * PDBFixer to find missing residues).
 */
export function receptorOf(text: string, { chains, waters = false }: { chains?: string[]; waters?: boolean } = {}): ReceptorSummary {
  const model = firstModel(text);
  const all = new Set(model.filter((l) => l.startsWith('ATOM  ')).map((l) => l[21] ?? ' '));
  const wanted = chains?.map((c) => c.toUpperCase());
  const unknown = wanted?.filter((c) => ![...all].some((a) => a.toUpperCase() === c)) ?? [];
  if (unknown.length) throw new DockingInputError(`结构中没有链 ${unknown.join('、')}；可选的链：${[...all].map((c) => c.trim() || '（无名）').join('、')}`, 'receptor_prep');
  const inChain = (l: string) => !wanted || wanted.includes((l[21] ?? ' ').toUpperCase());
  const firstAlt = (l: string) => l[16] === ' ' || l[16] === 'A' || l[16] === undefined;
  const isAtom = (l: string) => l.startsWith('ATOM  ') && inChain(l);
  const isWater = (l: string) => waters && l.startsWith('HETATM') && /^(HOH|WAT|DOD)$/.test(l.slice(17, 20).trim()) && inChain(l);
  const kept = model.filter((l) => (isAtom(l) || isWater(l)) && firstAlt(l));
  const atoms = kept.filter((l) => l.startsWith('ATOM  '));
  if (atoms.length === 0) throw new DockingInputError('该 PDB 文件中没有蛋白原子（ATOM 记录），无法作为受体', 'receptor');
  const altlocsDropped = model.filter((l) => (isAtom(l) || isWater(l)) && !firstAlt(l)).length;
  const seqres = text.split(/\r?\n/).filter((l) => l.startsWith('SEQRES') && (!wanted || wanted.includes((l[11] ?? ' ').toUpperCase())));
  const keptChains = [...new Set(atoms.map((l) => l[21] ?? ' '))];
  const body = [...seqres, ...atoms.map((l) => (l[16] === 'A' ? `${l.slice(0, 16)} ${l.slice(17)}` : l)), 'TER', ...kept.filter((l) => l.startsWith('HETATM')).map((l) => (l[16] === 'A' ? `${l.slice(0, 16)} ${l.slice(17)}` : l))];
  return { pdb: `${body.join('\n')}\nEND\n`, chains: keptChains, waters: kept.filter((l) => l.startsWith('HETATM') && l.slice(12, 16).trim() === 'O').length, altlocsDropped };
}

/** The ligands (HETATM groups other than water, ions and polymer residues) of a PDB file. */
export const ligandsOf = (text: string): PdbLigand[] => pdbLigands(text);

/** Heavy atoms of a ligand's records. */
export const ligandAtoms = (ligand: PdbLigand): Atom3d[] => ligand.records.map(pdbAtom).filter((a) => !isHydrogen(a.element));

const round = (v: number) => Math.round(v * 1000) / 1000;

/** A box around atoms: the centre of their bounding box, each edge their extent plus padding on both sides. */
export function boxAround(atoms: Atom3d[], padding: number, size?: [number, number, number]): Pick<DockingBox, 'center' | 'size'> {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const a of atoms) {
    const p = [a.x, a.y, a.z];
    for (let i = 0; i < 3; i++) {
      lo[i] = Math.min(lo[i]!, p[i]!);
      hi[i] = Math.max(hi[i]!, p[i]!);
    }
  }
  const center = [0, 1, 2].map((i) => round((lo[i]! + hi[i]!) / 2)) as [number, number, number];
  const edges = size ?? ([0, 1, 2].map((i) => round(Math.max(hi[i]! - lo[i]! + 2 * padding, DOCKING_LIMITS.minBoxEdge))) as [number, number, number]);
  return { center, size: edges };
}

/** Refuses a box Vina should not search (too large or too small). */
export function checkBox(size: readonly number[]) {
  const largest = Math.max(...size);
  if (largest > DOCKING_LIMITS.maxBoxEdge) {
    throw new DockingInputError(`对接盒子过大：最长边 ${round(largest)} Å 超过上限 ${DOCKING_LIMITS.maxBoxEdge} Å。请缩小盒子，或用参考配体、口袋残基来定义盒子`, 'size');
  }
  const smallest = Math.min(...size);
  if (!(smallest >= DOCKING_LIMITS.minBoxEdge)) throw new DockingInputError(`对接盒子过小：每条边至少 ${DOCKING_LIMITS.minBoxEdge} Å`, 'size');
}

/** Refuses a box given by coordinates that holds no atom of the receptor (Vina would search empty space). */
export function checkBoxHoldsReceptor(box: Pick<DockingBox, 'center' | 'size'>, receptor: string) {
  const inside = (a: Atom3d) => [a.x, a.y, a.z].every((v, i) => Math.abs(v - box.center[i]!) <= box.size[i]! / 2);
  for (const line of receptor.split('\n')) if (line.startsWith('ATOM  ') && inside(pdbAtom(line))) return;
  throw new DockingInputError(`对接盒子里没有受体的原子：盒子中心 [${box.center.map(round).join(', ')}] 离蛋白太远，请检查坐标，或用参考配体、口袋残基来定义盒子`, 'center');
}

/** The reference ligand named `spec` (`5DN`, `5DN A:401`), else the first ligand. */
export function findReference(ligands: PdbLigand[], spec: string | undefined): PdbLigand {
  if (ligands.length === 0) {
    throw new DockingInputError('该结构中没有可作参考的配体（HETATM），无法自动确定对接盒子：请给出口袋残基（residues）或盒子中心与尺寸（center、size）', 'reference_ligand');
  }
  if (!spec) return ligands[0]!;
  const want = spec.toUpperCase().replace(/\s+/g, ' ');
  const found = ligands.find((l) => l.name.toUpperCase() === want) ?? ligands.find((l) => l.name.split(' ')[0]!.toUpperCase() === want);
  if (!found) {
    throw new DockingInputError(`在结构中找不到配体“${spec}”。结构中的配体有：${ligands.map((l) => l.name).join('、')}`, 'reference_ligand');
  }
  return found;
}

const RESIDUE = /^(?:([A-Za-z0-9]):)?\s*([A-Za-z]{3})?\s*(-?\d+[A-Za-z]?)$/;

/** The heavy atoms of the named residues (`LYS162`, `A:LYS162`, `A:162`, `162`); every name must match. */
export function residueAtoms(text: string, specs: string[]): Atom3d[] {
  const records = firstModel(text).filter((l) => l.startsWith('ATOM  ') || l.startsWith('HETATM'));
  const atoms: Atom3d[] = [];
  const missing: string[] = [];
  for (const spec of specs) {
    const m = RESIDUE.exec(spec.trim());
    if (!m) {
      missing.push(spec);
      continue;
    }
    const [, chain, name, seq] = m;
    const hits = records.filter(
      (l) =>
        l.slice(22, 27).trim().toUpperCase() === seq!.toUpperCase() &&
        (!chain || l[21]?.toUpperCase() === chain.toUpperCase()) &&
        (!name || l.slice(17, 20).trim().toUpperCase() === name.toUpperCase()),
    );
    const heavy = hits.map(pdbAtom).filter((a) => !isHydrogen(a.element));
    if (heavy.length === 0) missing.push(spec);
    else atoms.push(...heavy);
  }
  if (missing.length) throw new DockingInputError(`在结构中找不到这些残基：${missing.join('、')}（写法如 LYS162、A:LYS162 或 A:162）`, 'residues');
  return atoms;
}
