import type { FastifyBaseLogger } from 'fastify';
import { engineOf, jsonText } from '../db/dialect';
import type { Db, Executor } from '../db/database';
import { now } from '../db/database';
import { jobQueue, type Job } from '../jobs/queue';
import type { FileStore } from '../files/file-store';
import type { Block } from './pdf-layout';
import type { ParseResult, StructureInput } from './protocol';
import { writeStructures } from './chemistry/store';
import { queueMoleculeIndex } from '../molecules/indexing';
import { PoolClosedError, type WorkerPool } from './worker-pool';

/**
 * The structure step as its own durable job after the parse: the document is parsed
 * and searchable by its text as soon as the text is stored, and the structures drawn on its pages
 * are read afterwards in the same parse processes as a background task (worker-pool.ts: any parse
 * takes its process at the next page). A restart puts the job back in the queue (jobs/queue.ts
 * recover); a document deleted meanwhile ends the task and writes nothing; a re-index keeps the
 * structures (they come from the file's drawings, not its passages).
 *
 * Its progress is the last line of the document's progress texts, replaced as it goes ("等待识别结构式",
 * "正在识别结构式（第 3/12 页）"), and ends with what was found and a final line: STRUCTURES_DONE,
 * or STRUCTURES_FAILED / STRUCTURES_INTERRUPTED.
 */
export const STRUCTURE_JOB = 'read_structures';
/** The payload's key is not `docId`, so the parse pipeline's crash recovery never takes this job for a parse. */
export interface StructureJobPayload {
  structuresDocId: string;
  /** Whose document (the queue's fair claim reads `owner` from jobs without a docId). */
  owner: string;
  kind: 'pdf' | 'image';
  /** The text blocks of the document's pages that hold a compound label (chemistry/labels.ts), kept from the parse. */
  labelBlocks: Block[];
  /**
   * Where the OCR'd text of pages without a text layer (and of an image) is: its lines' boxes
   * (StructureInput.textBoxes). Absent in a job queued before they were kept: such a page is read whole.
   */
  textBoxes?: StructureInput['textBoxes'];
}
export const STRUCTURE_MAX_ATTEMPTS = 3;
/** A structure task's running time at most (paused time does not count): the reading stops itself at 3 min (chemistry/document.ts DOCUMENT_MS). */
export const STRUCTURE_TASK_MS = 10 * 60_000;

/** Progress texts (Chinese; English in i18n/en.ts). */
export const STRUCTURES_WAITING = '等待识别结构式';
export const structuresPage = (page: number, pages: number) => `正在识别结构式（第 ${page}/${pages} 页）`;
export const STRUCTURES_IMAGE = '正在识别图中的结构式';
export const STRUCTURES_DONE = '结构式识别完成';
export const STRUCTURES_INTERRUPTED = '结构式识别多次中断，已停止';
const failed = (reason: string) => `结构式识别失败：${reason}`;
const retrying = (reason: string) => `结构式识别出错，稍后重试：${reason}`;
/** Lines that say where the step is: each replaces the one before. */
const TRANSIENT = [STRUCTURES_WAITING, '正在识别结构式', '正在识别图中的结构式', '结构式识别出错，稍后重试'];
const isTransient = (text: string) => TRANSIENT.some((t) => text.startsWith(t));

export function structurePayloadOf(job: Job): StructureJobPayload | undefined {
  try {
    const value: unknown = JSON.parse(job.payload);
    if (value && typeof value === 'object' && 'structuresDocId' in value && typeof value.structuresDocId === 'string') {
      const v = value as Partial<StructureJobPayload>;
      return {
        structuresDocId: value.structuresDocId,
        owner: typeof v.owner === 'string' ? v.owner : '',
        kind: v.kind === 'image' ? 'image' : 'pdf',
        labelBlocks: Array.isArray(v.labelBlocks) ? v.labelBlocks : [],
        textBoxes: Array.isArray(v.textBoxes) ? v.textBoxes : [],
      };
    }
  } catch {
    // fall through: a malformed payload fails the job
  }
  return undefined;
}

/**
 * Queues the structure step of a document whose text was just stored (call inside that
 * transaction, so the two go together), unless one is already waiting.
 */
export async function queueStructures(ex: Executor, payload: StructureJobPayload): Promise<boolean> {
  return jobQueue(ex).enqueueOnce(STRUCTURE_JOB, 'structuresDocId', payload.structuresDocId, payload, { maxAttempts: STRUCTURE_MAX_ATTEMPTS });
}

/**
 * A document given another's passages and structures (a copy, or a twin of the same bytes) while the
 * other's structure step has not ended: it gets a step of its own, with the other's label blocks,
 * and its last progress line says it waits. Returns whether one was queued.
 */
export async function copyPendingStructures(ex: Executor, fromId: string, toId: string, owner: string): Promise<boolean> {
  const engine = engineOf(ex);
  const row = await ex
    .selectFrom('jobs')
    .select('payload')
    .where('kind', '=', STRUCTURE_JOB)
    .where('state', 'in', ['queued', 'running'])
    .where(jsonText(engine, 'payload', 'structuresDocId'), '=', fromId)
    .limit(1)
    .executeTakeFirst();
  const theirs = row && structurePayloadOf({ payload: row.payload } as Job);
  if (!theirs) return false;
  await queueStructures(ex, { ...theirs, structuresDocId: toId, owner });
  await setStructureTexts(ex, toId, [STRUCTURES_WAITING]);
  return true;
}

/** Replaces the step's last line (if it is one) with `lines`, in one transaction; a deleted document is left alone. */
export async function setStructureTexts(db: Executor, docId: string, lines: string[]): Promise<void> {
  const write = async (tx: Executor) => {
    const row = await tx.selectFrom('kb_documents').select('progress_texts').where('id', '=', docId).executeTakeFirst();
    if (!row) return;
    let texts: string[] = [];
    try {
      const v: unknown = JSON.parse(row.progress_texts);
      if (Array.isArray(v)) texts = v.filter((t): t is string => typeof t === 'string');
    } catch {
      // a broken list starts again
    }
    while (texts.length && isTransient(texts[texts.length - 1]!)) texts.pop();
    await tx.updateTable('kb_documents').set({ progress_texts: JSON.stringify([...texts, ...lines]), updated_at: now() }).where('id', '=', docId).execute();
  };
  await (db.isTransaction ? write(db) : db.transaction().execute(write));
}

/**
 * The job handler: reads the document's structures in the pool and stores them (replacing the
 * earlier reading, a reader's corrections kept: chemistry/store.ts), then `onStructures` (the
 * molecule database takes them in). Between pages it checks that the document is still there and
 * parsed; when it is not, the task ends and nothing is written.
 */
export function structureJob({ db, files, pool, log, onStructures }: { db: Db; files: FileStore; pool: WorkerPool; log: FastifyBaseLogger; onStructures?: (docId: string) => void }) {
  return async (job: Job, { isFinal }: { isFinal: boolean }) => {
    const payload = structurePayloadOf(job);
    if (!payload) throw new Error('bad structure job payload');
    const docId = payload.structuresDocId;
    const doc = await db.selectFrom('kb_documents').select(['id', 'storage_name', 'title', 'parse_status', 'owner_id', 'type']).where('id', '=', docId).executeTakeFirst();
    if (!doc || doc.parse_status !== 2) return; // deleted meanwhile, or parsing again (that parse queues its own step)
    // The OCR'd lines' boxes, not the passages': a passage's box spans the drawings beside its text.
    const input: StructureInput = { textBoxes: payload.textBoxes ?? [], labelBlocks: payload.labelBlocks };
    const stop = new AbortController();
    let gone = false;
    let lastCheck = 0;
    // Progress lines are written one after another, so an older one never lands after a newer one.
    let writes: Promise<void> = Promise.resolve();
    const still = async () => {
      const row = await db.selectFrom('kb_documents').select('parse_status').where('id', '=', docId).executeTakeFirst();
      if (!row || row.parse_status !== 2) {
        gone = true;
        stop.abort();
      }
    };
    const onProgress = (_percent: number, text?: string) => {
      const t = Date.now();
      if (!text && t - lastCheck < 2000) return;
      lastCheck = t;
      writes = writes
        .then(async () => {
          await still();
          if (!gone && text) await setStructureTexts(db, docId, [text]);
        })
        .catch((err: unknown) => log.warn({ err, docId }, 'structure progress update failed'));
    };
    try {
      await setStructureTexts(db, docId, [payload.kind === 'image' ? STRUCTURES_IMAGE : STRUCTURES_WAITING]);
      let result: ParseResult;
      try {
        result = await files.withLocalPath(doc.storage_name, (filePath) =>
          pool.run(payload.kind, filePath, doc.title, onProgress, doc.owner_id, { structures: input, timeoutMs: STRUCTURE_TASK_MS, signal: stop.signal }),
        );
      } finally {
        await writes;
      }
      const stored = await db.transaction().execute(async (tx) => {
        const now = await tx.selectFrom('kb_documents').select('parse_status').where('id', '=', docId).executeTakeFirst();
        if (!now || now.parse_status !== 2) return false;
        await writeStructures(tx, docId, result.structures ?? []);
        await setStructureTexts(tx, docId, [...result.notes, STRUCTURES_DONE]);
        // The molecule database takes them in (queued with them: a restart in between loses nothing).
        await queueMoleculeIndex(tx, docId);
        return true;
      });
      if (stored) onStructures?.(docId);
    } catch (err) {
      if (gone) return; // deleted or parsing again: nothing to say, nothing left behind
      if (err instanceof PoolClosedError || pool.closed) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      log.warn({ docId, err }, 'structure reading failed');
      await setStructureTexts(db, docId, [isFinal ? failed(reason) : retrying(reason)]);
      throw err;
    }
  };
}

/** At start-up, after the queue's recovery: the documents whose structure step failed for good because restarts kept interrupting it get their final line. */
export async function markInterrupted(db: Db, jobs: Job[]): Promise<void> {
  for (const job of jobs) {
    const docId = structurePayloadOf(job)?.structuresDocId;
    if (docId) await setStructureTexts(db, docId, [STRUCTURES_INTERRUPTED]);
  }
}
