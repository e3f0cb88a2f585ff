import { dockingBatch, dockingTask } from '../contract/docking';
import type { ApiClient } from './api';

/**
 * The docking-batch calls (issue 30 §6) bound to one API client: follow a batch, cancel it as a
 * whole, download its ranked table (CSV) or best poses (SDF), open one molecule's task. Quiet: the
 * card shows the outcome itself.
 * @example await createTasksApi(api).batch('b1')
 */
export function createTasksApi(client: ApiClient) {
  const batchPath = (id: string) => `/tasks/batches/${encodeURIComponent(id)}`;
  return {
    /** GET tasks/batches/:id: progress per molecule and the ranked table. */
    batch: (id: string, signal?: AbortSignal) => client.get(batchPath(id), dockingBatch, { signal, quiet: true }),
    /** POST tasks/batches/:id/cancel: every queued or running molecule of the batch is cancelled. */
    cancelBatch: (id: string) => client.post(`${batchPath(id)}/cancel`, {}, dockingBatch, { quiet: true }),
    /** GET tasks/batches/:id/download: the table as CSV or the best poses as SDF. */
    downloadBatch: (id: string, format: 'csv' | 'sdf') => client.download(`${batchPath(id)}/download?format=${format}`, { quiet: true }),
    /** GET tasks/:id: one molecule's task in full (its poses and interactions). */
    task: (id: string) => client.get(`/tasks/${encodeURIComponent(id)}`, dockingTask, { quiet: true }),
  };
}
export type TasksApi = ReturnType<typeof createTasksApi>;
