// Sharing of folders and documents with people and departments, and what a viewer may read.
import type { Db } from '../db/database';
import { now } from '../db/database';
import { randomToken } from '../auth/crypto';
import { DomainError } from '../errors';
import { QUESTION_FOLDER_ID } from '../../contract/knowledge';
import { canAccess, docReadable, folderReadable, type Viewer } from '../access/access';

/** The sharing part of the knowledge service. */
export function knowledgeSharing(db: Db) {
  return {
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
