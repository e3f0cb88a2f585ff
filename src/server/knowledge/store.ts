// The steps the knowledge parts (folders, documents, uploads, sharing) share.
import { sql } from 'kysely';
import type { Db, Executor } from '../db/database';
import { now } from '../db/database';
import { randomToken } from '../auth/crypto';
import { jobQueue } from '../jobs/queue';
import { PARSE_JOB, type ParseJobPayload } from '../parsing/parse-job';
import { isStale, queueReindex } from '../parsing/reindex';
import { QUESTION_FOLDER_ID } from '../../contract/knowledge';
import { canAccess, type Viewer } from '../access/access';
import { type DocRow } from './documents';
import type { FileStore } from '../files/file-store';
import { nextFreeName } from './names';
import { serialiser } from './serial';
import { copyMolecules } from '../molecules/indexing';
import { copyActivities } from '../parsing/chemistry/activity-store';
import { copyPendingStructures } from '../parsing/structure-job';

export interface ListArgs {
  page: number;
  size: number;
  search?: string | undefined;
}

export interface KnowledgeServiceOptions {
  /** Wakes the parse job runners: called once documents were added or copied (their parse jobs queued). */
  wake?: () => void;
}

/**
 * What the knowledge parts share: one serialiser under which files and rows change together (so a
 * file is never removed while a new row is about to refer to it), the wake-up of the parse runners,
 * and the steps several parts take (names taken in a folder, files no document refers to, shares
 * of deleted things, the target folder of a write, copying a document).
 */
export function knowledgeStore(db: Db, files: FileStore, { wake = () => undefined }: KnowledgeServiceOptions = {}) {
  const serial = serialiser();
  /** The result of an operation that queued parse jobs, once the parse runners were woken for them. */
  const thenWake = async <T>(queued: Promise<T>): Promise<T> => {
    const result = await queued;
    wake();
    return result;
  };

  const titlesIn = async (ex: Executor, ownerId: string, folderId: string | null) => {
    const rows = await ex
      .selectFrom('kb_documents')
      .select('title')
      .where('owner_id', '=', ownerId)
      .where('folder_id', folderId === null ? 'is' : '=', folderId)
      .execute();
    return new Set(rows.map((r) => r.title));
  };

  /** Removes stored files that no document refers to any more. Call inside `serial`. */
  const dropUnreferenced = async (storageNames: Iterable<string>) => {
    for (const name of new Set(storageNames)) {
      const ref = await db.selectFrom('kb_documents').select('id').where('storage_name', '=', name).limit(1).executeTakeFirst();
      if (!ref) await files.remove(name);
    }
  };

  const deleteSharesOf = (ex: Executor, type: 'folder' | 'doc', ids: string[]) =>
    ids.length ? ex.deleteFrom('kb_shares').where('resource_type', '=', type).where('resource_id', 'in', ids).execute() : Promise.resolve();

  /** The target folder of an upload, move or copy: the question-files folder or one the viewer owns. */
  const writableFolder = async (viewer: Viewer, folderId: string): Promise<string | null> => {
    if (folderId === QUESTION_FOLDER_ID) return null;
    await canAccess(db, viewer, { type: 'folder', id: folderId }, 'write');
    return folderId;
  };

  /** Copies one document row (and its parsed content) into a folder of the viewer. */
  const copyDocument = async (ex: Executor, source: DocRow, viewer: Viewer, folderId: string | null, taken: Set<string>) => {
    const id = randomToken(12);
    const t = now();
    const title = nextFreeName(source.title, (n) => taken.has(n));
    taken.add(title);
    await ex
      .insertInto('kb_documents')
      .values({ ...source, id, owner_id: viewer.userId, folder_id: folderId, title, created_at: t, updated_at: t })
      .execute();
    if (source.parse_status === 1) {
      await ex.updateTable('kb_documents').set({ parse_progress: 0, progress_texts: '[]' }).where('id', '=', id).execute();
      await jobQueue(ex).enqueue(PARSE_JOB, { docId: id } satisfies ParseJobPayload);
    } else {
      await sql`insert into kb_chunks (doc_id, ordinal, page, bbox, text, segmented)
        select ${id}, ordinal, page, bbox, text, segmented from kb_chunks where doc_id = ${source.id} order by ordinal`.execute(ex);
      await sql`insert into kb_molecules (doc_id, idx, name, smiles, molfile, properties)
        select ${id}, idx, name, smiles, molfile, properties from kb_molecules where doc_id = ${source.id} order by idx`.execute(ex);
      await copyMolecules(ex, source.id, id);
      await copyActivities(ex, source.id, id);
      // The source's drawings still being read: the copy reads its own (parsing/structure-job.ts).
      await copyPendingStructures(ex, source.id, id, viewer.userId);
      // A copy renamed to a free name (or of an out-of-date source) gets passages of its own title.
      if (isStale({ ...source, title })) await queueReindex(ex, id, title);
    }
    return { name: title, docId: id };
  };

  return { files, serial, thenWake, titlesIn, dropUnreferenced, deleteSharesOf, writableFolder, copyDocument };
}

/** The shared steps of the knowledge parts. */
export type KnowledgeStore = ReturnType<typeof knowledgeStore>;
