import fsp from 'node:fs/promises';
import path from 'node:path';
import type { DockingBox, DockingResult } from '../../contract/docking';
import { finishPoses, fixReceptor } from './poses';
import { runProgram } from './programs';
import { pdbqtHeavyAtoms, pdbqtModels, rmsdSameOrder, symmetricRmsd } from './rmsd';
import { DockingInputError, pdbAtom } from './structure';

/** The files of one docking run, in its folder. */
export const DOCK_FILES = { receptorPdb: 'receptor.pdb', receptorPdbqt: 'receptor.pdbqt', reference: 'reference.pdb', ligand: 'ligand.pdbqt', poses: 'poses.pdbqt', sdf: 'poses.sdf', log: 'vina.log' } as const;
/** Pose `mode` (from 1) placed in the receptor, as PLIP read it. */
export const complexFile = (mode: number) => `complex-${mode}.pdb`;
/** Stars of Vina's progress bar (0% … 100%). */
const VINA_STARS = 51;

export interface DockRun {
  /** Holds receptor.pdb (and reference.pdb when `reference`); the outputs are written here. */
  dir: string;
  /** The SMILES to dock (already protonated). */
  dockedSmiles: string;
  box: Pick<DockingBox, 'center' | 'size'>;
  exhaustiveness: number;
  numModes: number;
  seed: number;
  cpu: number;
  /** Scoring evaluations per Monte Carlo run (Vina's --max_evals); 0: Vina's heuristic. */
  maxEvals: number;
  reference: boolean;
  /** The molecule's name (SDF titles). */
  name?: string;
  /** PLIP's interactions per pose (default on). */
  interactions?: boolean;
  /** Receptor preparation (PDBFixer) and what the receptor file kept; absent: the receptor is used as written. */
  prep?: { missing_residues: boolean; altlocs_dropped: number; chains_kept: string[]; waters_kept: number };
  /** The receptor is already prepared in `dir` (receptor.pdb fixed, receptor.pdbqt written: a batch's shared one), with what preparation changed. */
  prepared?: { receptor_prep?: DockingResult['receptor_prep'] };
}

export interface DockHooks {
  signal: AbortSignal;
  /** Progress 0–1 and what is being done (Chinese). */
  onStage?: (progress: number, message: string) => void;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** Ligand 3D + PDBQT (Open Babel), one obabel call; returns the PDBQT text. */
export async function prepareLigand(dir: string, smiles: string, signal: AbortSignal): Promise<string> {
  const ligand = await runProgram('obabel', [`-:${smiles}`, '--gen3d', '-opdbqt'], { cwd: dir, signal });
  const heavy = pdbqtHeavyAtoms(ligand.stdout);
  if (heavy.length === 0 || heavy.every((a) => a.x === 0 && a.y === 0 && a.z === 0)) throw new DockingInputError('Open Babel 未能为该分子生成三维结构');
  await fsp.writeFile(path.join(dir, DOCK_FILES.ligand), ligand.stdout);
  return ligand.stdout;
}

/** Receptor PDB → PDBQT (hydrogens at pH 7.4, rigid). */
export const prepareReceptor = (dir: string, signal: AbortSignal) =>
  runProgram('obabel', ['-ipdb', DOCK_FILES.receptorPdb, '-xr', '-p', '7.4', '-opdbqt', '-O', DOCK_FILES.receptorPdbqt], { cwd: dir, signal });

/** Vina's box arguments. */
export const boxArgs = ({ center, size }: Pick<DockingBox, 'center' | 'size'>) => [
  '--center_x', String(center[0]), '--center_y', String(center[1]), '--center_z', String(center[2]),
  '--size_x', String(size[0]), '--size_y', String(size[1]), '--size_z', String(size[2]),
];

/**
 * One docking, start to end: ligand and receptor preparation (Open Babel), Vina with its progress
 * bar followed, the poses with their RMSDs, and the SDF conversion. Stops (killing the process
 * group) on `signal`.
 */
export async function prepareAndDock(run: DockRun, { signal, onStage = () => undefined }: DockHooks): Promise<DockingResult> {
  const { dir } = run;
  const ligand = await prepareLigand(dir, run.dockedSmiles, signal);
  const rotatable = Number(/^TORSDOF\s+(\d+)/m.exec(ligand)?.[1] ?? 0);

  let receptorPrep: DockingResult['receptor_prep'];
  if (run.prepared) {
    receptorPrep = run.prepared.receptor_prep;
  } else {
    if (run.prep) {
      onStage(0.04, run.prep.missing_residues ? '正在准备受体（PDBFixer 补全缺失原子与残基）' : '正在准备受体（PDBFixer 补全缺失原子）');
      const fixed = await fixReceptor(dir, run.prep.missing_residues, signal);
      receptorPrep = { ...fixed, altlocs_dropped: run.prep.altlocs_dropped, chains: run.prep.chains_kept, waters_kept: run.prep.waters_kept };
    }
    onStage(0.06, '正在准备受体（加氢、PDBQT）');
    await prepareReceptor(dir, signal);
  }

  onStage(0.1, '正在计算 Vina 格点');
  const args = [
    '--receptor', DOCK_FILES.receptorPdbqt, '--ligand', DOCK_FILES.ligand, '--out', DOCK_FILES.poses, ...boxArgs(run.box),
    '--exhaustiveness', String(run.exhaustiveness), '--num_modes', String(run.numModes), '--seed', String(run.seed), '--cpu', String(run.cpu),
    ...(run.maxEvals > 0 ? ['--max_evals', String(run.maxEvals)] : []),
  ];
  let docking = false;
  let stars = 0;
  let told = 0;
  const vinaStart = Date.now();
  const vina = await runProgram('vina', args, {
    cwd: dir,
    signal,
    onStdout: (chunk) => {
      if (!docking && /Performing docking/.test(chunk)) docking = true;
      if (!docking) return;
      // The progress bar: a ruler line, then one star per 2 % as the search goes.
      for (const line of chunk.split('\n')) if (/^\**$/.test(line.trim())) stars += line.trim().length;
      if (stars > told) {
        told = stars;
        const done = Math.min(stars, VINA_STARS) / VINA_STARS;
        onStage(round3(0.12 + 0.8 * done), `Vina 对接中（${Math.round(100 * done)}%）`);
      }
    },
  });
  const vinaSeconds = Math.round((Date.now() - vinaStart) / 100) / 10;
  await fsp.writeFile(path.join(dir, DOCK_FILES.log), vina.stdout);

  onStage(0.95, '正在整理结果');
  const models = pdbqtModels(await fsp.readFile(path.join(dir, DOCK_FILES.poses), 'utf8'));
  if (models.length === 0 || models[0]!.atoms.length === 0) throw new Error('vina wrote no poses');
  const best = models[0]!.atoms;
  let refAtoms: ReturnType<typeof pdbAtom>[] | undefined;
  if (run.reference) {
    const text = await fsp.readFile(path.join(dir, DOCK_FILES.reference), 'utf8');
    refAtoms = text.split('\n').filter((l) => l.startsWith('HETATM') || l.startsWith('ATOM')).map(pdbAtom).filter((a) => a.element !== 'H' && a.element !== 'D');
  }
  onStage(0.96, '正在为构象指定键级与氢、检查构象并分析相互作用（PLIP）');
  const reports = await finishPoses(
    { dir, smiles: run.dockedSmiles, ligand: DOCK_FILES.ligand, poses: DOCK_FILES.poses, receptor: DOCK_FILES.receptorPdb, sdf: DOCK_FILES.sdf, interactions: run.interactions ?? true, complexPrefix: 'complex-', name: run.name },
    signal,
  );
  if (reports.length !== models.length) throw new Error(`pose script read ${reports.length} poses of ${models.length}`);
  const result: DockingResult = {
    poses: models.map((m, i) => {
      const toRef = refAtoms ? symmetricRmsd(m.atoms, refAtoms) : undefined;
      const report = reports[i]!;
      return {
        mode: i + 1,
        score: m.score,
        rmsd_to_best: round3(rmsdSameOrder(m.atoms, best)),
        rmsd_to_reference: toRef === undefined ? null : round3(toRef),
        interactions: report.interactions,
        sanity: report.sanity,
      };
    }),
    heavy_atoms: best.length,
    rotatable_bonds: rotatable,
    vina_seconds: vinaSeconds,
  };
  if (receptorPrep) result.receptor_prep = receptorPrep;
  if (run.reference && result.poses[0]!.rmsd_to_reference === null) {
    result.reference_note = '对接分子与参考配体的重原子组成或连接不同，未计算与参考配体的 RMSD';
  }
  return result;
}
