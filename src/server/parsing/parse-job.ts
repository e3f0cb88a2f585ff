import os from 'node:os';
import { engineOf, jsonAppend, jsonText } from '../db/dialect';
import { parseFailureText } from './failure';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { now } from '../db/database';
import type { DocumentType } from '../db/schema';
import { jobQueue, type Job } from '../jobs/queue';
import { jobRunner } from '../jobs/runner';
import type { FileStore } from '../files/file-store';
import { copyPassages, replacePassages, replacePassagesFromTwin, storeParseResult } from './index-store';
import { INDEX_VERSION } from './index-version';
import type { ParseKind } from './protocol';
import { isStale, queueReindex, queueStaleDocuments, REINDEX_JOB, reindexPayloadOf } from './reindex';
import { PoolClosedError, workerPool } from './worker-pool';
import { copyPendingStructures, markInterrupted, queueStructures, STRUCTURE_JOB, structureJob, STRUCTURES_WAITING } from './structure-job';

/** The job that parses one uploaded document (queued by knowledge/service.ts). */
export const PARSE_JOB = 'parse_document';
export interface ParseJobPayload {
  docId: string;
}

const kindOf: Record<DocumentType, ParseKind> = { 1: 'pdf', 3: 'image', 5: 'sdf', 6: 'pdb', 7: 'markdown' };
/** A parse taking longer than this is abandoned (the worker is replaced) and retried. */
const TASK_TIMEOUT_MS = 30 * 60_000;

/**
 * The document parse pipeline: clean up after a crash, then run parse jobs from the durable
 * queue in parse processes (worker-pool.ts), writing parseStatus / parse_progress / progress_texts as they go.
 */
export async function startParsing({
  db,
  files,
  log,
  concurrency,
  onParsed,
  onStructures,
  structures = true,
}: {
  db: Db;
  files: FileStore;
  log: FastifyBaseLogger;
  concurrency?: number;
  /** Read structure drawings after the text, as their own job (structure-job.ts); CSAI_STRUCTURE_RECOGNITION. */
  structures?: boolean;
  /** Called after a document's structures are stored (e.g. to index them as molecules); must not throw. */
  onStructures?: (docId: string) => void;
  /** Called after a document's passages are stored (e.g. to queue their embeddings); must not throw. */
  onParsed?: (docId: string) => void;
}) {
  const queue = jobQueue(db);
  const engine = engineOf(db);
  // One parse per core, at most two (two documents at once on two cores). A parse is
  // CPU-bound in its own process; the event loop stays responsive beside it (bench/knowledge.bench.ts
  // pings the server while a 500-page PDF parses).
  const size = concurrency ?? Math.max(1, Math.min(2, os.availableParallelism()));
  const pool = workerPool(size, { taskTimeoutMs: TASK_TIMEOUT_MS, spare: true });

  const appendText = async (docId: string, text: string, fields: { parse_status?: 1 | 2 | 3; parse_progress?: number } = {}) => {
    await db
      .updateTable('kb_documents')
      .set({ ...fields, progress_texts: jsonAppend(engine, sql`progress_texts`, text), updated_at: now() })
      .where('id', '=', docId)
      .execute();
  };

  // ---- crash recovery (before anything new runs) ----
  // Temp files of interrupted uploads, and stored files whose row never got written.
  const swept = await files.sweep(async (name) => !!(await db.selectFrom('kb_documents').select('id').where('storage_name', '=', name).limit(1).executeTakeFirst()));
  if (swept) log.info({ swept }, 'removed files left by interrupted uploads');
  const given = await queue.recover();
  for (const job of given) {
    const docId = payloadOf(job)?.docId;
    if (docId) await appendText(docId, '解析多次中断，已停止', { parse_status: 3 });
  }
  await markInterrupted(db, given.filter((job) => job.kind === STRUCTURE_JOB));
  // A document still parsing with no live job (e.g. its job row was lost) gets a new one.
  const orphans = await db
    .selectFrom('kb_documents')
    .select('id')
    .where('parse_status', '=', 1)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('jobs').select('id').where('kind', '=', PARSE_JOB).where('state', 'in', ['queued', 'running']).where(jsonText(engine, 'payload', 'docId'), '=', sql.ref('kb_documents.id')))),
    )
    .execute();
  for (const doc of orphans) await queue.enqueue(PARSE_JOB, { docId: doc.id } satisfies ParseJobPayload);
  // Finished jobs are history only; keep a week of it.
  await queue.prune(7 * 24 * 3600_000);
  // Documents parsed by an older chunking version (or renamed since) are re-indexed in the background.
  const stale = await queueStaleDocuments(db);
  if (stale) log.info({ documents: stale, version: INDEX_VERSION }, 'documents queued for re-indexing');

  /**
   * Another document with the same bytes under the same title, indexed by this version: its
   * passages are this one's (the title's words are in the passages, and SDF text names the file).
   */
  const currentTwin = (doc: { id: string; sha256: string; title: string }) =>
    db
      .selectFrom('kb_documents')
      .select('id')
      .where('sha256', '=', doc.sha256)
      .where('parse_status', '=', 2)
      .where('index_version', '=', INDEX_VERSION)
      .where('indexed_title', '=', doc.title)
      .where('id', '!=', doc.id)
      .limit(1)
      .executeTakeFirst();

  const parse = async (job: Job, { isFinal }: { isFinal: boolean }) => {
    const docId = payloadOf(job)?.docId;
    if (!docId) throw new Error('bad parse job payload');
    const doc = await db.selectFrom('kb_documents').selectAll().where('id', '=', docId).executeTakeFirst();
    if (!doc || doc.parse_status !== 1) return; // deleted meanwhile, or done by an earlier attempt
    try {
      await appendText(docId, job.attempts > 1 ? `第${job.attempts}次尝试解析` : '开始解析', { parse_progress: 1 });
      // The same bytes under the same title were parsed before by this version: reuse that result
      // instead of parsing again.
      const twin = await currentTwin(doc);
      if (twin) {
        await db.transaction().execute(async (tx) => {
          await copyPassages(tx, docId, twin.id);
          await sql`update kb_documents set markdown = t.markdown, page_count = t.page_count, parse_status = 2, parse_progress = 100,
            index_version = t.index_version, indexed_title = t.indexed_title,
            progress_texts = ${jsonAppend(engine, jsonAppend(engine, sql`kb_documents.progress_texts`, '与已解析的相同文件一致，直接使用其结果'), '解析完成')}, updated_at = ${now()}
            from (select markdown, page_count, index_version, indexed_title from kb_documents where id = ${twin.id}) as t where kb_documents.id = ${docId}`.execute(tx);
          // The twin's structures are still being read: this document reads its own (with the twin's label blocks).
          if (structures) await copyPendingStructures(tx, twin.id, docId, doc.owner_id);
        });
        onParsed?.(docId);
        return;
      }
      let lastWrite = 0;
      let lastPercent = 1;
      // Progress writes run one after another, so parse_progress never goes backwards.
      let writes: Promise<void> = Promise.resolve();
      // Workers read a path: with S3 storage this is a temp download, removed after the parse.
      const result = await files.withLocalPath(doc.storage_name, (filePath) => pool.run(kindOf[doc.type], filePath, doc.title, (percent, text) => {
        const t = Date.now();
        const p = Math.max(lastPercent, Math.min(99, Math.round(percent)));
        if (!text && (p === lastPercent || t - lastWrite < 250)) return;
        lastWrite = t;
        lastPercent = p;
        writes = writes
          .then(async () => {
            if (text) await appendText(docId, text, { parse_progress: p });
            else await db.updateTable('kb_documents').set({ parse_progress: p }).where('id', '=', docId).execute();
          })
          .catch((err: unknown) => log.warn({ err, docId }, 'progress update failed'));
      }, doc.owner_id));
      await writes;
      // The drawings' structures are read afterwards, as their own job (structure-job.ts): the text is searchable now.
      const kind = kindOf[doc.type];
      const drawings = structures && (kind === 'pdf' || kind === 'image');
      await storeParseResult(db, docId, result, { version: INDEX_VERSION, title: doc.title }, drawings ? {
        texts: [STRUCTURES_WAITING],
        inTransaction: async (tx) => void (await queueStructures(tx, { structuresDocId: docId, owner: doc.owner_id, kind, labelBlocks: result.labelBlocks ?? [], textBoxes: result.textBoxes ?? [] })),
      } : undefined);
      onParsed?.(docId);
      await queueIfRenamed(docId);
    } catch (err) {
      if (err instanceof PoolClosedError || pool.closed) throw err;
      const reason = parseFailureText(err);
      log.warn({ docId, err }, 'parse failed');
      if (isFinal) await appendText(docId, `解析失败：${reason}`, { parse_status: 3 });
      else await appendText(docId, `解析出错，稍后重试：${reason}`);
      throw err;
    }
  };

  /** A document renamed while it was being parsed: its passages carry the old title's words. */
  const queueIfRenamed = async (docId: string) => {
    const doc = await db.selectFrom('kb_documents').select(['parse_status', 'index_version', 'indexed_title', 'title']).where('id', '=', docId).executeTakeFirst();
    if (doc && isStale(doc)) await queueReindex(db, docId, doc.title);
  };

  /**
   * A re-index (reindex.ts): the stored file parsed again in the same parse processes, and the
   * passages swapped in one transaction. Until then, and for good when every attempt fails, the
   * document keeps its old passages and stays parsed; its status and progress texts are not touched.
   */
  const reindex = async (job: Job, { isFinal }: { isFinal: boolean }) => {
    const docId = reindexPayloadOf(job)?.reindexDocId;
    if (!docId) throw new Error('bad re-index job payload');
    const doc = await db.selectFrom('kb_documents').selectAll().where('id', '=', docId).executeTakeFirst();
    if (!doc || !isStale(doc)) return; // deleted, not parsed (a parse will index it), or already current
    try {
      // A copy of the same file under the same name already re-indexed: take its passages.
      const twin = await currentTwin(doc);
      if (twin) {
        if (!(await replacePassagesFromTwin(db, docId, twin.id))) return;
      } else {
        const result = await files.withLocalPath(doc.storage_name, (filePath) => pool.run(kindOf[doc.type], filePath, doc.title, () => {}, doc.owner_id));
        if (!(await replacePassages(db, docId, result, { version: INDEX_VERSION, title: doc.title }))) return;
      }
      log.info({ docId, version: INDEX_VERSION, fromTwin: !!twin }, 'document re-indexed');
      onParsed?.(docId); // the new passages need their vectors
      await queueIfRenamed(docId);
    } catch (err) {
      if (err instanceof PoolClosedError || pool.closed) throw err;
      if (isFinal) log.warn({ docId, err }, 're-index failed for good; the document keeps its old passages');
      throw err;
    }
  };

  // Beyond one parse per process, the first document of an owner with none parsing is taken too:
  // the pool pauses a running parse at its next page to make room (worker-pool.ts), so one
  // user's long documents cannot hold every process while another's small one waits. Paused parses
  // keep their process (and its memory): at most `size` of them.
  const runner = jobRunner(db, log, { [PARSE_JOB]: parse }, { concurrency: size, pollMs: 500, newOwnerExtra: size });
  // Structure steps: one at a time, and one more for another owner; in the pool every
  // parse goes before them (worker-pool.ts), taking their process at the next page.
  const structureRunner = structures ? jobRunner(db, log, { [STRUCTURE_JOB]: structureJob({ db, files, pool, log, ...(onStructures ? { onStructures } : {}) }) }, { concurrency: 1, pollMs: 1000, newOwnerExtra: 1 }) : undefined;
  // One re-index at a time, so new uploads keep at least one share of the parse processes.
  const reindexer = jobRunner(db, log, { [REINDEX_JOB]: reindex }, { concurrency: 1, pollMs: 1000 });
  runner.start();
  reindexer.start();
  structureRunner?.start();
  return {
    /** Call after enqueueing parse or re-index jobs so they start at once. */
    wake() {
      runner.wake();
      reindexer.wake();
      structureRunner?.wake();
    },
    async stop() {
      // First, so attempts cut short are not counted as failures.
      const stopping = Promise.all([runner.stop(), reindexer.stop(), structureRunner?.stop()]);
      await pool.close();
      await stopping;
    },
  };
}

function payloadOf(job: Job): ParseJobPayload | undefined {
  try {
    const value: unknown = JSON.parse(job.payload);
    if (value && typeof value === 'object' && 'docId' in value && typeof value.docId === 'string') return { docId: value.docId };
  } catch {
    // fall through: a malformed payload fails the job
  }
  return undefined;
}
