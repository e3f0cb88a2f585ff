import { z } from 'zod';
import { molSearchBody } from './molecules';

/** Limits of a docking request; the server also caps exhaustiveness, CPUs and time by configuration. */
export const DOCKING_LIMITS = {
  smilesLength: 1000,
  /** Atoms of the ligand (counted in its SMILES): drug-like ligands have well under 100 heavy atoms. */
  maxLigandAtoms: 150,
  /** Largest absolute box-centre coordinate in Å (the PDB format's own range). */
  maxCoordinate: 9999,
  /** Longest edge of the search box in Å (Vina slows down and loses accuracy past ~30 Å). */
  maxBoxEdge: 40,
  /** Shortest edge of the search box in Å. */
  minBoxEdge: 4,
  /** Å added on every side of a reference ligand or of named residues. */
  boxPadding: 4,
  maxResidues: 50,
  maxModes: 20,
  /** Largest exhaustiveness the schema accepts; the server's own cap (CSAI_DOCKING_MAX_EXHAUSTIVENESS) is usually lower. */
  schemaMaxExhaustiveness: 256,
  /** Molecules one batch docks. */
  maxBatchLigands: 50,
  /** Characters of an SDF or SMILES file a batch may be given as text. */
  maxBatchFile: 5_000_000,
  /** Molecule ids a batch request may carry (a search's hits); more than maxBatchLigands is refused with the count. */
  maxBatchIds: 500,
} as const;

const coordinate = (label: string) =>
  z
    .number({ error: `${label}必须是数字` })
    .min(-DOCKING_LIMITS.maxCoordinate, `${label}必须在 -${DOCKING_LIMITS.maxCoordinate} 到 ${DOCKING_LIMITS.maxCoordinate} Å 之间`)
    .max(DOCKING_LIMITS.maxCoordinate, `${label}必须在 -${DOCKING_LIMITS.maxCoordinate} 到 ${DOCKING_LIMITS.maxCoordinate} Å 之间`);
const vec3 = (label: string) =>
  z.tuple([coordinate(label), coordinate(label), coordinate(label)], {
    error: `${label}必须是 3 个数字 [x, y, z]`,
  });

/**
 * A docking request (the `docking_submit` tool and POST /api/v1/tasks/docking). The box comes from
 * `center` + `size` when given, else from `residues`, else from the reference ligand (`reference_ligand`,
 * or the first ligand of the structure).
 */
export const dockingSubmitInput = z
  .object({
    smiles: z.string({ error: '请提供要对接分子的 SMILES' }).trim().min(1, '请提供要对接分子的 SMILES').max(DOCKING_LIMITS.smilesLength, `SMILES 不能超过 ${DOCKING_LIMITS.smilesLength} 个字符`),
    ligand_name: z.string().trim().max(100, '分子名称不能超过 100 个字符').optional().describe('分子的名称（显示用）'),
    receptor: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe('受体：PDB 编号（如 5DPV，在你可读的知识库 PDB 文件中查找）或知识库中 PDB 文档的 id；不填时使用提问附带的 PDB 文档'),
    reference_ligand: z
      .string()
      .trim()
      .min(1)
      .max(20)
      .optional()
      .describe('以结构中的参考配体（HETATM 残基名，如 "5DN" 或 "5DN A:401"）定义对接盒子；默认取第一个配体'),
    residues: z
      .array(z.string().trim().min(1).max(20), { error: '残基列表必须是字符串数组' })
      .min(1, '残基列表不能为空')
      .max(DOCKING_LIMITS.maxResidues, `残基最多 ${DOCKING_LIMITS.maxResidues} 个`)
      .optional()
      .describe('以这些残基定义对接盒子，如 ["LYS162", "A:ALA213"]'),
    center: vec3('盒子中心').optional().describe('盒子中心 [x, y, z]（Å）'),
    size: vec3('盒子尺寸').optional().describe('盒子尺寸 [x, y, z]（Å）'),
    exhaustiveness: z
      .number({ error: 'exhaustiveness 必须是数字' })
      .int('exhaustiveness 必须是整数')
      .min(1, 'exhaustiveness 不能小于 1')
      .max(DOCKING_LIMITS.schemaMaxExhaustiveness, `exhaustiveness 不能超过 ${DOCKING_LIMITS.schemaMaxExhaustiveness}`)
      .default(8),
    num_modes: z.number().int().min(1).max(DOCKING_LIMITS.maxModes, `构象数不能超过 ${DOCKING_LIMITS.maxModes}`).default(9),
    receptor_prep: z
      .object(
        {
          missing_residues: z.boolean({ error: 'missing_residues 必须是 true 或 false' }).default(false).describe('补全链中间缺失的残基（PDBFixer 依 SEQRES 建模，较慢）'),
          chains: z
            .array(z.string({ error: '链名必须是字符串' }).trim().max(1, '链名必须是单个字母或数字').regex(/^[A-Za-z0-9]$/, '链名必须是单个字母或数字'), { error: 'chains 必须是链名数组' })
            .min(1, 'chains 不能为空')
            .max(26, 'chains 最多 26 条')
            .optional()
            .describe('只保留这些链作受体，如 ["A"]；默认全部'),
          waters: z.boolean({ error: 'waters 必须是 true 或 false' }).default(false).describe('保留晶体水（默认去掉）'),
        },
        { error: 'receptor_prep 必须是对象' },
      )
      .strict()
      .optional()
      .describe('受体准备：PDBFixer 总会补全缺失的重原子；可选补全缺失残基、只保留某些链、保留晶体水'),
    seed: z
      .number({ error: 'seed 必须是数字' })
      .int('seed 必须是整数')
      .min(-2147483648, 'seed 必须在 -2147483648 到 2147483647 之间')
      .max(2147483647, 'seed 必须在 -2147483648 到 2147483647 之间')
      .optional()
      .describe('随机种子；相同种子与输入得到相同结果'),
  })
  .strict();
export type DockingSubmitInput = z.infer<typeof dockingSubmitInput>;

/** One molecule of a batch: its SMILES and, optionally, a name (the table's and the SDF's title). */
export const batchLigand = z
  .object(
    {
      smiles: z.string({ error: '每个分子都要给出 SMILES' }).trim().min(1, '每个分子都要给出 SMILES').max(DOCKING_LIMITS.smilesLength, `SMILES 不能超过 ${DOCKING_LIMITS.smilesLength} 个字符`),
      name: z.string({ error: '分子名称必须是字符串' }).trim().max(100, '分子名称不能超过 100 个字符').optional(),
    },
    { error: '每个分子必须是 {smiles, name} 对象' },
  )
  .strict();
export type BatchLigand = z.infer<typeof batchLigand>;
const batchLigands = z
  .array(batchLigand, { error: 'ligands 必须是分子数组' })
  .min(1, '分子列表不能为空')
  .max(DOCKING_LIMITS.maxBatchLigands, `一批最多对接 ${DOCKING_LIMITS.maxBatchLigands} 个分子`);

/**
 * A batch (POST /api/v1/tasks/docking/batch): up to 50 molecules, as `ligands` or as
 * the text of an SDF or SMILES file (`file`), docked into one receptor and box with one set of settings.
 */
export const dockingBatchInput = dockingSubmitInput
  .omit({ smiles: true, ligand_name: true })
  .extend({
    ligands: batchLigands.optional().describe('要对接的分子（最多 50 个），每个为 {smiles, name}'),
    file: z
      .string({ error: 'file 必须是文件的文本内容' })
      .max(DOCKING_LIMITS.maxBatchFile, `文件不能超过 ${DOCKING_LIMITS.maxBatchFile / 1_000_000} MB`)
      .optional()
      .describe('SDF 或 SMILES 文件的文本（每行“SMILES 名称”）；与 ligands 二选一'),
    file_format: z.enum(['sdf', 'smi'], { error: 'file_format 只能是 sdf 或 smi' }).optional().describe('file 的格式；不填时自动识别'),
    molecule_ids: z
      .array(z.number({ error: '分子 id 必须是正整数' }).int('分子 id 必须是正整数').positive('分子 id 必须是正整数'), { error: 'molecule_ids 必须是分子 id 的数组' })
      .min(1, '分子 id 列表不能为空')
      // Longer lists get the batch's limit message with their count from the server.
      .max(DOCKING_LIMITS.maxBatchIds, `molecule_ids 最多 ${DOCKING_LIMITS.maxBatchIds} 个`)
      .optional()
      .describe('分子检索结果中的分子（molecule_id，最多 50 个，须为你可读文档中的分子）；与 ligands、file、search 四者选一'),
    search: molSearchBody
      .omit({ top_k: true })
      .optional()
      .describe('对接一次分子检索（POST /mol/search 的 query、mode 等）找到的全部分子（最多 50 个）；与 ligands、file、molecule_ids 四者选一'),
    name: z.string({ error: '批次名称必须是字符串' }).trim().max(100, '批次名称不能超过 100 个字符').optional().describe('批次名称（显示用）'),
  })
  .strict();
export type DockingBatchInput = z.infer<typeof dockingBatchInput>;

export const TASK_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export const taskState = z.enum(TASK_STATES);
export type TaskState = z.infer<typeof taskState>;

/** The search box Vina used (Å), and where it came from. */
export const dockingBox = z.object({
  center: z.tuple([z.number(), z.number(), z.number()]),
  size: z.tuple([z.number(), z.number(), z.number()]),
  source: z.enum(['ligand', 'residues', 'explicit']),
  /** The reference ligand (`5DN A:401`) or the residues the box was made from. */
  label: z.string(),
});
export type DockingBox = z.infer<typeof dockingBox>;

/** Interaction kinds PLIP reports, in the order the card lists them. */
export const INTERACTION_TYPES = ['hbond', 'salt_bridge', 'halogen_bond', 'pi_stacking', 'pi_cation', 'water_bridge', 'metal_complex', 'hydrophobic'] as const;
const xyz = z.tuple([z.number(), z.number(), z.number()]);

/** One protein–ligand interaction of a pose, as PLIP (Debian `plip`) finds it. */
export const poseInteraction = z.object({
  type: z.enum(INTERACTION_TYPES),
  /** `LYS166A`: residue name, number, chain. */
  residue: z.string(),
  restype: z.string(),
  resnr: z.number().int(),
  reschain: z.string(),
  /** PLIP's distance (Å): H–acceptor for hydrogen bonds, acceptor–water for water bridges, centre–centre for rings and charges. */
  distance: z.number(),
  /** The ligand end and the protein end (atom, ring centre or charge centre; Å). */
  ligand_xyz: xyz,
  protein_xyz: xyz,
  distance_donor_acceptor: z.number().optional(),
  angle: z.number().optional(),
  protein_is_donor: z.boolean().optional(),
  /** π-stacking geometry: P (parallel) or T (T-shaped). */
  stacking: z.string().optional(),
  protein_charged: z.boolean().optional(),
  protein_is_positive: z.boolean().optional(),
  distance_donor_water: z.number().optional(),
  metal: z.string().optional(),
});
export type PoseInteraction = z.infer<typeof poseInteraction>;

/** PoseBusters-style checks of a pose with RDKit; `passed` only when every check passes. */
export const poseSanity = z.object({
  passed: z.boolean(),
  checks: z.object({
    /** Bond lengths within 25 % of the molecule's own distance-geometry bounds. */
    bond_lengths: z.boolean(),
    /** Bond angles (1–3 distances) within 25 % of those bounds. */
    bond_angles: z.boolean(),
    /** No two atoms more than three bonds apart closer than 0.7 of their lower bound. */
    internal_clash: z.boolean(),
    /** Atoms of 5- and 6-membered aromatic rings within 0.25 Å of the ring's plane. */
    aromatic_rings_flat: z.boolean(),
    /** No ligand–protein heavy-atom pair closer than 0.75 of the sum of their van der Waals radii. */
    protein_clash: z.boolean(),
    /** Stereocentres and double bonds given in the SMILES keep their configuration. */
    stereochemistry: z.boolean(),
  }),
  bad_bonds: z.number().int(),
  bad_angles: z.number().int(),
  internal_clashes: z.number().int(),
  /** Largest distance of an aromatic-ring atom from its ring's plane (Å). */
  ring_deviation: z.number(),
  /** Closest ligand–protein contact as a fraction of the sum of van der Waals radii. */
  closest_contact_ratio: z.number(),
  /** That contact's distance (Å). */
  closest_contact: z.number().nullable(),
  /** Stereo elements whose configuration changed (atom symbol + number in the SMILES, or `i=j` for a double bond). */
  stereo_changed: z.array(z.string()),
});
export type PoseSanity = z.infer<typeof poseSanity>;

/** One docked pose. */
export const dockingPose = z.object({
  mode: z.number().int(),
  /** Vina score, kcal/mol (a scoring-function estimate, not a measured affinity). */
  score: z.number(),
  /** Heavy-atom RMSD to the best pose (Å, same atom order, no fitting). */
  rmsd_to_best: z.number(),
  /** Heavy-atom RMSD to the reference ligand (Å, symmetry-aware, no fitting), when the box came from one and the molecules match. */
  rmsd_to_reference: z.number().nullable(),
  /** PLIP's interactions of this pose with the receptor (absent for tasks docked before interactions were profiled). */
  interactions: z.array(poseInteraction).optional(),
  sanity: poseSanity.optional(),
});
export type DockingPose = z.infer<typeof dockingPose>;

export const dockingResult = z.object({
  poses: z.array(dockingPose),
  /** Heavy atoms of the docked ligand. */
  heavy_atoms: z.number().int(),
  rotatable_bonds: z.number().int(),
  /** Seconds Vina ran. */
  vina_seconds: z.number(),
  /** Why no reference RMSD was computed, when the box came from a ligand. */
  reference_note: z.string().optional(),
  /** What receptor preparation changed (PDBFixer). */
  receptor_prep: z
    .object({
      heavy_atoms_added: z.number().int(),
      /** Residues whose missing side-chain or terminal atoms were added (`LYS166A`). */
      residues_completed: z.array(z.string()),
      residues_added: z.number().int(),
      nonstandard_replaced: z.array(z.string()),
      /** Atoms of alternate locations other than the first that were dropped. */
      altlocs_dropped: z.number().int(),
      chains: z.array(z.string()),
      waters_kept: z.number().int(),
    })
    .optional(),
});
export type DockingResult = z.infer<typeof dockingResult>;

/** A docking task as its owner sees it. */
export const dockingTask = z.object({
  id: z.string(),
  kind: z.literal('docking'),
  state: taskState,
  /** 0–1. */
  progress: z.number(),
  /** What it is doing now, or why it failed (Chinese). */
  message: z.string(),
  title: z.string(),
  smiles: z.string(),
  /** The SMILES that was docked: `smiles` protonated at pH 7.4 (Open Babel); the SDF's poses are this molecule. */
  docked_smiles: z.string(),
  receptor: z.string(),
  box: dockingBox,
  exhaustiveness: z.number().int(),
  num_modes: z.number().int(),
  seed: z.number().int(),
  cpu: z.number().int(),
  /** Scoring evaluations each Monte Carlo run of Vina may make (the server's CSAI_DOCKING_MAX_EVALS); 0: Vina's own heuristic. */
  max_evals: z.number().int(),
  /** Set-up check: this task redocks the co-crystal ligand of that task, with its box and settings. */
  check_of: z.string().nullable(),
  /** The batch this task docks one molecule of, else null. */
  batch_id: z.string().nullable().default(null),
  result: dockingResult.nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type DockingTask = z.infer<typeof dockingTask>;

/** One molecule of a batch, as its row of the ranked table. */
export const batchEntry = z.object({
  /** Position in the submitted list (from 1). */
  index: z.number().int(),
  /** Place by best Vina score among the molecules docked so far (1 = best); null until docked. */
  rank: z.number().int().nullable(),
  name: z.string(),
  smiles: z.string(),
  docked_smiles: z.string(),
  task_id: z.string(),
  state: taskState,
  progress: z.number(),
  message: z.string(),
  /** Best pose's Vina score (kcal/mol). */
  score: z.number().nullable(),
  /** Ligand efficiency: −score / heavy atoms (kcal/mol per heavy atom). */
  ligand_efficiency: z.number().nullable(),
  heavy_atoms: z.number().int().nullable(),
  /** The best pose's interactions (PLIP). */
  interactions: z.array(poseInteraction).nullable(),
  /** Whether the best pose passed the sanity checks; null before it is docked. */
  sanity_passed: z.boolean().nullable(),
});
export type BatchEntry = z.infer<typeof batchEntry>;

/** A batch as its owner sees it: the settings shared by its molecules and the ranked table. */
export const dockingBatch = z.object({
  id: z.string(),
  kind: z.literal('docking_batch'),
  title: z.string(),
  /** queued until one molecule runs, running while any is open, then done (even when some failed) or cancelled. */
  state: taskState,
  /** Molecules ended (done, failed, cancelled) over all, 0–1, the running ones' progress included. */
  progress: z.number(),
  counts: z.object({ queued: z.number().int(), running: z.number().int(), done: z.number().int(), failed: z.number().int(), cancelled: z.number().int() }),
  receptor: z.string(),
  box: dockingBox,
  exhaustiveness: z.number().int(),
  num_modes: z.number().int(),
  seed: z.number().int(),
  /** Ranked rows first (best score first), then the others in submission order. */
  entries: z.array(batchEntry),
  created_at: z.string(),
});
export type DockingBatch = z.infer<typeof dockingBatch>;

/** The docking tool's input: one molecule (`smiles`) or a batch (`ligands`, 2–50). */
export const dockingToolInput = dockingSubmitInput.extend({
  smiles: dockingSubmitInput.shape.smiles.optional().describe('要对接的一个分子的 SMILES；对接一批分子时改用 ligands'),
  ligands: batchLigands.optional().describe('一次对接一批分子（最多 50 个，每个为 {smiles, name}），得到按打分排序的表格；与 smiles、molecule_ids、search 四者选一'),
  molecule_ids: dockingBatchInput.shape.molecule_ids,
  search: dockingBatchInput.shape.search,
});
export type DockingToolInput = z.infer<typeof dockingToolInput>;

/** `docking_submit` returns the new task (or batch) at once; the card follows it. */
export const dockingSubmitOutput = z.object({ task: dockingTask.optional(), batch: dockingBatch.optional() });
export type DockingSubmitOutput = z.infer<typeof dockingSubmitOutput>;

export const taskQueryInput = z
  .object({
    task_id: z.string().trim().min(1).max(64).optional().describe('任务 id；不填时列出你最近的任务'),
    batch_id: z.string().trim().min(1).max(64).optional().describe('批量对接的批次 id：给出该批次按打分排序的表格'),
  })
  .strict();
export type TaskQueryInput = z.infer<typeof taskQueryInput>;

export const taskQueryOutput = z.object({ tasks: z.array(dockingTask), batch: dockingBatch.optional() });
export type TaskQueryOutput = z.infer<typeof taskQueryOutput>;

export const taskIdParams = z.object({ id: z.string().min(1).max(64) });
/** POST /tasks/:id/check: redock the structure's own co-crystal ligand with the task's box and settings. */
export const setupCheckInput = z
  .object({
    reference_ligand: z
      .string({ error: 'reference_ligand 必须是字符串' })
      .trim()
      .min(1, 'reference_ligand 不能为空')
      .max(20, 'reference_ligand 不能超过 20 个字符')
      .optional()
      .describe('要重对接的共晶配体（如 "5DN" 或 "5DN A:401"）；默认取盒子所用的参考配体，或结构中的第一个配体'),
  })
  .strict();
export type SetupCheckInput = z.infer<typeof setupCheckInput>;
export const taskDownloadQuery = z.object({
  format: z.enum(['sdf', 'pdbqt', 'receptor', 'complex'], { error: 'format 只能是 sdf、pdbqt、receptor 或 complex' }).default('sdf'),
  /** For `complex`: the pose (from 1) placed in the receptor. */
  pose: z.coerce
    .number({ error: 'pose 必须是整数' })
    .int('pose 必须是整数')
    .min(1, 'pose 必须在 1 到 20 之间')
    .max(DOCKING_LIMITS.maxModes, `pose 必须在 1 到 ${DOCKING_LIMITS.maxModes} 之间`)
    .default(1),
});

export const batchDownloadQuery = z.object({
  format: z.enum(['csv', 'sdf'], { error: 'format 只能是 csv 或 sdf' }).default('csv'),
});

/** Plain words every docking answer carries (SPEC: a score is not an affinity). */
export const VINA_SCORE_NOTE = 'Vina 打分（kcal/mol）是打分函数的估计值，不是实测的结合亲和力，只适合在同一受体的分子之间粗略比较。';
