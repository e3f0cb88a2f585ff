import { sql } from 'kysely';
import { isAnyUniqueViolation } from '../db/dialect';
import type { Db, Executor } from '../db/database';
import { now } from '../db/database';
import { randomToken } from '../auth/crypto';
import { DomainError } from '../errors';
import { jobQueue } from '../jobs/queue';
import { PARSE_JOB, type ParseJobPayload } from '../parsing/parse-job';
import { isStale, queueReindex } from '../parsing/reindex';
import { QUESTION_FOLDER_ID, uploadMessages } from '../../contract/knowledge';
import { canAccess, docReadable, folderReadable, sharedWith, type Viewer } from '../access/access';
import {
  docView,
  folderColumn,
  folderView,
  pageOf,
  questionFolderView,
  selectDocs,
  selectFolders,
  titleLike,
  type DocRow,
} from './documents';
import type { FileStore, StagedFile } from '../files/file-store';
import { nextFreeName } from './names';
import { documentTypeOf, isImage, mimeOf, type FileKind } from './sniff';
import { serialiser } from './serial';
import { copyMolecules } from '../molecules/indexing';
import { copyActivities } from '../parsing/chemistry/activity-store';
import { copyPendingStructures } from '../parsing/structure-job';

/** A file received in full and checked, waiting to become a document. */
export interface IncomingFile {
  title: string;
  kind: FileKind;
  staged: StagedFile;
  /** A page or paper saved from the web: where it came from and when (ISO); it is renamed _1, _2 on a clash instead of refused. */
  source?: { url: string; fetchedAt: string };
}

const SORTS = {
  createTime: ['kb_folders.created_at', 'asc'],
  '-createTime': ['kb_folders.created_at', 'desc'],
  updateTime: ['kb_folders.updated_at', 'asc'],
  '-updateTime': ['kb_folders.updated_at', 'desc'],
  name: ['kb_folders.name', 'asc'],
  '-name': ['kb_folders.name', 'desc'],
} as const;
type FolderSort = keyof typeof SORTS;

interface ListArgs {
  page: number;
  size: number;
  search?: string | undefined;
}

export interface KnowledgeServiceOptions {
  /** Wakes the parse job runners: called once documents were added or copied (their parse jobs queued). */
  wake?: () => void;
}

/**
 * Knowledge bases: folders, documents, shares. Knows nothing of HTTP; every id-taking operation
 * goes through canAccess. Files and rows change together under one serialiser so that a file is
 * never removed while a new row is about to refer to it.
 */
export function knowledgeService(db: Db, files: FileStore, { wake = () => undefined }: KnowledgeServiceOptions = {}) {
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

  return {
    /** Refuses an upload target the viewer may not write to, before any bytes are read. */
    checkUploadTarget: (viewer: Viewer, folderId: string) => writableFolder(viewer, folderId),

    // ---------- folders ----------
    async listFolders(viewer: Viewer, args: ListArgs & { sort?: FolderSort | undefined }) {
      let q = selectFolders(db).where('kb_folders.owner_id', '=', viewer.userId);
      if (args.search) q = q.where(titleLike('kb_folders.name', args.search));
      return this.pageFolders(viewer, q, args);
    },

    async listSharedFolders(viewer: Viewer, args: ListArgs & { sort?: FolderSort | undefined }) {
      let q = selectFolders(db)
        .where('kb_folders.owner_id', '!=', viewer.userId)
        .where(sharedWith('folder', 'kb_folders.id', viewer.userId));
      if (args.search) q = q.where(titleLike('kb_folders.name', args.search));
      return this.pageFolders(viewer, q, args);
    },

    async listPublicFolders(viewer: Viewer, args: ListArgs & { sort?: FolderSort | undefined }) {
      let q = selectFolders(db).where('kb_folders.is_public', '=', 1);
      if (args.search) q = q.where(titleLike('kb_folders.name', args.search));
      return this.pageFolders(viewer, q, args);
    },

    async pageFolders(viewer: Viewer, q: ReturnType<typeof selectFolders>, args: ListArgs & { sort?: FolderSort | undefined }) {
      const [column, direction] = SORTS[args.sort ?? '-createTime'];
      const total = await db.selectFrom(q.as('x')).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .orderBy(column, direction)
        .orderBy('kb_folders.id')
        .limit(args.size)
        .offset((args.page - 1) * args.size)
        .execute();
      return pageOf(rows.map((r) => folderView(r, viewer.userId)), total.n, args.page, args.size);
    },

    async createFolder(viewer: Viewer, name: string) {
      const t = now();
      const id = randomToken(12);
      try {
        await db.insertInto('kb_folders').values({ id, owner_id: viewer.userId, name, is_public: 0, created_at: t, updated_at: t }).execute();
      } catch (err) {
        if (isAnyUniqueViolation(err)) throw new DomainError('folder_name_taken', '知识库名称已存在');
        throw err;
      }
      return this.getFolder(viewer, id);
    },

    async getFolder(viewer: Viewer, folderId: string) {
      if (folderId === QUESTION_FOLDER_ID) return questionFolderView(db, viewer.userId);
      await canAccess(db, viewer, { type: 'folder', id: folderId }, 'read');
      const row = await selectFolders(db).where('kb_folders.id', '=', folderId).executeTakeFirstOrThrow();
      return folderView(row, viewer.userId);
    },

    /** A folder of the viewer's own by exact name (GET get_folder/xxx?folder_name=). */
    async getFolderByName(viewer: Viewer, name: string) {
      const row = await selectFolders(db).where('kb_folders.owner_id', '=', viewer.userId).where('kb_folders.name', '=', name).executeTakeFirst();
      if (!row) throw new DomainError('not_found', '知识库不存在');
      return folderView(row, viewer.userId);
    },

    async updateFolder(viewer: Viewer, folderId: string, change: { name?: string | undefined; is_public?: boolean | undefined }) {
      if (folderId === QUESTION_FOLDER_ID) throw new DomainError('invalid_input', '内置的问答文件夹不能修改', 'folder_id');
      await canAccess(db, viewer, { type: 'folder', id: folderId }, 'write');
      try {
        await db
          .updateTable('kb_folders')
          .set({
            ...(change.name !== undefined ? { name: change.name } : {}),
            ...(change.is_public !== undefined ? { is_public: change.is_public ? 1 : 0 } : {}),
            updated_at: now(),
          })
          .where('id', '=', folderId)
          .execute();
      } catch (err) {
        if (isAnyUniqueViolation(err)) throw new DomainError('folder_name_taken', '知识库名称已存在');
        throw err;
      }
      return this.getFolder(viewer, folderId);
    },

    /** Deletes a folder with its documents, their shares and files no one else uses. */
    async deleteFolder(viewer: Viewer, folderId: string) {
      if (folderId === QUESTION_FOLDER_ID) throw new DomainError('invalid_input', '内置的问答文件夹不能删除', 'folder_id');
      await canAccess(db, viewer, { type: 'folder', id: folderId }, 'write');
      return serial(async () => {
        const docs = await db.selectFrom('kb_documents').select(['id', 'storage_name']).where('folder_id', '=', folderId).execute();
        await db.transaction().execute(async (tx) => {
          await deleteSharesOf(tx, 'doc', docs.map((d) => d.id));
          await deleteSharesOf(tx, 'folder', [folderId]);
          await tx.deleteFrom('kb_documents').where('folder_id', '=', folderId).execute();
          await tx.deleteFrom('kb_folders').where('id', '=', folderId).execute();
        });
        await dropUnreferenced(docs.map((d) => d.storage_name));
        return { deleted: docs.length };
      });
    },

    /** SPEC §4 submit flow: are the chosen knowledge bases parsed? */
    async checkFolders(viewer: Viewer, folderIds: string[]) {
      const folders = [];
      for (const folderId of [...new Set(folderIds)]) {
        const folder = await this.getFolder(viewer, folderId);
        const counts = await db
          .selectFrom('kb_documents')
          .select(['parse_status', sql<number>`count(*)`.as('n')])
          .where('folder_id', folderId === QUESTION_FOLDER_ID ? 'is' : '=', folderColumn(folderId))
          .$if(folderId === QUESTION_FOLDER_ID, (q) => q.where('owner_id', '=', viewer.userId))
          .groupBy('parse_status')
          .execute();
        const by = (s: number) => counts.find((c) => c.parse_status === s)?.n ?? 0;
        const state = { folder_id: folder.id, name: folder.name, parsing: by(1), parsed: by(2), failed: by(3), total: by(1) + by(2) + by(3) };
        folders.push({ ...state, all_parsed: state.parsing === 0 });
      }
      return { all_parsed: folders.every((f) => f.all_parsed), folders };
    },

    // ---------- documents ----------
    async listFolderDocs(viewer: Viewer, folderId: string, args: ListArgs) {
      let q = selectDocs(db);
      if (folderId === QUESTION_FOLDER_ID) {
        q = q.where('kb_documents.owner_id', '=', viewer.userId).where('kb_documents.folder_id', 'is', null);
      } else {
        await canAccess(db, viewer, { type: 'folder', id: folderId }, 'read');
        q = q.where('kb_documents.folder_id', '=', folderId);
      }
      return this.pageDocs(viewer, q, args);
    },

    /** Documents the viewer uploaded with questions, plus (show_my_kb) those in their own knowledge bases. */
    async allDocs(viewer: Viewer, args: ListArgs & { show_my_kb: boolean }) {
      let q = selectDocs(db).where('kb_documents.owner_id', '=', viewer.userId);
      if (!args.show_my_kb) q = q.where('kb_documents.folder_id', 'is', null);
      return this.pageDocs(viewer, q, args);
    },

    /** Documents shared with the viewer one by one (not through a folder). */
    async sharedDocs(viewer: Viewer, args: ListArgs) {
      const q = selectDocs(db)
        .where('kb_documents.owner_id', '!=', viewer.userId)
        .where(sharedWith('doc', 'kb_documents.id', viewer.userId));
      return this.pageDocs(viewer, q, args);
    },

    async pageDocs(viewer: Viewer, q: ReturnType<typeof selectDocs>, args: ListArgs) {
      if (args.search) q = q.where(titleLike('kb_documents.title', args.search));
      const total = await db.selectFrom(q.as('x')).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .orderBy('kb_documents.created_at', 'desc')
        .orderBy('kb_documents.id')
        .limit(args.size)
        .offset((args.page - 1) * args.size)
        .execute();
      return pageOf(rows.map((r) => docView(r, viewer.userId, viewer.lang)), total.n, args.page, args.size);
    },

    async getDoc(viewer: Viewer, docId: string) {
      await canAccess(db, viewer, { type: 'doc', id: docId }, 'read');
      const row = await selectDocs(db).where('kb_documents.id', '=', docId).executeTakeFirstOrThrow();
      return docView(row, viewer.userId, viewer.lang);
    },

    /** The document row after a read check, with its bytes as a stream. */
    async openDoc(viewer: Viewer, docId: string) {
      const doc = await canAccess(db, viewer, { type: 'doc', id: docId }, 'read');
      return { doc, body: await files.read(doc.storage_name) };
    },

    async markdown(viewer: Viewer, docId: string) {
      const doc = await canAccess(db, viewer, { type: 'doc', id: docId }, 'read');
      if (doc.parse_status === 1) throw new DomainError('still_parsing', '文档正在解析中，请稍后再试');
      if (doc.parse_status === 3) throw new DomainError('parse_failed', '文档解析失败，没有可显示的内容');
      return { docId, markdown: doc.markdown ?? '' };
    },

    async imageBase64(viewer: Viewer, docId: string) {
      const doc = await canAccess(db, viewer, { type: 'doc', id: docId }, 'read');
      if (doc.type !== 3) throw new DomainError('not_an_image', '该文档不是图片', 'id');
      const bytes = await files.readAll(doc.storage_name);
      return { docId, img_base64: bytes.toString('base64'), mime: doc.mime };
    },

    async deleteDoc(viewer: Viewer, docId: string) {
      const doc = await canAccess(db, viewer, { type: 'doc', id: docId }, 'write');
      return serial(async () => {
        await db.transaction().execute(async (tx) => {
          await deleteSharesOf(tx, 'doc', [docId]);
          await tx.deleteFrom('kb_documents').where('id', '=', docId).execute();
        });
        await dropUnreferenced([doc.storage_name]);
        return { deleted: 1 };
      });
    },

    /** Moves the viewer's documents into one of their folders (or the question-files folder). */
    async moveDocs(viewer: Viewer, docIds: string[], folderId: string) {
      const target = await writableFolder(viewer, folderId);
      const docs: DocRow[] = [];
      for (const id of [...new Set(docIds)]) docs.push(await canAccess(db, viewer, { type: 'doc', id }, 'write'));
      await db.transaction().execute(async (tx) => {
        const taken = await titlesIn(tx, viewer.userId, target);
        for (const doc of docs) {
          if (doc.folder_id === target) continue;
          const title = nextFreeName(doc.title, (n) => taken.has(n));
          taken.add(title);
          await tx.updateTable('kb_documents').set({ folder_id: target, title, updated_at: now() }).where('id', '=', doc.id).execute();
          // Renamed to a free name: its file-name words in the index must follow.
          if (isStale({ ...doc, title })) await queueReindex(tx, doc.id, title);
        }
      });
      return { moved: docs.length };
    },

    /** Copies a readable document into a folder of the viewer's (copy_doc, add_doc_to_kb). */
    async copyDoc(viewer: Viewer, docId: string, folderId: string) {
      const target = await writableFolder(viewer, folderId);
      const source = await canAccess(db, viewer, { type: 'doc', id: docId }, 'read');
      return thenWake(
        serial(() => db.transaction().execute(async (tx) => copyDocument(tx, source, viewer, target, await titlesIn(tx, viewer.userId, target)))),
      );
    },

    /**
     * es_copy_doc_to_question_channel: copies readable documents into the viewer's question files.
     * A document whose file is already among them (the same bytes: stored names are content
     * addresses) is not copied again, so choosing one document for questions twice gives one file.
     */
    async copyToQuestionFiles(viewer: Viewer, docIds: string[]) {
      const sources: DocRow[] = [];
      for (const id of [...new Set(docIds)]) sources.push(await canAccess(db, viewer, { type: 'doc', id }, 'read'));
      return thenWake(serial(() =>
        db.transaction().execute(async (tx) => {
          const taken = await titlesIn(tx, viewer.userId, null);
          const out = [];
          for (const source of sources) {
            const held =
              source.owner_id === viewer.userId && source.folder_id === null
                ? source
                : await tx
                    .selectFrom('kb_documents')
                    .select(['id', 'title'])
                    .where('owner_id', '=', viewer.userId)
                    .where('folder_id', 'is', null)
                    .where('storage_name', '=', source.storage_name)
                    .orderBy('created_at')
                    .executeTakeFirst();
            if (held) out.push({ name: held.title, docId: held.id });
            else out.push(await copyDocument(tx, source, viewer, null, taken));
          }
          return { name_id: out };
        }),
      ));
    },

    /**
     * Turns received files into documents in one transaction with their parse jobs, after the
     * SPEC §5 name rules. Staged files are committed or discarded, never left behind.
     */
    async addDocuments(viewer: Viewer, folderId: string, incoming: IncomingFile[]) {
      try {
        const target = await writableFolder(viewer, folderId);
        return await thenWake(serial(async () => {
          const taken = await titlesIn(db, viewer.userId, target);
          const batch = new Set<string>();
          const named = incoming.map((file) => {
            // SPEC §5: images are renamed _1, _2 instead of rejected; so are pages saved from the web.
            if (isImage(file.kind) || file.source) {
              const title = nextFreeName(file.title, (n) => taken.has(n) || batch.has(n));
              batch.add(title);
              return { ...file, title };
            }
            // Question files pile up over time: there only the batch itself must be free of repeats.
            if (batch.has(file.title) || (target !== null && taken.has(file.title))) throw new DomainError('duplicate_name', uploadMessages.duplicateName);
            batch.add(file.title);
            return file;
          });
          for (const file of named) await files.commit(file.staged);
          const t = now();
          const insert = db.transaction().execute(async (tx) => {
            const out = [];
            // A file uploaded into a question box again (same name, same bytes) is the
            // document already there, not a second copy parsed again; one that failed to parse is
            // uploaded anew. (The bytes are stored once anyway: stored names are content addresses.)
            const sameFile = (sha256: string, title: string) => `${sha256}/${title}`;
            const held = new Map<string, string>();
            if (target === null) {
              const rows = await tx
                .selectFrom('kb_documents')
                .select(['id', 'title', 'sha256'])
                .where('owner_id', '=', viewer.userId)
                .where('folder_id', 'is', null)
                .where('sha256', 'in', named.map((f) => f.staged.sha256))
                .where('parse_status', '!=', 3)
                .orderBy('created_at')
                .execute();
              for (const r of rows) if (!held.has(sameFile(r.sha256, r.title))) held.set(sameFile(r.sha256, r.title), r.id);
            }
            for (const file of named) {
              const same = held.get(sameFile(file.staged.sha256, file.title));
              if (same) {
                out.push({ name: file.title, docId: same });
                continue;
              }
              const id = randomToken(12);
              await tx
                .insertInto('kb_documents')
                .values({
                  id,
                  owner_id: viewer.userId,
                  folder_id: target,
                  title: file.title,
                  type: documentTypeOf(file.kind),
                  mime: mimeOf(file.kind),
                  size: file.staged.size,
                  sha256: file.staged.sha256,
                  storage_name: file.staged.sha256,
                  parse_status: 1,
                  parse_progress: 0,
                  progress_texts: JSON.stringify(['已上传，等待解析']),
                  page_count: null,
                  markdown: null,
                  created_at: t,
                  updated_at: t,
                  source_url: file.source?.url ?? null,
                  fetched_at: file.source?.fetchedAt ?? null,
                })
                .execute();
              await jobQueue(tx).enqueue(PARSE_JOB, { docId: id } satisfies ParseJobPayload);
              out.push({ name: file.title, docId: id });
            }
            if (target) await tx.updateTable('kb_folders').set({ updated_at: t }).where('id', '=', target).execute();
            return { name_id: out };
          });
          // Rows and files change together: if the rows could not be written, no file stays behind.
          return insert.catch(async (err: unknown) => {
            await dropUnreferenced(named.map((f) => f.staged.sha256));
            throw err;
          });
        }));
      } finally {
        // Committed files were renamed away already; this removes only what is still staged.
        await Promise.all(incoming.map((f) => files.discard(f.staged)));
      }
    },

    // ---------- sharing ----------
    async share(viewer: Viewer, resource: { type: 'folder' | 'doc'; id: string }, userIds: string[], departmentIds: string[]) {
      if (resource.type === 'folder' && resource.id === QUESTION_FOLDER_ID) throw new DomainError('invalid_input', '内置的问答文件夹不能分享', 'folder_id');
      if (resource.type === 'folder') await canAccess(db, viewer, { type: 'folder', id: resource.id }, 'write');
      else await canAccess(db, viewer, { type: 'doc', id: resource.id }, 'write');
      const users = [...new Set(userIds)].filter((u) => u !== viewer.userId);
      const departments = [...new Set(departmentIds)];
      if (users.length) {
        const found = await db.selectFrom('users').select('id').where('id', 'in', users).where('status', '=', 'active').execute();
        if (found.length !== users.length) throw new DomainError('invalid_input', '要分享的用户不存在', 'user_ids');
      }
      if (departments.length) {
        const found = await db.selectFrom('departments').select('id').where('id', 'in', departments).execute();
        if (found.length !== departments.length) throw new DomainError('invalid_input', '要分享的部门不存在', 'department_ids');
      }
      if (!users.length && !departments.length) throw new DomainError('invalid_input', '不能分享给自己', 'user_ids');
      const t = now();
      const targets = [
        ...users.map((id) => ({ target_type: 'user' as const, target_id: id })),
        ...departments.map((id) => ({ target_type: 'department' as const, target_id: id })),
      ];
      await db
        .insertInto('kb_shares')
        .values(targets.map((x) => ({ id: randomToken(12), resource_type: resource.type, resource_id: resource.id, ...x, shared_by: viewer.userId, created_at: t })))
        .onConflict((oc) => oc.doNothing())
        .execute();
      const records = (await this.shareRecords(viewer)).filter((r) => r.resource_type === resource.type && r.resource_id === resource.id);
      return { shared: targets.length, records };
    },

    async cancelShare(viewer: Viewer, shareId: string) {
      const share = await db.selectFrom('kb_shares').selectAll().where('id', '=', shareId).executeTakeFirst();
      if (!share) throw new DomainError('not_found', '分享记录不存在');
      // Only the owner of the shared thing may withdraw it; others must not learn it exists.
      const owner =
        share.resource_type === 'folder'
          ? await db.selectFrom('kb_folders').select('owner_id').where('id', '=', share.resource_id).executeTakeFirst()
          : await db.selectFrom('kb_documents').select('owner_id').where('id', '=', share.resource_id).executeTakeFirst();
      if (owner?.owner_id !== viewer.userId) throw new DomainError('not_found', '分享记录不存在');
      await db.deleteFrom('kb_shares').where('id', '=', shareId).execute();
      return { deleted: 1 };
    },

    /** Every share of the viewer's folders and documents, newest first. */
    async shareRecords(viewer: Viewer) {
      const rows = await db
        .selectFrom('kb_shares as s')
        .leftJoin('kb_folders as f', (j) => j.onRef('f.id', '=', 's.resource_id').on('s.resource_type', '=', 'folder'))
        .leftJoin('kb_documents as d', (j) => j.onRef('d.id', '=', 's.resource_id').on('s.resource_type', '=', 'doc'))
        .leftJoin('users as u', (j) => j.onRef('u.id', '=', 's.target_id').on('s.target_type', '=', 'user'))
        .leftJoin('departments as dep', (j) => j.onRef('dep.id', '=', 's.target_id').on('s.target_type', '=', 'department'))
        .select(['s.id', 's.resource_type', 's.resource_id', 's.target_type', 's.target_id', 's.created_at', 'f.name as folder_name', 'd.title as doc_title', 'u.name as user_name', 'dep.name as department_name'])
        .where((eb) => eb.or([eb('f.owner_id', '=', viewer.userId), eb('d.owner_id', '=', viewer.userId)]))
        .orderBy('s.created_at', 'desc')
        .orderBy('s.id')
        .execute();
      return rows.map((r) => ({
        share_id: r.id,
        resource_type: r.resource_type,
        resource_id: r.resource_id,
        resource_name: r.folder_name ?? r.doc_title ?? '',
        target_type: r.target_type,
        target_id: r.target_id,
        target_name: r.user_name ?? r.department_name ?? '',
        created_at: r.created_at,
      }));
    },

    /** Whether the viewer may read a document (for retrieval and answering). */
    async readableDocIds(viewer: Viewer, docIds: string[]) {
      if (!docIds.length) return [];
      const rows = await db.selectFrom('kb_documents').select('id').where('id', 'in', docIds).where(docReadable(viewer.userId)).execute();
      return rows.map((r) => r.id);
    },

    /** Whether the viewer may read a folder; used by callers outside this module. */
    folderReadable: (viewer: Viewer) => folderReadable(viewer.userId),
  };
}

export type KnowledgeService = ReturnType<typeof knowledgeService>;
