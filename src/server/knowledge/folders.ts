// Knowledge-base folders: lists (mine, shared with me, public), create, read, rename, publish, delete.
import { sql } from 'kysely';
import { isAnyUniqueViolation } from '../db/dialect';
import type { Db } from '../db/database';
import { now } from '../db/database';
import { randomToken } from '../auth/crypto';
import { DomainError } from '../errors';
import { QUESTION_FOLDER_ID } from '../../contract/knowledge';
import { canAccess, sharedWith, type Viewer } from '../access/access';
import { folderColumn, folderView, pageOf, questionFolderView, selectFolders, titleLike } from './documents';
import type { KnowledgeStore, ListArgs } from './store';

const SORTS = {
  createTime: ['kb_folders.created_at', 'asc'],
  '-createTime': ['kb_folders.created_at', 'desc'],
  updateTime: ['kb_folders.updated_at', 'asc'],
  '-updateTime': ['kb_folders.updated_at', 'desc'],
  name: ['kb_folders.name', 'asc'],
  '-name': ['kb_folders.name', 'desc'],
} as const;
type FolderSort = keyof typeof SORTS;

/** The folders part of the knowledge service. */
export function knowledgeFolders(db: Db, store: KnowledgeStore) {
  const { serial, dropUnreferenced, deleteSharesOf } = store;
  return {
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
      if (folderId === QUESTION_FOLDER_ID) return questionFolderView(db, viewer.userId, viewer.lang);
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
  };
}
