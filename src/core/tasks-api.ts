import { dockingBatch, dockingTask, type DockingBatchInput } from '../contract/docking';
import type { ApiClient } from './api';

/**
 * The docking calls of the task cards and the batch form bound to one API client: submit a batch, follow a task, cancel it, check its
 * set-up (redock), download its poses; and for a batch follow it, cancel it as a whole,
 * download its ranked table (CSV) or best poses (SDF). Quiet: the card shows the outcome itself.
 * @example await createTasksApi(api).batch('b1')
 */
export function createTasksApi(client: ApiClient) {
  const taskPath = (id: string) => `/tasks/${encodeURIComponent(id)}`;
  const batchPath = (id: string) => `/tasks/batches/${encodeURIComponent(id)}`;
  return {
    /** POST tasks/docking/batch: queue a batch (a list, an SDF or SMILES file, or a molecule search's molecules) into one receptor. */
    submitBatch: (input: DockingBatchInput) => client.post('/tasks/docking/batch', input, dockingBatch, { quiet: true }),
    /** GET tasks/batches/:id: progress per molecule and the ranked table. */
    batch: (id: string, signal?: AbortSignal) => client.get(batchPath(id), dockingBatch, { signal, quiet: true }),
    /** POST tasks/batches/:id/cancel: every queued or running molecule of the batch is cancelled. */
    cancelBatch: (id: string) => client.post(`${batchPath(id)}/cancel`, {}, dockingBatch, { quiet: true }),
    /** GET tasks/batches/:id/download: the table as CSV or the best poses as SDF. */
    downloadBatch: (id: string, format: 'csv' | 'sdf') => client.download(`${batchPath(id)}/download?format=${format}`, { quiet: true }),
    /** GET tasks/:id: one task in full (its poses and interactions). */
    task: (id: string, signal?: AbortSignal) => client.get(taskPath(id), dockingTask, { signal, quiet: true }),
    /** POST tasks/:id/cancel. */
    cancel: (id: string) => client.post(`${taskPath(id)}/cancel`, {}, dockingTask, { quiet: true }),
    /** POST tasks/:id/check: the set-up check (redocking the reference ligand). */
    check: (id: string) => client.post(`${taskPath(id)}/check`, {}, dockingTask, { quiet: true }),
    /** GET tasks/:id/download: the poses as SDF or PDBQT. */
    download: (id: string, format: 'sdf' | 'pdbqt') => client.download(`${taskPath(id)}/download?format=${format}`, { quiet: true }),
  };
}
export type TasksApi = ReturnType<typeof createTasksApi>;
