// The poses' chemistry in Debian's Python: `dock_poses.py` gives each pose of Vina's
// PDBQT the submitted molecule's bond orders, charges and hydrogens (RDKit), writes the SDF, checks
// each pose (PoseBusters-style) and lists its interactions with the receptor (PLIP). One process per
// docking: ~0.3 s to start RDKit and PLIP, then ~0.1 s a pose.
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { poseInteraction, poseSanity } from '../../contract/docking';
import { DOCKING_PYTHON, runProgram } from './programs';

/** Beside this module in the source tree; copied next to main.js by scripts/build-server.mjs. */
export const POSES_SCRIPT = fileURLToPath(new URL('./dock_poses.py', import.meta.url));

const poseReport = z.object({
  mode: z.number().int(),
  radicals: z.number().int(),
  same_graph: z.boolean(),
  sanity: poseSanity,
  interactions: z.array(poseInteraction),
});
export type PoseReport = z.infer<typeof poseReport>;

export interface PoseRequest {
  dir: string;
  /** The docked (protonated) SMILES: the template of bond orders, charges and hydrogens. */
  smiles: string;
  /** Vina's input ligand (its atoms are each pose's, in order), Vina's output and the receptor, in `dir`. */
  ligand: string;
  poses: string;
  receptor: string;
  /** The SDF to write, in `dir`. */
  sdf: string;
  /** Also run PLIP on each pose in the receptor (kept as `<complexPrefix><mode>.pdb`). */
  interactions: boolean;
  complexPrefix: string;
  /** The molecule's name for the SDF titles. */
  name?: string;
}

/** Beside this module; copied next to main.js by scripts/build-server.mjs. */
export const RECEPTOR_SCRIPT = fileURLToPath(new URL('./prepare_receptor.py', import.meta.url));

/** PDBFixer on the task's receptor.pdb (rewritten in place): missing heavy atoms, optionally missing residues; what it changed. */
export async function fixReceptor(dir: string, missingResidues: boolean, signal: AbortSignal) {
  const out = await runProgram(DOCKING_PYTHON, ['-I', RECEPTOR_SCRIPT], { cwd: dir, input: JSON.stringify({ pdb: 'receptor.pdb', missing_residues: missingResidues }), signal });
  const r = z
    .object({
      heavy_atoms_added: z.number().int(),
      residues_with_atoms_added: z.array(z.object({ residue: z.string() })),
      residues_added: z.number().int(),
      nonstandard_replaced: z.array(z.object({ residue: z.string(), replaced_by: z.string() })),
    })
    .parse(JSON.parse(out.stdout.trim().split('\n').pop() ?? '{}'));
  return {
    heavy_atoms_added: r.heavy_atoms_added,
    residues_completed: r.residues_with_atoms_added.map((x) => x.residue),
    residues_added: r.residues_added,
    nonstandard_replaced: r.nonstandard_replaced.map((x) => `${x.residue}→${x.replaced_by}`),
  };
}

/** Runs `dock_poses.py`: writes the SDF (and the complexes) and returns what it found of each pose. */
export async function finishPoses(req: PoseRequest, signal: AbortSignal): Promise<PoseReport[]> {
  const input = JSON.stringify({ dir: req.dir, smiles: req.smiles, ligand: req.ligand, poses: req.poses, receptor: req.receptor, sdf: req.sdf, interactions: req.interactions, complex_prefix: req.complexPrefix, name: req.name ?? '' });
  const out = await runProgram(DOCKING_PYTHON, ['-I', POSES_SCRIPT], { cwd: req.dir, input, signal });
  return z.object({ poses: z.array(poseReport) }).parse(JSON.parse(out.stdout)).poses;
}
