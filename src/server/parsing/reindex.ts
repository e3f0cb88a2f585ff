import { sql } from 'kysely';
import { engineOf, jsonNumber, jsonText } from '../db/dialect';
import type { Executor } from '../db/database';
import { jobQueue, type Job } from '../jobs/queue';
import { INDEX_VERSION } from './index-version';

/**
 * Re-indexing (DESIGN §5): a parsed document whose passages were made by an older chunking
 * version (INDEX_VERSION) or under another title (its file-name words are indexed; a move or copy
 * may rename it) is parsed again from its stored file in the background and its passages are
 * swapped for the new ones in one transaction (index-store.ts replacePassages). The old
 * passages stay searchable until then, and stay for good when every attempt fails.
 *
 * One durable job per document (the same queue and parse processes as parse jobs, parse-job.ts):
 * a restart resumes it, failures are retried MAX_ATTEMPTS times with back-off, and a document whose
 * re-index failed for good at this version and title is not queued again at the next start (only
 * after the failed job is pruned, a week later).
 */
export const REINDEX_JOB = 'reindex_document';
/** The payload key is not `docId`, so the parse pipeline's crash recovery never takes this job for a parse. */
export interface ReindexJobPayload {
  reindexDocId: string;
  /** What the document was to be brought to when queued (a failed job at the same pair is not retried). */
  version: number;
  title: string;
}
export const REINDEX_MAX_ATTEMPTS = 3;

export function reindexPayloadOf(job: Job): ReindexJobPayload | undefined {
  try {
    const value: unknown = JSON.parse(job.payload);
    if (value && typeof value === 'object' && 'reindexDocId' in value && typeof value.reindexDocId === 'string') {
      const version = 'version' in value && typeof value.version === 'number' ? value.version : INDEX_VERSION;
      const title = 'title' in value && typeof value.title === 'string' ? value.title : '';
      return { reindexDocId: value.reindexDocId, version, title };
    }
  } catch {
    // fall through: a malformed payload fails the job
  }
  return undefined;
}

/** Whether a document row's passages are out of date: an older version or another title. */
export const isStale = (doc: { parse_status: number; index_version: number; indexed_title: string | null; title: string }) =>
  doc.parse_status === 2 && (doc.index_version < INDEX_VERSION || doc.indexed_title !== doc.title);

/**
 * Queues a re-index of the document unless one is already waiting (a waiting job reads the
 * document's title when it runs; a running one may have read the old title, so it does not count).
 * Call inside the transaction that renames the document, so the rename and its job go together.
 */
export async function queueReindex(ex: Executor, docId: string, title: string) {
  return jobQueue(ex).enqueueOnce(REINDEX_JOB, 'reindexDocId', docId, { reindexDocId: docId, version: INDEX_VERSION, title } satisfies ReindexJobPayload, { maxAttempts: REINDEX_MAX_ATTEMPTS });
}

/**
 * Queues every parsed document with out-of-date passages that has no waiting or running
 * re-index and whose re-index did not already fail for good at this version and title. Returns how many.
 */
export async function queueStaleDocuments(ex: Executor): Promise<number> {
  const engine = engineOf(ex);
  const rows = await sql<{ id: string; title: string }>`
    select d.id, d.title from kb_documents d
    where d.parse_status = 2 and (d.index_version < ${INDEX_VERSION} or d.indexed_title is null or d.indexed_title != d.title)
      and not exists (
        select 1 from jobs j where j.kind = ${REINDEX_JOB} and ${jsonText(engine, 'j.payload', 'reindexDocId')} = d.id
          and (j.state in ('queued', 'running')
            or (j.state = 'failed' and ${jsonNumber(engine, 'j.payload', 'version')} = ${INDEX_VERSION} and ${jsonText(engine, 'j.payload', 'title')} = d.title)))
    order by d.created_at`.execute(ex);
  for (const doc of rows.rows) await jobQueue(ex).enqueue(REINDEX_JOB, { reindexDocId: doc.id, version: INDEX_VERSION, title: doc.title } satisfies ReindexJobPayload, { maxAttempts: REINDEX_MAX_ATTEMPTS });
  return rows.rows.length;
}
