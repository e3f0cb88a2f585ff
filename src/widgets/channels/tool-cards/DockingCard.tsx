import { createElement, useState } from 'react';
import { dockingSubmitOutput, INTERACTION_TYPES, taskQueryOutput, type DockingPose, type DockingTask } from '../../../contract/docking';
import type { TasksApi } from '../../../core/tasks-api';
import { useHost, useT } from '../../shared/host-context';
import { saveBlob } from '../../shared/save-blob';
import { addStrings } from '../../shared/i18n';
import type { ToolCardProps } from './index';
import { dockingStrings } from './docking.strings';
import { BatchView } from './DockingBatchView';
import { isOpen, useFollowedTask } from './use-followed-task';

addStrings('docking', dockingStrings);
// Defined here too (a card shown without the loader); 3Dmol itself loads only when a view is shown.
void import('../../molecule/define-elements');

const active = (t: DockingTask) => isOpen(t.state);
/** A task read again while it runs (stable: a dependency of the polling). */
const loadTask = (api: TasksApi, id: string, signal: AbortSignal) => api.task(id, signal);
const fmt = (n: number | null) => (n === null ? '—' : n.toFixed(2));
const order = (type: string) => INTERACTION_TYPES.indexOf(type as (typeof INTERACTION_TYPES)[number]);

/** The interactions of one pose (PLIP), strongest kinds first. */
function PoseInteractions({ pose }: { pose: DockingPose }) {
  const t = useT('docking');
  const list = [...(pose.interactions ?? [])].sort((a, b) => order(a.type) - order(b.type) || a.distance - b.distance);
  const failed = pose.sanity ? Object.entries(pose.sanity.checks).filter(([, ok]) => !ok).map(([check]) => t(`check_${check}`)) : [];
  return (
    <div part="docking-interactions" className="flex flex-col gap-1 text-xs">
      {pose.sanity && (
        <p part="docking-sanity" className={`m-0 ${pose.sanity.passed ? 'text-muted' : 'text-danger'}`}>
          {pose.sanity.passed ? t('sanity_passed', { mode: pose.mode }) : t('sanity_failed', { mode: pose.mode, checks: failed.join('、') })}
        </p>
      )}
      <strong>{t('interactions', { mode: pose.mode, count: list.length })}</strong>
      {list.length === 0 ? (
        <p className="m-0 text-muted">{t(pose.interactions ? 'no_interactions' : 'interactions_unknown')}</p>
      ) : (
        <ul className="m-0 pl-4">
          {list.map((i, k) => (
            <li key={k}>{t('interaction', { type: t(`type_${i.type}`), residue: i.residue, distance: i.distance.toFixed(2) })}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** One docking task: progress while it runs (polled), then the poses with their scores and a 3D view of receptor + selected pose. */
export function TaskView({ initial }: { initial: DockingTask }) {
  const t = useT('docking');
  const { root } = useHost();
  const { api, item: task, setItem: setTask, busy, failure, act } = useFollowedTask<DockingTask, 'cancel' | 'sdf' | 'pdbqt' | 'check'>(initial, loadTask);
  const [pose, setPose] = useState(1);
  /** The set-up check started from this card (a redocking of the co-crystal ligand). */
  const [check, setCheck] = useState<DockingTask | null>(null);

  const cancel = () => act('cancel', 'cancel_failed', async () => setTask(await api.cancel(task.id)));
  const checkSetup = () => act('check', 'check_failed', async () => setCheck(await api.check(task.id)));
  const download = (format: 'sdf' | 'pdbqt') =>
    act(format, 'download_failed', async () => {
      const file = await api.download(task.id, format);
      saveBlob(root, file.blob, file.filename ?? `docking-${task.id}.${format}`);
    });

  const box = task.box;
  const boxSource = box.source === 'ligand' ? t('box_ligand', { label: box.label }) : box.source === 'residues' ? t('box_residues', { label: box.label }) : t('box_explicit');
  const btn = 'rounded-csai border border-line px-2 py-1 text-xs hover:border-accent disabled:opacity-50';
  const result = task.state === 'done' ? task.result : null;
  return (
    <section part="docking-card" aria-label={t('title', { title: task.title })} className="flex flex-col gap-2 rounded-csai border border-line p-3 text-sm text-ink">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <strong>{t('title', { title: task.title })}</strong>
        <span part="docking-state" className={task.state === 'failed' ? 'text-danger' : 'text-muted'}>
          {t(`state_${task.state}`)}
        </span>
      </header>
      <p className="m-0 text-xs text-muted">
        <code className="font-mono break-all">{task.smiles}</code> → {task.receptor}
        <br />
        {`${t('box', { center: box.center.join(', '), size: box.size.join(' × ') })}${t('comma')}${boxSource}`}
        <br />
        <span title={t('params_hint')}>{`${t('params', { exhaustiveness: task.exhaustiveness, seed: task.seed, cpu: task.cpu })} · ${task.max_evals > 0 ? t('search_budget', { evals: task.max_evals.toLocaleString('en-US') }) : t('search_heuristic')}`}</span>
      </p>
      {active(task) && (
        <div className="flex flex-wrap items-center gap-2">
          <progress part="docking-progress" max={1} value={task.progress} aria-label={t('progress')} className="flex-1 min-w-[8rem]" />
          <span role="status" className="text-xs text-muted">
            {`${Math.round(task.progress * 100)}% · ${task.message}`}
          </span>
          <button type="button" part="docking-cancel" className={btn} disabled={busy !== null} onClick={() => void cancel()}>
            {busy === 'cancel' ? t('cancelling') : t('cancel')}
          </button>
        </div>
      )}
      {task.state === 'failed' && (
        <p role="alert" className="m-0 text-danger">
          {task.message}
        </p>
      )}
      {failure && (
        <p role="alert" className="m-0 text-xs text-danger">
          {failure}
        </p>
      )}
      {result && (
        <>
          {task.check_of && result.poses[0] && (
            <p part="docking-check" className={`m-0 ${result.poses[0].rmsd_to_reference !== null && result.poses[0].rmsd_to_reference < 2 ? 'text-ink' : 'text-danger'}`}>
              {result.poses[0].rmsd_to_reference === null
                ? t('check_no_rmsd')
                : t(result.poses[0].rmsd_to_reference < 2 ? 'check_passed' : 'check_missed', { rmsd: result.poses[0].rmsd_to_reference.toFixed(2) })}
            </p>
          )}
          <p part="docking-note" className="m-0 text-xs text-warning">
            {t('score_note')}
          </p>
          <p className="m-0 text-xs text-muted">{t('ligand', { heavy: result.heavy_atoms, rotatable: result.rotatable_bonds, seconds: result.vina_seconds })}</p>
          {result.receptor_prep && (
            <p part="docking-receptor-prep" className="m-0 text-xs text-muted">
              {t('receptor_prep', {
                chains: result.receptor_prep.chains.join('、'),
                atoms: result.receptor_prep.heavy_atoms_added,
                completed: result.receptor_prep.residues_completed.length ? `（${result.receptor_prep.residues_completed.join('、')}）` : '',
                residues: result.receptor_prep.residues_added,
                altlocs: result.receptor_prep.altlocs_dropped,
                waters: result.receptor_prep.waters_kept,
              })}
              {result.receptor_prep.nonstandard_replaced.length > 0 && t('receptor_nonstandard', { list: result.receptor_prep.nonstandard_replaced.join('、') })}
            </p>
          )}
          <div className="overflow-x-auto">
            <table part="docking-poses" className="text-xs border-collapse">
              <thead>
                <tr>
                  {[t('mode'), t('score'), t('rmsd_best'), t('rmsd_reference'), t('sanity')].map((h) => (
                    <th key={h} scope="col" className="px-2 py-1 text-left border-b border-line font-semibold">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {result.poses.map((p) => (
                  <tr key={p.mode} aria-selected={p.mode === pose} className={p.mode === pose ? 'bg-accent/10' : ''}>
                    <td className="px-2 py-1">
                      <button type="button" className="underline" aria-pressed={p.mode === pose} aria-label={t('select_pose', { mode: p.mode })} onClick={() => setPose(p.mode)}>
                        {p.mode}
                      </button>
                    </td>
                    <td className="px-2 py-1 tabular-nums">{p.score.toFixed(2)}</td>
                    <td className="px-2 py-1 tabular-nums">{fmt(p.rmsd_to_best)}</td>
                    <td className="px-2 py-1 tabular-nums">{fmt(p.rmsd_to_reference)}</td>
                    <td className={`px-2 py-1 ${p.sanity && !p.sanity.passed ? 'text-danger' : ''}`}>{p.sanity ? t(p.sanity.passed ? 'sanity_ok' : 'sanity_bad') : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {result.reference_note && <p className="m-0 text-xs text-muted">{result.reference_note}</p>}
          {result.poses.find((p) => p.mode === pose) && <PoseInteractions pose={result.poses.find((p) => p.mode === pose)!} />}
          <div className="h-80">{createElement('csai-molecule-3d', { 'task-id': task.id, pose: String(pose), representation: 'cartoon', className: 'csai-fill block h-full' })}</div>
          <span className="flex gap-2">
            {(['sdf', 'pdbqt'] as const).map((f) => (
              <button key={f} type="button" part={`docking-download-${f}`} className={btn} disabled={busy !== null} onClick={() => void download(f)}>
                {busy === f ? t('downloading') : t(`download_${f}`)}
              </button>
            ))}
            {!task.check_of && !check && (
              <button type="button" part="docking-check-setup" className={btn} disabled={busy !== null} title={t('check_hint')} onClick={() => void checkSetup()}>
                {busy === 'check' ? t('checking') : t('check_setup')}
              </button>
            )}
          </span>
          {check && <TaskView key={check.id} initial={check} />}
        </>
      )}
    </section>
  );
}

const Fallback = ({ content }: Pick<ToolCardProps, 'content'>) => (
  <p part="tool-error" role="alert" className="rounded-csai border border-danger px-3 py-2 text-sm text-danger">
    {content}
  </p>
);

/** docking_submit: the new task (or batch), followed until it ends. */
export function DockingCard({ ok, content, data }: ToolCardProps) {
  const parsed = ok ? dockingSubmitOutput.safeParse(data) : undefined;
  if (!parsed?.success) return <Fallback content={content} />;
  if (parsed.data.batch) return <BatchView initial={parsed.data.batch} TaskView={TaskView} />;
  if (!parsed.data.task) return <Fallback content={content} />;
  return <TaskView initial={parsed.data.task} />;
}

/** task_query: one task in full, or the list with a view of the chosen one. */
export function TaskCard({ ok, content, data }: ToolCardProps) {
  const t = useT('docking');
  const parsed = ok ? taskQueryOutput.safeParse(data) : undefined;
  const [open, setOpen] = useState<string | null>(null);
  if (!parsed?.success) return <Fallback content={content} />;
  if (parsed.data.batch) return <BatchView initial={parsed.data.batch} TaskView={TaskView} />;
  const { tasks } = parsed.data;
  if (tasks.length === 1) return <TaskView initial={tasks[0]!} />;
  const chosen = tasks.find((x) => x.id === open);
  return (
    <section part="task-card" aria-label={t('tasks', { count: tasks.length })} className="flex flex-col gap-2 rounded-csai border border-line p-3 text-sm text-ink">
      <strong>{t('tasks', { count: tasks.length })}</strong>
      {tasks.length === 0 && <p className="m-0 text-muted">{t('no_tasks')}</p>}
      <ul className="m-0 p-0 list-none flex flex-col gap-1">
        {tasks.map((x) => (
          <li key={x.id} className="flex flex-wrap items-center gap-2">
            <span className="flex-1 min-w-0 truncate">{x.title}</span>
            <span className="text-xs text-muted">{x.state === 'running' ? `${t('state_running')} ${Math.round(x.progress * 100)}%` : t(`state_${x.state}`)}</span>
            <button type="button" className="rounded-csai border border-line px-2 py-0.5 text-xs hover:border-accent" aria-pressed={open === x.id} onClick={() => setOpen(open === x.id ? null : x.id)}>
              {t('view')}
            </button>
          </li>
        ))}
      </ul>
      {chosen && <TaskView key={chosen.id} initial={chosen} />}
    </section>
  );
}
