import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import {
  dockingBox,
  dockingResult,
  DOCKING_LIMITS,
  type DockingBatch,
  type BatchLigand,
  type DockingBatchInput,
  type DockingBox,
  type DockingResult,
  type DockingSubmitInput,
  type DockingTask,
} from '../../contract/docking';
import { declaredAtoms } from '../chem/atom-count';
import type { Config } from '../config';
import { now, type Db } from '../db/database';
import type { TaskTable } from '../db/schema';
import { DomainError } from '../errors';
import { jobQueue } from '../jobs/queue';
import { jobRunner } from '../jobs/runner';
import type { Viewer } from '../access/access';
import { docReadable } from '../access/access';
import type { ChemService } from '../chem/service';
import { structures } from '../chem/structures';
import { ChemInputError } from '../chem/engine';
import { moleculeSearch } from '../molecules/search';
import type { FileStore } from '../files/file-store';
import { DOCKING_INSTALL_HINT, missingPrograms, ProgramError, runProgram } from './programs';
import { batchCsv, batchLigands, batchSdf, rankedEntries } from './batch';
import { complexFile, DOCK_FILES as FILES, prepareAndDock } from './run';
import { boxAround, checkBox, checkBoxHoldsReceptor, DockingInputError, findReference, ligandAtoms, ligandsOf, receptorOf, residueAtoms } from './structure';

export const DOCKING_JOB = 'docking';
const PDB_TYPE = 6;

/** What a docking task keeps of its request (tasks.input). */
const dockingSpec = z.object({
  smiles: z.string(),
  /** After protonation at pH 7.4 (Open Babel), the SMILES that is docked. */
  docked_smiles: z.string(),
  receptor: z.string(),
  box: dockingBox,
  /** The box came from this ligand (its records are in reference.pdb). */
  reference: z.boolean(),
  exhaustiveness: z.number().int(),
  num_modes: z.number().int(),
  seed: z.number().int(),
  cpu: z.number().int(),
  /** Vina's --max_evals; 0 (and tasks queued before it was kept) is Vina's own heuristic. */
  max_evals: z.number().int().default(0),
  /** A set-up check: this task redocks the co-crystal ligand of task `check_of` with its box and settings. */
  check_of: z.string().nullable().default(null),
  /** The molecule's name as given (batches: the table's and the SDF's title). */
  name: z.string().default(''),
  /** Receptor preparation asked for, and what the receptor file kept (tasks made before receptor preparation existed: none). */
  prep: z
    .object({ missing_residues: z.boolean(), chains: z.array(z.string()).optional(), waters: z.boolean(), altlocs_dropped: z.number().int(), chains_kept: z.array(z.string()), waters_kept: z.number().int() })
    .nullable()
    .default(null),
});
type DockingSpec = z.infer<typeof dockingSpec>;
/** A request's settings: everything but the molecule. */
type DockingSettings = Omit<DockingSubmitInput, 'smiles' | 'ligand_name'>;
/** What a batch keeps (docking_batches.input): what its tasks share. */
const batchSpec = z.object({ receptor: z.string(), box: dockingBox, exhaustiveness: z.number().int(), num_modes: z.number().int(), seed: z.number().int(), count: z.number().int() });
/** The receptor a batch's first task prepared, kept for the others (in the batch's folder). */
const SHARED_PREP = 'receptor-prep.json';
type TaskRow = Selectable<TaskTable>;

export interface TaskServiceOptions {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  files: FileStore;
  chem: ChemService;
}

/** Docking or the tools are not usable on this server (programs missing). */
export const dockingUnavailable = () => new DomainError('docking_unavailable', `对接不可用：${DOCKING_INSTALL_HINT}`);

/**
 * Docking as durable jobs: a task row per request (owner, state, progress, result)
 * whose work is a `jobs` row run here by one runner; Open Babel prepares the ligand and receptor,
 * Vina docks, and the poses are kept as PDBQT and SDF files in the data folder.
 */
export function startTaskService({ config, db, log, files, chem }: TaskServiceOptions) {
  const lookup = structures({ db, files, chem, pdbMirror: config.CSAI_PDB_MIRROR });
  const searcher = moleculeSearch({ db, chem });
  const root = path.join(config.dataDir, 'tasks');
  const dirOf = (id: string) => path.join(root, id);
  /** A batch's folder (the receptor its first task prepared, shared by the others). */
  const batchDirOf = (id: string) => path.join(config.dataDir, 'docking-batches', id);
  /** Running tasks of this process: their stop. */
  const running = new Map<string, AbortController>();
  const stopping = new AbortController();
  const cpus = Math.max(1, Math.min(config.CSAI_DOCKING_CPUS, os.availableParallelism()));
  const ttlMs = config.CSAI_DOCKING_TASK_TTL_DAYS * 24 * 3600_000;
  const ttlText = config.CSAI_DOCKING_TASK_TTL_DAYS >= 1 ? `${config.CSAI_DOCKING_TASK_TTL_DAYS} 天` : `${Math.round(ttlMs / 60_000)} 分钟`;
  let sweeper: NodeJS.Timeout | undefined;

  const toTask = (row: TaskRow): DockingTask => {
    const spec = dockingSpec.parse(JSON.parse(row.input));
    const result = row.result ? dockingResult.parse(JSON.parse(row.result)) : null;
    return {
      id: row.id,
      kind: 'docking',
      state: row.state,
      progress: row.progress,
      message: row.message,
      title: row.title,
      smiles: spec.smiles,
      docked_smiles: spec.docked_smiles,
      receptor: spec.receptor,
      box: spec.box,
      exhaustiveness: spec.exhaustiveness,
      num_modes: spec.num_modes,
      seed: spec.seed,
      cpu: spec.cpu,
      max_evals: spec.max_evals,
      check_of: spec.check_of,
      batch_id: row.batch_id ?? null,
      result,
      created_at: row.created_at,
      started_at: row.started_at,
      finished_at: row.finished_at,
    };
  };

  const update = (id: string, fields: Partial<Omit<TaskRow, 'id'>>) => db.updateTable('tasks').set({ ...fields, updated_at: now() }).where('id', '=', id).execute();
  /** Updates a task only while it is queued or running (a cancellation is never overwritten); whether it was. */
  const updateOpen = async (id: string, fields: Partial<Omit<TaskRow, 'id'>>) => {
    const r = await db.updateTable('tasks').set({ ...fields, updated_at: now() }).where('id', '=', id).where('state', 'in', ['queued', 'running']).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  };

  /** The caller's own task, else 404 (someone else's is not revealed). */
  async function ownRow(viewer: Viewer, id: string): Promise<TaskRow> {
    const row = await db.selectFrom('tasks').selectAll().where('id', '=', id).where('user_id', '=', viewer.userId).executeTakeFirst();
    if (!row) throw new DomainError('not_found', '任务不存在');
    return row;
  }

  /** The receptor named in the request, else the first PDB document among the question's documents. */
  async function receptorText(viewer: Viewer, receptor: string | undefined, docIds: readonly string[]) {
    if (receptor) return lookup.pdb(viewer, receptor);
    if (docIds.length) {
      const doc = await db
        .selectFrom('kb_documents')
        .select('id')
        .where('id', 'in', [...docIds])
        .where('type', '=', PDB_TYPE)
        .where(docReadable(viewer.userId))
        .orderBy('created_at')
        .executeTakeFirst();
      if (doc) return lookup.pdb(viewer, doc.id);
    }
    throw new DockingInputError('请指定受体：PDB 编号（如 5DPV，需先把该 PDB 文件上传到知识库）或知识库中 PDB 文档的 id，或在提问时附带 PDB 文件', 'receptor');
  }

  /** SMILES → the protonated form at pH 7.4 (Open Babel); bad SMILES are refused here, before anything is queued. */
  async function protonate(smiles: string): Promise<string> {
    if (smiles.includes('.')) throw new DockingInputError('请只提交一个分子：SMILES 中不能有用“.”分开的多个片段', 'smiles');
    if (/\s/.test(smiles)) throw new DockingInputError(`无法解析 SMILES“${smiles}”：不能含有空格`, 'smiles');
    let out = '';
    try {
      out = (await runProgram('obabel', [`-:${smiles}`, '-p', '7.4', '-osmi'], { signal: AbortSignal.timeout(30_000) })).stdout;
    } catch (err) {
      log.warn({ err }, 'obabel could not read a SMILES');
    }
    const docked = out.trim().split(/\s+/)[0] ?? '';
    if (!docked) throw new DockingInputError(`无法解析 SMILES“${smiles}”，请检查写法`, 'smiles');
    return docked;
  }

  /** Whether RDKit reads a SMILES (the pose script builds every pose from it). */
  const rdkitReads = async (smiles: string) => (await chem.identify([smiles]).catch(() => [null]))[0] != null;

  /**
   * 403 when the user keeps too many tasks to add `adding` more, 429 when they already have as many
   * open submissions as allowed. A batch is one submission (its open tasks count once) and each of
   * its molecules one kept task.
   */
  async function checkActiveLimit(viewer: Viewer, adding = 1) {
    const open = await db
      .selectFrom('tasks')
      .select(['id', 'batch_id'])
      .where('user_id', '=', viewer.userId)
      .where('state', 'in', ['queued', 'running'])
      .execute();
    const active = { n: new Set(open.map((t) => t.batch_id ?? t.id)).size };
    const kept = await db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', viewer.userId).executeTakeFirst();
    const keep = config.CSAI_DOCKING_MAX_TASKS_PER_USER;
    const have = Number(kept?.n ?? 0);
    if (have >= keep) {
      throw new DomainError('task_quota', `你保存的对接任务已达上限（${keep} 个），请先删除不再需要的任务（结束超过 ${ttlText} 的任务会自动删除）后再提交`);
    }
    if (have + adding > keep) {
      throw new DomainError(
        'task_quota',
        `这一批有 ${adding} 个分子，每个分子是一个对接任务；你已保存 ${have} 个任务，上限 ${keep} 个，最多还能提交 ${keep - have} 个。请先删除不再需要的任务（结束超过 ${ttlText} 的任务会自动删除），或减少这一批的分子`,
      );
    }
    const limit = config.CSAI_DOCKING_MAX_ACTIVE_PER_USER;
    if (active.n >= limit) {
      throw new DomainError('too_many_tasks', `你已有 ${limit} 个对接任务在排队或运行，已达上限。请等其完成，或取消其中一个后再提交`);
    }
  }

  /** Writes a task's folder (receptor, reference) and queues its row and job in one transaction. */
  async function enqueue(viewer: Viewer, spec: DockingSpec, receptor: string, reference: string | undefined, title: string): Promise<DockingTask> {
    const id = randomBytes(12).toString('base64url');
    const dir = dirOf(id);
    await fsp.mkdir(dir, { recursive: true });
    await fsp.writeFile(path.join(dir, FILES.receptorPdb), receptor);
    if (reference) await fsp.writeFile(path.join(dir, FILES.reference), reference);
    const t = now();
    try {
      await db.transaction().execute(async (trx) => {
        // `owner`: the queue takes docking jobs round-robin by user (a batch's jobs one turn at a time).
        const jobId = await jobQueue(trx).enqueue(DOCKING_JOB, { taskId: id, owner: viewer.userId }, { maxAttempts: 3 });
        await trx
          .insertInto('tasks')
          .values({ id, user_id: viewer.userId, kind: 'docking', job_id: jobId, state: 'queued', progress: 0, message: '排队中', title, input: JSON.stringify(spec), result: null, created_at: t, started_at: null, finished_at: null, updated_at: t })
          .execute();
      });
    } catch (err) {
      await fsp.rm(dir, { recursive: true, force: true });
      throw err;
    }
    runner.wake();
    return toTask(await db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
  }

  /**
   * Checks a task's set-up: redocks the structure's own co-crystal ligand (the box's
   * reference ligand, or `referenceLigand`) into the same receptor with the same box, exhaustiveness,
   * seed and budget; its result's RMSD to the crystal pose tells whether the set-up reproduces it.
   */
  async function checkSetup(viewer: Viewer, taskId: string, referenceLigand?: string): Promise<DockingTask> {
    if (missingPrograms().length) throw dockingUnavailable();
    const row = await ownRow(viewer, taskId);
    const spec = dockingSpec.parse(JSON.parse(row.input));
    if (spec.check_of) throw new DockingInputError('该任务本身就是设置检验，请对原始对接任务进行检验', 'id');
    await checkActiveLimit(viewer);
    const pdb = await lookup.pdb(viewer, spec.receptor);
    const ligand = findReference(ligandsOf(pdb.pdb), referenceLigand ?? (spec.box.source === 'ligand' ? spec.box.label : undefined));
    const records = `${ligand.records.join('\n')}\nEND\n`;
    let smiles = '';
    try {
      smiles = (await runProgram('obabel', ['-ipdb', '-osmi'], { input: records, signal: AbortSignal.timeout(30_000) })).stdout.trim().split(/\s+/)[0] ?? '';
    } catch (err) {
      log.warn({ err }, 'obabel could not read a co-crystal ligand');
    }
    if (!smiles || smiles.includes('.')) throw new DockingInputError(`无法从结构中读出配体 ${ligand.name} 的结构（或它由多个片段组成），不能用它检验设置`, 'reference_ligand');
    // Open Babel perceives bond orders from the crystal coordinates and sometimes gets them wrong
    // (SKE's triazole came out with a five-valent carbon); refused here rather than failing as a job.
    if (!(await rdkitReads(smiles))) {
      throw new DockingInputError(`从结构记录读出的配体 ${ligand.name} 的键级不合理（${smiles}），无法用它检验设置：请改用该配体正确的 SMILES 自行提交一次重对接（box 取自该配体）`, 'reference_ligand');
    }
    const docked = await protonate(smiles);
    const check: DockingSpec = { ...spec, smiles, docked_smiles: docked, reference: true, check_of: taskId };
    return enqueue(viewer, check, receptorOf(pdb.pdb, { chains: spec.prep?.chains, waters: spec.prep?.waters ?? false }).pdb, records, `设置检验：重对接 ${ligand.name} → ${spec.receptor || '受体'}`);
  }

  /** The settings' checks against the server's caps (before anything is looked up). */
  function checkSettings(input: DockingSettings) {
    if (missingPrograms().length) throw dockingUnavailable();
    const cap = config.CSAI_DOCKING_MAX_EXHAUSTIVENESS;
    if (input.exhaustiveness > cap) {
      throw new DockingInputError(`exhaustiveness 不能超过 ${cap}（本服务器的上限，由 CSAI_DOCKING_MAX_EXHAUSTIVENESS 设置）`, 'exhaustiveness');
    }
    if (input.center && !input.size) {
      throw new DockingInputError('给出盒子中心（center）时也要给出盒子尺寸（size）', 'size');
    }
  }

  /** The receptor (prepared as asked), the box and the settings of a request; nothing is written. */
  async function receptorAndBox(viewer: Viewer, input: DockingSettings, docIds: readonly string[]) {
    const pdb = await receptorText(viewer, input.receptor, docIds);
    const prepared = receptorOf(pdb.pdb, { chains: input.receptor_prep?.chains, waters: input.receptor_prep?.waters ?? false });
    const receptor = prepared.pdb;
    let box: DockingBox;
    let reference: string | undefined;
    if (input.center && input.size) {
      box = { center: input.center, size: input.size, source: 'explicit', label: '' };
    } else if (input.residues) {
      const atoms = residueAtoms(pdb.pdb, input.residues);
      box = { ...boxAround(atoms, DOCKING_LIMITS.boxPadding, input.size), source: 'residues', label: input.residues.join(', ') };
    } else {
      const ligand = findReference(ligandsOf(pdb.pdb), input.reference_ligand);
      box = { ...boxAround(ligandAtoms(ligand), DOCKING_LIMITS.boxPadding, input.size), source: 'ligand', label: ligand.name };
      reference = `${ligand.records.join('\n')}\nEND\n`;
    }
    checkBox(box.size);
    if (box.source === 'explicit') checkBoxHoldsReceptor(box, receptor);
    const receptorLabel = pdb.pdb_id || input.receptor || pdb.doc_id || '';
    const spec: Omit<DockingSpec, 'smiles' | 'docked_smiles' | 'name'> = {
      receptor: receptorLabel,
      box,
      reference: !!reference,
      exhaustiveness: input.exhaustiveness,
      num_modes: input.num_modes,
      seed: input.seed ?? Math.floor(Math.random() * 2 ** 31),
      cpu: cpus,
      max_evals: config.CSAI_DOCKING_MAX_EVALS,
      check_of: null,
      prep: {
        missing_residues: input.receptor_prep?.missing_residues ?? false,
        chains: input.receptor_prep?.chains,
        waters: input.receptor_prep?.waters ?? false,
        altlocs_dropped: prepared.altlocsDropped,
        chains_kept: prepared.chains,
        waters_kept: prepared.waters,
      },
    };
    return { receptor, reference, spec, receptorLabel };
  }

  /** A SMILES checked before anything is queued: one molecule, no wildcard, not too large, readable by Open Babel and RDKit; the docked SMILES. */
  async function dockable(smiles: string): Promise<string> {
    if (smiles.includes('*')) throw new DockingInputError('对接分子不能含连接点或未知原子（*）：请给出完整的结构', 'smiles');
    const atoms = declaredAtoms(smiles, 'smiles');
    if (atoms > DOCKING_LIMITS.maxLigandAtoms) {
      throw new DockingInputError(`配体过大：含 ${atoms} 个原子，对接的上限为 ${DOCKING_LIMITS.maxLigandAtoms} 个`, 'smiles');
    }
    const docked = await protonate(smiles);
    if (!(await rdkitReads(docked))) throw new DockingInputError(`RDKit 无法读取该分子在 pH 7.4 质子化后的结构（${docked}），无法为构象指定键级与氢`, 'smiles');
    return docked;
  }

  async function submit(viewer: Viewer, input: DockingSubmitInput, docIds: readonly string[] = []): Promise<DockingTask> {
    checkSettings(input);
    await checkActiveLimit(viewer);
    const { receptor, reference, spec, receptorLabel } = await receptorAndBox(viewer, input, docIds);
    const docked = await dockable(input.smiles);
    return enqueue(viewer, { ...spec, smiles: input.smiles, docked_smiles: docked, name: input.ligand_name ?? '' }, receptor, reference, `${input.ligand_name || input.smiles.slice(0, 60)} → ${receptorLabel || '受体'}`);
  }

  /**
   * A batch: up to 50 molecules docked into one receptor and box with one set of
   * settings, each as a task of its own. Every molecule is checked first; one that cannot be docked
   * refuses the whole batch with a message per molecule, and nothing is written. The batch's row,
   * its tasks and their jobs are written in one transaction.
   */
  /**
   * The molecules of a molecule-search result, by their ids or by running the search
   * again, as a batch's list: only molecules of documents the viewer may read; a salt or mixture is
   * docked as its standardised parent. Unknown and unreadable ids are refused alike (nothing revealed).
   */
  async function searchedLigands(viewer: Viewer, input: Pick<DockingBatchInput, 'molecule_ids' | 'search'>): Promise<BatchLigand[]> {
    const max = DOCKING_LIMITS.maxBatchLigands;
    let ids: number[];
    if (input.search) {
      const { query, mode, threshold, match_parent, activity } = input.search;
      const found = await searcher
        .search(viewer, { query, mode, threshold, topK: DOCKING_LIMITS.maxBatchIds, matchParent: match_parent, activity })
        .catch((err: unknown) => {
          if (err instanceof ChemInputError) throw new DockingInputError(err.message, 'search');
          throw err;
        });
      if (found.hits.length === 0) throw new DockingInputError('这次分子检索没有找到分子，没有可对接的分子', 'search');
      if (found.hits.length > max) {
        throw new DockingInputError(`一批最多对接 ${max} 个分子，这次检索找到 ${found.hits.length}${found.truncated ? ' 个以上' : ' 个'}：请缩小检索范围，或在检索结果中选出要对接的分子`, 'search');
      }
      ids = found.hits.map((h) => h.molecule_id);
    } else {
      ids = [...new Set(input.molecule_ids ?? [])];
      if (ids.length > max) throw new DockingInputError(`一批最多对接 ${max} 个分子，这里有 ${ids.length} 个：请分成几批提交`, 'molecule_ids');
    }
    const rows = await db
      .selectFrom('molecules')
      .innerJoin('kb_documents', 'kb_documents.id', 'molecules.doc_id')
      .leftJoin('doc_structures', 'doc_structures.id', 'molecules.structure_id')
      .select(['molecules.id', 'molecules.name', 'molecules.canonical_smiles', 'molecules.parent_smiles', 'doc_structures.label'])
      .where('molecules.id', 'in', ids)
      .where(docReadable(viewer.userId))
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length) {
      throw new DockingInputError(`有 ${missing.length} 个分子不存在或你无权读取（id：${missing.slice(0, 10).join('、')}${missing.length > 10 ? ' 等' : ''}），整批未提交`, 'molecule_ids');
    }
    return ids.map((id) => {
      const r = byId.get(id)!;
      // A salt or mixture ('.' in its SMILES) is docked as its largest organic part.
      const smiles = r.canonical_smiles.includes('.') && r.parent_smiles ? r.parent_smiles : r.canonical_smiles;
      const name = (r.name || r.label || '').trim().slice(0, 100);
      return name ? { smiles, name } : { smiles };
    });
  }

  async function submitBatch(viewer: Viewer, input: DockingBatchInput, docIds: readonly string[] = []): Promise<DockingBatch> {
    checkSettings(input);
    const given = [input.ligands, input.file, input.molecule_ids, input.search].filter((x) => x !== undefined).length;
    if ((input.molecule_ids || input.search) && given > 1) {
      throw new DockingInputError('要对接的分子只能用一种方式给出：ligands、file、molecule_ids、search 四者选一', input.search ? 'search' : 'molecule_ids');
    }
    if (input.molecule_ids || input.search) input = { ...input, ligands: await searchedLigands(viewer, input), molecule_ids: undefined, search: undefined };
    const ligands = await batchLigands(input, AbortSignal.timeout(60_000)).catch((err: unknown) => {
      if (err instanceof DockingInputError) throw err;
      log.warn({ err }, 'reading a batch file failed');
      throw new DockingInputError('无法读取该文件：请提交 SDF 或每行“SMILES 名称”的 SMILES 文件', 'file');
    });
    await checkActiveLimit(viewer, ligands.length);
    const { receptor, reference, spec, receptorLabel } = await receptorAndBox(viewer, input, docIds);

    // Each molecule checked as a single submission would be (three Open Babel runs at a time).
    const label = (i: number) => `第 ${i + 1} 个分子${ligands[i]!.name ? `（${ligands[i]!.name}）` : ''}`;
    const docked: string[] = new Array<string>(ligands.length).fill('');
    const problems: string[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < ligands.length; i = next++) {
        const l = ligands[i]!;
        try {
          if (l.error) throw new DockingInputError(l.error, 'file');
          docked[i] = await dockable(l.smiles);
        } catch (err) {
          if (!(err instanceof DockingInputError)) throw err;
          problems[i] = `${label(i)}：${err.message}`;
        }
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    const bad = problems.filter(Boolean);
    if (bad.length) throw new DockingInputError(`${ligands.length} 个分子中有 ${bad.length} 个无法对接，整批未提交：${bad.join('；')}`, input.ligands ? 'ligands' : 'file');

    const id = randomBytes(12).toString('base64url');
    const ids = ligands.map(() => randomBytes(12).toString('base64url'));
    const title = `${input.name || `批量对接 ${ligands.length} 个分子`} → ${receptorLabel || '受体'}`;
    const written = [batchDirOf(id), ...ids.map(dirOf)];
    try {
      await fsp.mkdir(batchDirOf(id), { recursive: true });
      for (const taskId of ids) {
        await fsp.mkdir(dirOf(taskId), { recursive: true });
        await fsp.writeFile(path.join(dirOf(taskId), FILES.receptorPdb), receptor);
        if (reference) await fsp.writeFile(path.join(dirOf(taskId), FILES.reference), reference);
      }
      const t = now();
      await db.transaction().execute(async (trx) => {
        const shared = { receptor: spec.receptor, box: spec.box, exhaustiveness: spec.exhaustiveness, num_modes: spec.num_modes, seed: spec.seed, count: ligands.length };
        await trx.insertInto('docking_batches').values({ id, user_id: viewer.userId, title, input: JSON.stringify(shared), created_at: t, updated_at: t }).execute();
        for (const [i, l] of ligands.entries()) {
          const jobId = await jobQueue(trx).enqueue(DOCKING_JOB, { taskId: ids[i], owner: viewer.userId }, { maxAttempts: 3 });
          const taskSpec: DockingSpec = { ...spec, smiles: l.smiles, docked_smiles: docked[i]!, name: l.name ?? '' };
          await trx
            .insertInto('tasks')
            .values({
              id: ids[i]!,
              user_id: viewer.userId,
              kind: 'docking',
              job_id: jobId,
              state: 'queued',
              progress: 0,
              message: '排队中',
              title: `${l.name || l.smiles.slice(0, 60)} → ${receptorLabel || '受体'}`,
              input: JSON.stringify(taskSpec),
              result: null,
              created_at: t,
              started_at: null,
              finished_at: null,
              updated_at: t,
              batch_id: id,
              batch_index: i + 1,
            })
            .execute();
        }
      });
    } catch (err) {
      await Promise.all(written.map((d) => fsp.rm(d, { recursive: true, force: true })));
      throw err;
    }
    runner.wake();
    return getBatch(viewer, id);
  }

  /** The caller's own batch, else 404. */
  async function ownBatch(viewer: Viewer, id: string) {
    const row = await db.selectFrom('docking_batches').selectAll().where('id', '=', id).where('user_id', '=', viewer.userId).executeTakeFirst();
    if (!row) throw new DomainError('not_found', '批次不存在');
    return row;
  }

  /** A batch with its ranked table. */
  async function getBatch(viewer: Viewer, id: string): Promise<DockingBatch> {
    const batch = await ownBatch(viewer, id);
    const shared = batchSpec.parse(JSON.parse(batch.input));
    const rows = await db.selectFrom('tasks').selectAll().where('batch_id', '=', id).where('user_id', '=', viewer.userId).orderBy('batch_index').execute();
    const tasks = rows.map((r) => {
      const spec = dockingSpec.parse(JSON.parse(r.input));
      const result: DockingResult | null = r.result ? dockingResult.parse(JSON.parse(r.result)) : null;
      return { id: r.id, index: r.batch_index ?? 0, name: spec.name, smiles: spec.smiles, docked_smiles: spec.docked_smiles, state: r.state, progress: r.progress, message: r.message, result };
    });
    const counts = { queued: 0, running: 0, done: 0, failed: 0, cancelled: 0 };
    for (const t of tasks) counts[t.state]++;
    const open = counts.queued + counts.running;
    const ended = tasks.length - open;
    const state: DockingBatch['state'] = open > 0 ? (counts.running > 0 || ended > 0 ? 'running' : 'queued') : counts.cancelled > 0 ? 'cancelled' : counts.done > 0 ? 'done' : 'failed';
    const running = tasks.filter((t) => t.state === 'running').reduce((sum, t) => sum + t.progress, 0);
    return {
      id: batch.id,
      kind: 'docking_batch',
      title: batch.title,
      state,
      progress: tasks.length ? Math.round((1000 * (ended + running)) / tasks.length) / 1000 : 1,
      counts,
      receptor: shared.receptor,
      box: shared.box,
      exhaustiveness: shared.exhaustiveness,
      num_modes: shared.num_modes,
      seed: shared.seed,
      entries: rankedEntries(tasks),
      created_at: batch.created_at,
    };
  }

  /** Cancels every queued or running task of a batch (their processes are killed); ended ones stay as they are. */
  async function cancelBatch(viewer: Viewer, id: string): Promise<DockingBatch> {
    await ownBatch(viewer, id);
    const open = await db.selectFrom('tasks').select(['id', 'job_id']).where('batch_id', '=', id).where('user_id', '=', viewer.userId).where('state', 'in', ['queued', 'running']).execute();
    if (open.length === 0) throw new DomainError('task_finished', '批次中的任务都已结束，无法取消');
    const t = now();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('tasks').set({ state: 'cancelled', message: '已取消', finished_at: t, updated_at: t }).where('batch_id', '=', id).where('state', 'in', ['queued', 'running']).execute();
      const jobs = open.map((o) => o.job_id).filter((j): j is number => j !== null);
      if (jobs.length) await trx.updateTable('jobs').set({ state: 'failed', error: 'cancelled', updated_at: t }).where('id', 'in', jobs).where('state', '=', 'queued').execute();
    });
    for (const o of open) running.get(o.id)?.abort('cancelled');
    return getBatch(viewer, id);
  }

  /** Deletes an ended batch: its tasks with their files, then the batch. */
  async function removeBatch(viewer: Viewer, id: string): Promise<{ deleted: number }> {
    await ownBatch(viewer, id);
    const tasks = await db.selectFrom('tasks').select(['id', 'state']).where('batch_id', '=', id).execute();
    if (tasks.some((t) => t.state === 'queued' || t.state === 'running')) throw new DomainError('task_running', '批次中还有任务在排队或运行，请先全部取消再删除');
    for (const t of tasks) await removeTask(t.id);
    await db.deleteFrom('docking_batches').where('id', '=', id).execute();
    await fsp.rm(batchDirOf(id), { recursive: true, force: true });
    return { deleted: tasks.length };
  }

  /** The ranked table as CSV, or the best pose of each docked molecule as SDF. */
  async function batchFile(viewer: Viewer, id: string, format: 'csv' | 'sdf'): Promise<{ text: string; name: string; mime: string }> {
    const batch = await getBatch(viewer, id);
    if (format === 'csv') return { text: batchCsv(batch.entries), name: `docking-batch-${id}.csv`, mime: 'text/csv; charset=utf-8' };
    if (!batch.entries.some((e) => e.rank !== null)) throw new DomainError('task_not_done', '批次中还没有完成对接的分子，还没有可下载的构象');
    return { text: await batchSdf(batch.entries, (taskId) => path.join(dirOf(taskId), FILES.sdf)), name: `docking-batch-${id}.sdf`, mime: 'chemical/x-mdl-sdfile' };
  }

  /** The receptor a batch's first task prepared (PDBFixer, then PDBQT), when there is one: copied into this task's folder. */
  async function sharedReceptor(batchId: string, dir: string): Promise<{ receptor_prep?: DockingResult['receptor_prep'] } | undefined> {
    const from = batchDirOf(batchId);
    try {
      const prep = JSON.parse(await fsp.readFile(path.join(from, SHARED_PREP), 'utf8')) as { receptor_prep?: DockingResult['receptor_prep'] };
      await fsp.copyFile(path.join(from, FILES.receptorPdb), path.join(dir, FILES.receptorPdb));
      await fsp.copyFile(path.join(from, FILES.receptorPdbqt), path.join(dir, FILES.receptorPdbqt));
      return prep;
    } catch {
      return undefined;
    }
  }

  /** Keeps a batch task's prepared receptor for the batch's other tasks (written whole, then renamed). */
  async function shareReceptor(batchId: string, dir: string, result: DockingResult) {
    const to = batchDirOf(batchId);
    if (fs.existsSync(path.join(to, SHARED_PREP))) return;
    await fsp.mkdir(to, { recursive: true });
    const tmp = `.${randomBytes(6).toString('hex')}`;
    await fsp.copyFile(path.join(dir, FILES.receptorPdb), path.join(to, FILES.receptorPdb + tmp));
    await fsp.copyFile(path.join(dir, FILES.receptorPdbqt), path.join(to, FILES.receptorPdbqt + tmp));
    await fsp.rename(path.join(to, FILES.receptorPdb + tmp), path.join(to, FILES.receptorPdb));
    await fsp.rename(path.join(to, FILES.receptorPdbqt + tmp), path.join(to, FILES.receptorPdbqt));
    await fsp.writeFile(path.join(to, SHARED_PREP), JSON.stringify({ receptor_prep: result.receptor_prep }));
  }

  /** Docks one task; returns normally when it ended (done, failed, cancelled), throws only when the server stops. */
  async function work(taskId: string): Promise<void> {
    const row = await db.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirst();
    if (!row || (row.state !== 'queued' && row.state !== 'running')) return; // cancelled or gone
    const spec = dockingSpec.parse(JSON.parse(row.input));
    const dir = dirOf(taskId);
    const stop = new AbortController();
    running.set(taskId, stop);
    const timeoutMs = config.CSAI_DOCKING_TIMEOUT_S * 1000;
    const timer = setTimeout(() => stop.abort('timeout'), timeoutMs);
    const signal = AbortSignal.any([stop.signal, stopping.signal]);
    const startedAt = now();
    // Cancelled between the read above and here (the request runs beside this job): nothing to do.
    if (!(await updateOpen(taskId, { state: 'running', progress: 0.02, message: '正在准备配体（三维结构、pH 7.4 质子化）', started_at: startedAt, finished_at: null, result: null }))) {
      clearTimeout(timer);
      running.delete(taskId);
      return;
    }
    try {
      // A batch's tasks share one receptor preparation: the first to finish keeps it for the others.
      const prepared = row.batch_id ? await sharedReceptor(row.batch_id, dir) : undefined;
      const result = await prepareAndDock(
        {
          dir,
          dockedSmiles: spec.docked_smiles,
          name: spec.name || row.title.split(' → ')[0],
          box: spec.box,
          exhaustiveness: spec.exhaustiveness,
          numModes: spec.num_modes,
          seed: spec.seed,
          cpu: spec.cpu,
          maxEvals: spec.max_evals,
          reference: spec.reference,
          prep: spec.prep ?? undefined,
          prepared,
        },
        {
          signal,
          // Only while running: a late progress line must not overwrite a cancellation.
          onStage: (progress, message) =>
            void db.updateTable('tasks').set({ progress, message, updated_at: now() }).where('id', '=', taskId).where('state', '=', 'running').execute().catch(() => undefined),
        },
      );

      const current = await db.selectFrom('tasks').select('state').where('id', '=', taskId).executeTakeFirst();
      if (current?.state !== 'running') return; // cancelled at the last moment
      if (row.batch_id && !prepared) await shareReceptor(row.batch_id, dir, result).catch((err: unknown) => log.warn({ err, taskId }, 'keeping a batch receptor failed'));
      await updateOpen(taskId, { state: 'done', progress: 1, message: '完成', result: JSON.stringify(result), finished_at: now() });
    } catch (err) {
      if (stopping.signal.aborted) throw new Error('server stopping'); // the job stays running and runs again after the restart
      const current = await db.selectFrom('tasks').select('state').where('id', '=', taskId).executeTakeFirst();
      if (current?.state === 'cancelled') return;
      let message: string;
      if (stop.signal.reason === 'timeout') message = `对接运行超过上限 ${config.CSAI_DOCKING_TIMEOUT_S} 秒（CSAI_DOCKING_TIMEOUT_S），已停止`;
      else if (err instanceof DockingInputError) message = err.message;
      else {
        log.warn({ err, taskId, stderr: err instanceof ProgramError ? err.stderr.slice(-2000) : undefined }, 'docking failed');
        message = err instanceof ProgramError && /vina/.test(err.message) ? `Vina 运行失败：${lastLine(err.stderr) || err.message}` : `对接失败：${err instanceof ProgramError ? lastLine(err.stderr) || err.message : '内部错误'}`;
      }
      await updateOpen(taskId, { state: 'failed', message, finished_at: now() });
    } finally {
      clearTimeout(timer);
      running.delete(taskId);
    }
  }

  const runner = jobRunner(
    db,
    log,
    {
      [DOCKING_JOB]: async (job) => {
        const taskId = z.object({ taskId: z.string() }).safeParse(JSON.parse(job.payload));
        if (!taskId.success) throw new Error('bad docking job payload');
        await work(taskId.data.taskId);
      },
    },
    // One job more than the slots, for a user with none running: another user's batch never holds every slot.
    { concurrency: config.CSAI_DOCKING_CONCURRENCY, pollMs: 1000, newOwnerExtra: 1 },
  );

  /** Ended tasks older than CSAI_DOCKING_TASK_TTL_DAYS go with their files; returns how many. */
  async function expire(at = Date.now()): Promise<number> {
    const old = await db
      .selectFrom('tasks')
      .select('id')
      .where('state', 'in', ['done', 'failed', 'cancelled'])
      .where('updated_at', '<', new Date(at - ttlMs).toISOString())
      .execute();
    for (const t of old) await removeTask(t.id);
    // Batches whose tasks are all gone (expired or deleted one by one).
    const empty = await db
      .selectFrom('docking_batches')
      .select('id')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('tasks').select('tasks.id').whereRef('tasks.batch_id', '=', 'docking_batches.id'))))
      .execute();
    for (const b of empty) {
      await db.deleteFrom('docking_batches').where('id', '=', b.id).execute();
      await fsp.rm(batchDirOf(b.id), { recursive: true, force: true });
    }
    return old.length;
  }

  /** Removes a task's row, then its folder. */
  async function removeTask(id: string) {
    await db.deleteFrom('tasks').where('id', '=', id).execute();
    await fsp.rm(dirOf(id), { recursive: true, force: true });
  }

  /** After a restart: tasks left running wait for their job again; those whose job is gone or failed for good fail. */
  async function reconcile() {
    const open = await db
      .selectFrom('tasks')
      .leftJoin('jobs', 'jobs.id', 'tasks.job_id')
      .select(['tasks.id', 'tasks.state', 'jobs.state as job_state'])
      .where('tasks.state', 'in', ['queued', 'running'])
      .execute();
    for (const t of open) {
      if (t.job_state === 'queued' || t.job_state === 'running') {
        if (t.state === 'running') await update(t.id, { state: 'queued', progress: 0, message: '服务重启，任务将重新运行' });
      } else {
        await update(t.id, { state: 'failed', message: '服务多次重启，任务被中断，请重新提交', finished_at: now() });
      }
    }
  }

  return {
    async start() {
      await reconcile();
      runner.start();
      const sweep = () => void expire().then((n) => n && log.info({ removed: n }, 'expired docking tasks removed'), (err: unknown) => log.warn({ err }, 'docking task expiry failed'));
      sweep();
      sweeper = setInterval(sweep, Math.max(1000, Math.min(3600_000, ttlMs / 4)));
      sweeper.unref();
    },
    /** Deletes one of the caller's ended tasks with its files (an open one is cancelled first). */
    async remove(viewer: Viewer, id: string): Promise<{ deleted: number }> {
      const row = await ownRow(viewer, id);
      if (row.state === 'queued' || row.state === 'running') throw new DomainError('task_running', '任务还在排队或运行，请先取消再删除');
      await removeTask(id);
      return { deleted: 1 };
    },
    submit,
    checkSetup,
    submitBatch,
    getBatch,
    cancelBatch,
    removeBatch,
    batchFile,
    /** The caller's batches, newest first. */
    async listBatches(viewer: Viewer, limit = 50): Promise<DockingBatch[]> {
      const rows = await db.selectFrom('docking_batches').select('id').where('user_id', '=', viewer.userId).orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
      return Promise.all(rows.map((r) => getBatch(viewer, r.id)));
    },
    async list(viewer: Viewer, limit = 50): Promise<DockingTask[]> {
      const rows = await db.selectFrom('tasks').selectAll().where('user_id', '=', viewer.userId).orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
      return rows.map(toTask);
    },
    get: async (viewer: Viewer, id: string) => toTask(await ownRow(viewer, id)),
    async cancel(viewer: Viewer, id: string): Promise<DockingTask> {
      const row = await ownRow(viewer, id);
      if (row.state !== 'queued' && row.state !== 'running') throw new DomainError('task_finished', '任务已经结束，无法取消');
      // Only while still open: a task that finished meanwhile is not turned into a cancelled one.
      if (!(await updateOpen(id, { state: 'cancelled', message: '已取消', finished_at: now() }))) throw new DomainError('task_finished', '任务已经结束，无法取消');
      if (row.job_id !== null) await db.updateTable('jobs').set({ state: 'failed', error: 'cancelled', updated_at: now() }).where('id', '=', row.job_id).where('state', '=', 'queued').execute();
      running.get(id)?.abort('cancelled');
      return toTask(await ownRow(viewer, id));
    },
    /** A result file of the caller's finished task (`complex`: pose `pose` placed in the receptor, as PLIP read it). */
    async file(viewer: Viewer, id: string, format: 'sdf' | 'pdbqt' | 'receptor' | 'complex', pose = 1): Promise<{ path: string; name: string; mime: string }> {
      const row = await ownRow(viewer, id);
      const name = format === 'sdf' ? FILES.sdf : format === 'pdbqt' ? FILES.poses : format === 'complex' ? complexFile(pose) : FILES.receptorPdb;
      if (format !== 'receptor' && row.state !== 'done') throw new DomainError('task_not_done', '任务尚未完成，还没有可下载的结果');
      const file = path.join(dirOf(id), name);
      if (format === 'complex' && !fs.existsSync(file)) {
        const poses = row.result ? dockingResult.parse(JSON.parse(row.result)).poses.length : 0;
        throw new DomainError('not_found', pose > poses ? `该任务只有 ${poses} 个构象，没有构象 ${pose}` : '该任务完成于相互作用分析之前，没有复合物文件');
      }
      if (!fs.existsSync(file)) throw new DomainError('not_found', '结果文件不存在');
      const mime = format === 'sdf' ? 'chemical/x-mdl-sdfile' : format === 'pdbqt' ? 'chemical/x-pdbqt' : 'chemical/x-pdb';
      return { path: file, name: `docking-${id}-${format === 'receptor' ? 'receptor.pdb' : name}`, mime };
    },
    /** Pids of the processes of running tasks are not kept; tests look them up by the task folder. */
    dirOf,
    async stop() {
      if (sweeper) clearInterval(sweeper);
      const done = runner.stop();
      stopping.abort();
      await done;
    },
  };
}

/** Sign-offs Vina ends its error report with ("Please report this bug…", "Thank you!"): not the reason. */
const SIGN_OFF = /^(thank you!?|please (report|contact|send)\b.*|.*\bbug report\b.*|-+|=+)$/i;
/** The last line of a program's error output that says what went wrong. */
const lastLine = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !SIGN_OFF.test(l))
    .slice(-1)[0]
    ?.slice(0, 300) ?? '';

export type TaskService = ReturnType<typeof startTaskService>;
