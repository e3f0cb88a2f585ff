import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TaskState } from '../../../contract/docking';
import { createTasksApi, type TasksApi } from '../../../core/tasks-api';
import { useApi, useT } from '../../shared/host-context';

/** How often a queued or running task (or batch) is asked for its progress. */
export const POLL_MS = 2000;
export const isOpen = (state: TaskState) => state === 'queued' || state === 'running';

/**
 * What the docking card and the batch view share: a task (or batch) followed by polling while it is
 * queued or running, and one action at a time on it (busy while it runs, its failure said with the
 * message key given). `load` reads the item again through the core tasks API; keep it stable (a
 * module-level function), as it is a dependency of the polling.
 * @example const f = useFollowedTask(initial, (api, id, signal) => api.task(id, signal));
 */
export function useFollowedTask<T extends { id: string; state: TaskState }, Action extends string>(initial: T, load: (api: TasksApi, id: string, signal: AbortSignal) => Promise<T>) {
  const t = useT('docking');
  const client = useApi();
  const api = useMemo(() => createTasksApi(client), [client]);
  const [item, setItem] = useState(initial);
  const [busy, setBusy] = useState<Action | null>(null);
  const [failure, setFailure] = useState('');

  useEffect(() => {
    if (!isOpen(item.state)) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      load(api, item.id, abort.signal).then(
        (next) => setItem(next),
        (err: unknown) => {
          if (!abort.signal.aborted) setFailure(t('refresh_failed', { message: err instanceof Error ? err.message : String(err) }));
        },
      );
    }, POLL_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [api, item, load, t]);

  /** Runs one action of the card: busy as `kind` while it runs; a failure is said with the message key `failed`. */
  const act = useCallback(
    async (kind: Action, failed: string, work: () => Promise<void>) => {
      setBusy(kind);
      setFailure('');
      try {
        await work();
      } catch (err) {
        setFailure(t(failed, { message: err instanceof Error ? err.message : String(err) }));
      } finally {
        setBusy(null);
      }
    },
    [t],
  );

  return { api, item, setItem, busy, failure, act };
}
