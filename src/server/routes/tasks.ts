import fs from 'node:fs';
import { z } from 'zod';
import { batchDownloadQuery, dockingBatch, dockingBatchInput, dockingSubmitInput, dockingTask, setupCheckInput, taskDownloadQuery, taskIdParams } from '../../contract/docking';
import { errorResponses, failure, ok as okSchema } from '../../contract/envelope';
import { forbidden } from '../errors';
import { contentDisposition } from '../knowledge/names';
import { ok, type App, type Services } from './types';

const tags = ['tasks'];

/** The caller's background tasks: submit a docking job, list, get, cancel, download. Only the owner sees a task. */
export default async function taskRoutes(app: App, { runtime, config }: Services) {
  const { tasks } = runtime;
  const user = async (req: { requireUser(): Promise<{ userId: string }> }) => ({ userId: (await req.requireUser()).userId });

  app.get('/', {
    schema: { tags, summary: "The caller's tasks, newest first (at most 50)", response: { 200: okSchema(z.array(dockingTask)), ...errorResponses } },
  }, async (req) => ok(await tasks.list(await user(req))));

  app.post('/docking', {
    schema: {
      tags,
      summary: 'Queue a docking job (AutoDock Vina); returns the task at once',
      body: dockingSubmitInput,
      response: { 200: okSchema(dockingTask), ...errorResponses, 503: failure },
    },
  }, async (req) => {
    const viewer = await user(req);
    // SPEC §6: the alternate tool list omits docking; its HTTP door is closed too.
    if (config.CSAI_TOOLS_RESTRICTED) throw forbidden('本服务器使用受限工具列表（CSAI_TOOLS_RESTRICTED=1），对接任务不可用', 'docking_restricted');
    return ok(await tasks.submit(viewer, req.body));
  });

  app.post('/docking/batch', {
    schema: {
      tags,
      summary: 'Queue a batch: up to 50 molecules (a list, or an SDF or SMILES file as text) docked into one receptor and box; returns the batch at once',
      body: dockingBatchInput,
      response: { 200: okSchema(dockingBatch), ...errorResponses, 503: failure },
    },
    bodyLimit: 6 * 1024 * 1024,
  }, async (req) => {
    const viewer = await user(req);
    if (config.CSAI_TOOLS_RESTRICTED) throw forbidden('本服务器使用受限工具列表（CSAI_TOOLS_RESTRICTED=1），对接任务不可用', 'docking_restricted');
    return ok(await tasks.submitBatch(viewer, req.body));
  });

  app.get('/batches', {
    schema: { tags, summary: "The caller's docking batches, newest first (at most 50), each with its ranked table", response: { 200: okSchema(z.array(dockingBatch)), ...errorResponses } },
  }, async (req) => ok(await tasks.listBatches(await user(req))));

  app.get('/batches/:id', {
    schema: { tags, summary: "One of the caller's batches: progress per molecule and the table ranked by Vina score (ligand efficiency, key interactions, pose sanity)", params: taskIdParams, response: { 200: okSchema(dockingBatch), ...errorResponses } },
  }, async (req) => ok(await tasks.getBatch(await user(req), req.params.id)));

  app.post('/batches/:id/cancel', {
    schema: { tags, summary: "Cancel every queued or running task of a batch (their processes are killed)", params: taskIdParams, response: { 200: okSchema(dockingBatch), ...errorResponses } },
  }, async (req) => ok(await tasks.cancelBatch(await user(req), req.params.id)));

  app.delete('/batches/:id', {
    schema: { tags, summary: "Delete one of the caller's ended batches with its tasks and their files", params: taskIdParams, response: { 200: okSchema(z.object({ deleted: z.number().int() })), ...errorResponses } },
  }, async (req) => ok(await tasks.removeBatch(await user(req), req.params.id), '已删除'));

  app.get('/batches/:id/download', {
    schema: { tags, summary: "A batch's ranked table as CSV, or the best pose of each docked molecule as SDF (scores, ligand efficiency and interactions as properties)", params: taskIdParams, querystring: batchDownloadQuery },
  }, async (req, reply) => {
    const file = await tasks.batchFile(await user(req), req.params.id, req.query.format);
    reply
      .header('Content-Type', file.mime)
      .header('Content-Disposition', contentDisposition(file.name))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-cache');
    return reply.send(file.text);
  });

  app.post('/:id/check', {
    schema: {
      tags,
      summary: "Check a docking task's set-up: queue a redocking of the structure's own co-crystal ligand with the same box and settings (its result has the RMSD to the crystal pose)",
      params: taskIdParams,
      body: setupCheckInput,
      response: { 200: okSchema(dockingTask), ...errorResponses, 503: failure },
    },
  }, async (req) => {
    const viewer = await user(req);
    if (config.CSAI_TOOLS_RESTRICTED) throw forbidden('本服务器使用受限工具列表（CSAI_TOOLS_RESTRICTED=1），对接任务不可用', 'docking_restricted');
    return ok(await tasks.checkSetup(viewer, req.params.id, req.body?.reference_ligand));
  });

  app.get('/:id', {
    schema: { tags, summary: 'One of the caller\'s tasks with its progress or result', params: taskIdParams, response: { 200: okSchema(dockingTask), ...errorResponses } },
  }, async (req) => ok(await tasks.get(await user(req), req.params.id)));

  app.post('/:id/cancel', {
    schema: { tags, summary: 'Cancel a queued or running task (its processes are killed)', params: taskIdParams, response: { 200: okSchema(dockingTask), ...errorResponses } },
  }, async (req) => ok(await tasks.cancel(await user(req), req.params.id)));

  app.delete('/:id', {
    schema: { tags, summary: "Delete one of the caller's ended tasks with its files (ended tasks are also removed after CSAI_DOCKING_TASK_TTL_DAYS)", params: taskIdParams, response: { 200: okSchema(z.object({ deleted: z.number().int() })), ...errorResponses } },
  }, async (req) => ok(await tasks.remove(await user(req), req.params.id), '已删除'));

  app.get('/:id/download', {
    schema: { tags, summary: 'The poses as SDF or PDBQT, the prepared receptor as PDB, or one pose in the receptor (complex, PDB with the pose as residue LIG Z 1)', params: taskIdParams, querystring: taskDownloadQuery },
  }, async (req, reply) => {
    const file = await tasks.file(await user(req), req.params.id, req.query.format, req.query.pose);
    const size = (await fs.promises.stat(file.path)).size;
    reply
      .header('Content-Type', file.mime)
      .header('Content-Length', String(size))
      .header('Content-Disposition', contentDisposition(file.name))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-cache');
    return reply.send(fs.createReadStream(file.path));
  });
}
