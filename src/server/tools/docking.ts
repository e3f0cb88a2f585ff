import {
  dockingToolInput,
  dockingSubmitOutput,
  taskQueryInput,
  taskQueryOutput,
  VINA_SCORE_NOTE,
  type DockingBatch,
  type DockingToolInput,
  type DockingSubmitOutput,
  type DockingPose,
  type DockingTask,
  type PoseInteraction,
  type TaskQueryInput,
  type TaskQueryOutput,
} from '../../contract/docking';
import { DOCKING_INSTALL_HINT, missingPrograms } from '../docking/programs';
import type { TaskService } from '../docking/tasks';
import { DomainError, domainStatus } from '../errors';
import { defineTool, ToolInputError, type Tool, type ToolAvailability } from './types';

const STATE: Record<DockingTask['state'], string> = { queued: '排队中', running: '运行中', done: '已完成', failed: '失败', cancelled: '已取消' };

function availability(tasks: TaskService | undefined): ToolAvailability {
  if (!tasks) return { enabled: false, reason: '本服务器未启动后台任务服务。' };
  const missing = missingPrograms();
  if (missing.length) return { enabled: false, reason: `未安装 ${missing.join('、')}。${DOCKING_INSTALL_HINT}` };
  return { enabled: true };
}

/** A user's mistake (a refusal that is a 4xx over HTTP) as a message the card shows; anything else stays an internal failure. */
function asToolError(err: unknown): never {
  if (err instanceof DomainError && (domainStatus(err.code) < 500 || err.code === 'docking_unavailable')) throw new ToolInputError(err.message);
  throw err;
}

const fmt = (n: number | null) => (n === null ? '—' : n.toFixed(2));
const KIND: Record<PoseInteraction['type'], string> = { hbond: '氢键', salt_bridge: '盐桥', halogen_bond: '卤键', pi_stacking: 'π-π 堆积', pi_cation: 'π-阳离子', water_bridge: '水桥', metal_complex: '金属配位', hydrophobic: '疏水' };
/** A pose's interactions in a few words: the polar and aromatic ones with residue and distance, then how many hydrophobic contacts. */
export function keyInteractions(list: PoseInteraction[] | undefined): string {
  if (!list) return '—';
  const polar = list.filter((i) => i.type !== 'hydrophobic').map((i) => `${KIND[i.type]} ${i.residue} ${i.distance.toFixed(1)} Å`);
  const hydrophobic = new Set(list.filter((i) => i.type === 'hydrophobic').map((i) => i.residue));
  return [...polar, ...(hydrophobic.size ? [`疏水 ${[...hydrophobic].join('/')}`] : [])].join('；') || '无';
}
const sanityText = (p: DockingPose) =>
  !p.sanity ? '—' : p.sanity.passed ? '通过' : `未通过（${Object.entries(p.sanity.checks).filter(([, ok]) => !ok).map(([k]) => k).join(', ')}）`;

/** One task for the model: its state and, when done, every pose. */
export function describeTask(task: DockingTask): string {
  const head = `任务 ${task.id}（对接：${task.title}）：${STATE[task.state]}${task.state === 'running' ? `，进度 ${Math.round(task.progress * 100)}%` : ''}${task.message && task.state !== 'done' ? `，${task.message}` : ''}`;
  const box = `盒子：中心 (${task.box.center.join(', ')})，尺寸 ${task.box.size.join(' × ')} Å，${task.box.source === 'ligand' ? `来自参考配体 ${task.box.label}` : task.box.source === 'residues' ? `来自残基 ${task.box.label}` : '手动给出'}；搜索强度（Vina exhaustiveness）${task.exhaustiveness}，随机种子 ${task.seed}。`;
  if (task.state !== 'done' || !task.result) return `${head}\n${box}`;
  const r = task.result;
  const rows = r.poses.map((p) => `| ${p.mode} | ${p.score.toFixed(2)} | ${fmt(p.rmsd_to_best)} | ${fmt(p.rmsd_to_reference)} | ${sanityText(p)} | ${keyInteractions(p.interactions)} |`);
  const top = r.poses[0]?.rmsd_to_reference ?? null;
  const verdict = !task.check_of
    ? []
    : [top === null ? '设置检验：未能计算与晶体构象的 RMSD。' : `设置检验（任务 ${task.check_of} 的盒子与参数）：最优构象与晶体构象 RMSD ${top.toFixed(2)} Å，${top < 2 ? '< 2 Å，能重现共晶结合模式' : '≥ 2 Å，未能重现共晶结合模式'}。`];
  return [
    head,
    box,
    `配体 ${task.smiles}：${r.heavy_atoms} 个重原子，${r.rotatable_bonds} 个可旋转键；Vina 用时 ${r.vina_seconds} 秒。`,
    ...(r.receptor_prep
      ? [`受体准备（PDBFixer）：链 ${r.receptor_prep.chains.join('、')}，补全重原子 ${r.receptor_prep.heavy_atoms_added} 个，补全缺失残基 ${r.receptor_prep.residues_added} 个，舍弃备选位置原子 ${r.receptor_prep.altlocs_dropped} 个，保留晶体水 ${r.receptor_prep.waters_kept} 个。`]
      : []),
    ...verdict,
    '| 构象 | Vina 打分 (kcal/mol) | 与最优构象 RMSD (Å) | 与参考配体 RMSD (Å) | 构象检查 | 相互作用（PLIP） |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    ...(r.reference_note ? [r.reference_note] : []),
    VINA_SCORE_NOTE,
  ].join('\n');
}

/** A batch for the model: its progress and, as molecules finish, the ranked table. */
export function describeBatch(batch: DockingBatch): string {
  const c = batch.counts;
  const total = batch.entries.length;
  const head = `批次 ${batch.id}（${batch.title}）：${STATE[batch.state]}，${total} 个分子中已完成 ${c.done} 个${c.failed ? `、失败 ${c.failed} 个` : ''}${c.cancelled ? `、取消 ${c.cancelled} 个` : ''}${c.running ? `、运行中 ${c.running} 个` : ''}${c.queued ? `、排队 ${c.queued} 个` : ''}。`;
  const settings = `盒子：中心 (${batch.box.center.join(', ')})，尺寸 ${batch.box.size.join(' × ')} Å；搜索强度（Vina exhaustiveness）${batch.exhaustiveness}，随机种子 ${batch.seed}。`;
  const ranked = batch.entries.filter((e) => e.rank !== null);
  const open = batch.entries.filter((e) => e.rank === null && e.state !== 'queued' && e.state !== 'running');
  return [
    head,
    settings,
    ...(ranked.length
      ? [
          '| 排名 | 分子 | Vina 打分 (kcal/mol) | 配体效率 (kcal/mol/重原子) | 构象检查 | 关键相互作用（PLIP） |',
          '| --- | --- | --- | --- | --- | --- |',
          ...ranked.map((e) => `| ${e.rank} | ${e.name || e.smiles} | ${e.score!.toFixed(2)} | ${fmt(e.ligand_efficiency)} | ${e.sanity_passed === null ? '—' : e.sanity_passed ? '通过' : '未通过'} | ${keyInteractions(e.interactions ?? undefined)} |`),
        ]
      : []),
    ...open.map((e) => `- 第 ${e.index} 个分子 ${e.name || e.smiles}：${STATE[e.state]}${e.state === 'failed' ? `（${e.message}）` : ''}`),
  ].join('\n');
}

/** `docking_submit`: queues a Vina docking job (or a batch of up to 50: `ligands`, molecule ids from a search, or the search itself) and returns its id at once, so the answer need not wait for the docking. */
export const dockingSubmitTool = defineTool('docking_submit', (services): Tool<DockingToolInput, DockingSubmitOutput> => ({
  input: dockingToolInput,
  output: dockingSubmitOutput,
  description:
    '提交分子对接任务（AutoDock Vina）：把一个 SMILES 分子（smiles）或一批最多 50 个分子（ligands；或分子检索结果的 molecule_ids；或一次分子检索 search 找到的全部分子）对接到知识库中某个 PDB 结构的口袋里。盒子取自结构中的参考配体（默认第一个配体）、指定残基，或给出中心与尺寸。任务在后台运行，立即返回任务（或批次）id；用 task_query 查看进度与结果，批次给出按打分排序的表格。',
  availability: () => availability(services.tasks),
  timeoutMs: 120_000,
  async run(input, ctx) {
    if (!services.tasks) throw new ToolInputError('本服务器未启动后台任务服务');
    const { smiles, ligands, molecule_ids, search, ligand_name, ...settings } = input;
    const batch = ligands ?? molecule_ids ?? search;
    if (batch && smiles) throw new ToolInputError('smiles 与 ligands（或 molecule_ids、search）只能给出其中一个：对接一个分子用 smiles，对接一批分子用 ligands、分子检索结果的 molecule_ids 或一次分子检索 search');
    if (batch) return { batch: await services.tasks.submitBatch(ctx.viewer, { ...settings, ligands, molecule_ids, search }, ctx.docIds).catch(asToolError) };
    if (!smiles) throw new ToolInputError('请提供要对接分子的 SMILES（smiles），或一批分子（ligands、molecule_ids 或 search）');
    const task = await services.tasks.submit(ctx.viewer, { ...settings, smiles, ligand_name }, ctx.docIds).catch(asToolError);
    return { task };
  },
  // Said as of the submission, in the user's words rather than a tool name; the task card shows the live state.
  summarize: ({ task, batch }) =>
    batch
      ? `已提交批量对接 ${batch.id}（${batch.title}，${batch.entries.length} 个分子），任务在后台依次运行，回答中的批次卡片实时显示按打分排序的表格。\n${describeBatch(batch)}\n${VINA_SCORE_NOTE}`
      : task
        ? `已提交对接任务 ${task.id}（${task.title}），任务在后台运行，进度和结果在回答中的任务卡片上实时更新。\n${describeTask(task)}\n${VINA_SCORE_NOTE}`
        : '',
}));

/** `task_query`: the caller's tasks, or one of them with its result. */
export const taskQueryTool = defineTool('task_query', (services): Tool<TaskQueryInput, TaskQueryOutput> => ({
  input: taskQueryInput,
  output: taskQueryOutput,
  description: '查询你提交的后台任务（分子对接）：不带 task_id 时列出最近的任务及状态；带 task_id 时给出该任务的进度或结果（各构象的 Vina 打分与 RMSD）；带 batch_id 时给出该批次按打分排序的表格。',
  availability: () => (services.tasks ? { enabled: true } : { enabled: false, reason: '本服务器未启动后台任务服务。' }),
  async run(input, ctx) {
    const tasks = services.tasks;
    if (!tasks) throw new ToolInputError('本服务器未启动后台任务服务');
    if (input.batch_id) return { tasks: [], batch: await tasks.getBatch(ctx.viewer, input.batch_id).catch(asToolError) };
    if (input.task_id) return { tasks: [await tasks.get(ctx.viewer, input.task_id).catch(asToolError)] };
    return { tasks: await tasks.list(ctx.viewer, 20) };
  },
  summarize: ({ tasks, batch }) => {
    if (batch) return `${describeBatch(batch)}\n${VINA_SCORE_NOTE}`;
    if (tasks.length === 0) return '你还没有提交过后台任务。';
    if (tasks.length === 1) return describeTask(tasks[0]!);
    return ['你最近的任务：', ...tasks.map((t) => `- ${t.id}：对接 ${t.title}，${STATE[t.state]}${t.state === 'running' ? ` ${Math.round(t.progress * 100)}%` : ''}${t.state === 'done' && t.result?.poses[0] ? `，最优 Vina 打分 ${t.result.poses[0].score.toFixed(2)} kcal/mol` : ''}`), VINA_SCORE_NOTE].join('\n');
  },
}));
