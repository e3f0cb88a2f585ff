import { useState, type ComponentType } from 'react';
import type { BatchEntry, DockingBatch, DockingTask } from '../../../contract/docking';
import type { TasksApi } from '../../../core/tasks-api';
import { useHost, useT } from '../../shared/host-context';
import { saveBlob } from '../../shared/save-blob';
import { isOpen, useFollowedTask } from './use-followed-task';

/** A batch read again while it runs (stable: a dependency of the polling). */
const loadBatch = (api: TasksApi, id: string, signal: AbortSignal) => api.batch(id, signal);

/** A molecule's key interactions in a few words: polar and aromatic ones with residue and distance, then the hydrophobic residues. */
function KeyInteractions({ entry }: { entry: BatchEntry }) {
  const t = useT('docking');
  if (!entry.interactions) return <>—</>;
  const polar = entry.interactions.filter((i) => i.type !== 'hydrophobic').map((i) => t('interaction', { type: t(`type_${i.type}`), residue: i.residue, distance: i.distance.toFixed(1) }));
  const hydrophobic = [...new Set(entry.interactions.filter((i) => i.type === 'hydrophobic').map((i) => i.residue))];
  const parts = [...polar, ...(hydrophobic.length ? [t('batch_hydrophobic', { residues: hydrophobic.join('/') })] : [])];
  return <>{parts.length ? parts.join('；') : t('batch_none')}</>;
}

/**
 * A docking batch: progress per molecule while it runs (polled), the table ranked by
 * Vina score with ligand efficiency, key interactions and pose sanity, cancel all, CSV and SDF
 * downloads, and one molecule's poses in full on demand (shown by `TaskView`, the docking card's task view).
 */
export function BatchView({ initial, TaskView }: { initial: DockingBatch; TaskView: ComponentType<{ initial: DockingTask }> }) {
  const t = useT('docking');
  const { root } = useHost();
  const { api, item: batch, setItem: setBatch, busy, failure, act } = useFollowedTask<DockingBatch, 'cancel' | 'csv' | 'sdf' | 'task'>(initial, loadBatch);
  const [chosen, setChosen] = useState<DockingTask | null>(null);

  const cancel = () => act('cancel', 'cancel_failed', async () => setBatch(await api.cancelBatch(batch.id)));
  const download = (format: 'csv' | 'sdf') =>
    act(format, 'download_failed', async () => {
      const file = await api.downloadBatch(batch.id, format);
      saveBlob(root, file.blob, file.filename ?? `docking-batch-${batch.id}.${format}`);
    });
  const view = (entry: BatchEntry) =>
    chosen?.id === entry.task_id ? setChosen(null) : void act('task', 'batch_load_failed', async () => setChosen(await api.task(entry.task_id)));

  const c = batch.counts;
  const btn = 'rounded-csai border border-line px-2 py-1 text-xs hover:border-accent disabled:opacity-50';
  const cell = 'px-2 py-1';
  return (
    <section part="docking-batch" aria-label={t('batch_title', { title: batch.title })} className="flex flex-col gap-2 rounded-csai border border-line p-3 text-sm text-ink">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <strong>{t('batch_title', { title: batch.title })}</strong>
        <span part="docking-state" className="text-muted">
          {t(`state_${batch.state}`)}
        </span>
      </header>
      <p className="m-0 text-xs text-muted">
        {`${t('box', { center: batch.box.center.join(', '), size: batch.box.size.join(' × ') })} · ${t('batch_params', { receptor: batch.receptor, exhaustiveness: batch.exhaustiveness, seed: batch.seed })}`}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        {isOpen(batch.state) && <progress part="docking-progress" max={1} value={batch.progress} aria-label={t('progress')} className="flex-1 min-w-[8rem]" />}
        <span role="status" part="docking-batch-counts" className="text-xs text-muted">
          {t('batch_progress', { total: batch.entries.length, done: c.done, running: c.running, queued: c.queued, failed: c.failed, cancelled: c.cancelled })}
        </span>
        {isOpen(batch.state) && (
          <button type="button" part="docking-batch-cancel" className={btn} disabled={busy !== null} onClick={() => void cancel()}>
            {busy === 'cancel' ? t('cancelling') : t('batch_cancel')}
          </button>
        )}
      </div>
      {failure && (
        <p role="alert" className="m-0 text-xs text-danger">
          {failure}
        </p>
      )}
      {c.done > 0 && (
        <p part="docking-note" className="m-0 text-xs text-warning">
          {t('score_note')}
        </p>
      )}
      <div className="overflow-x-auto">
        <table part="docking-batch-table" className="text-xs border-collapse">
          <thead>
            <tr>
              {[t('batch_rank'), t('batch_molecule'), t('score'), t('batch_le'), t('batch_interactions'), t('sanity'), t('batch_state'), ''].map((h, i) => (
                <th key={i} scope="col" title={i === 3 ? t('batch_le_hint') : undefined} className={`${cell} text-left border-b border-line font-semibold`}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {batch.entries.map((e) => (
              <tr key={e.task_id} part="docking-batch-row" aria-selected={chosen?.id === e.task_id} className={chosen?.id === e.task_id ? 'bg-accent/10' : ''}>
                <td className={`${cell} tabular-nums`}>{e.rank ?? '—'}</td>
                <td className={`${cell} max-w-[14rem]`}>
                  <span className="block truncate" title={e.smiles}>
                    {e.name || <code className="font-mono">{e.smiles}</code>}
                  </span>
                </td>
                <td className={`${cell} tabular-nums`}>{e.score === null ? '—' : e.score.toFixed(2)}</td>
                <td className={`${cell} tabular-nums`}>{e.ligand_efficiency === null ? '—' : e.ligand_efficiency.toFixed(2)}</td>
                <td className={cell}>
                  <KeyInteractions entry={e} />
                </td>
                <td className={`${cell} ${e.sanity_passed === false ? 'text-danger' : ''}`}>{e.sanity_passed === null ? '—' : t(e.sanity_passed ? 'sanity_ok' : 'sanity_bad')}</td>
                <td className={`${cell} ${e.state === 'failed' ? 'text-danger' : 'text-muted'}`} title={e.state === 'failed' ? e.message : undefined}>
                  {e.state === 'running' ? `${t('state_running')} ${Math.round(e.progress * 100)}%` : t(`state_${e.state}`)}
                  {e.state === 'failed' && <span part="docking-batch-message">{`${t('colon')}${e.message}`}</span>}
                </td>
                <td className={cell}>
                  {e.state === 'done' && (
                    <button type="button" className="underline" aria-pressed={chosen?.id === e.task_id} aria-label={t('batch_open', { index: e.index })} disabled={busy === 'task'} onClick={() => view(e)}>
                      {chosen?.id === e.task_id ? t('batch_hide') : t('batch_view')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <span className="flex flex-wrap gap-2">
        {(['csv', 'sdf'] as const).map((f) => (
          <button key={f} type="button" part={`docking-batch-download-${f}`} className={btn} disabled={busy !== null || (f === 'sdf' && c.done === 0)} onClick={() => void download(f)}>
            {busy === f ? t('downloading') : t(`batch_download_${f}`)}
          </button>
        ))}
      </span>
      {chosen && <TaskView key={chosen.id} initial={chosen} />}
    </section>
  );
}
