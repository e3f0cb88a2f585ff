import { sql, type Selectable } from 'kysely';
import type { Lang } from '../i18n';
import type { Executor } from '../db/database';
import type { KbDocumentTable, KbFolderTable } from '../db/schema';
import { DomainError } from '../errors';

/** What a route wants to do with a thing: look at it, or change it. */
export type Action = 'read' | 'write';
export type Resource = { type: 'folder'; id: string } | { type: 'doc'; id: string };
/** The signed-in user asking. */
export interface Viewer {
  userId: string;
  /** The language the user reads (users.language): the language tools write to them in. Chinese when absent. */
  lang?: Lang;
}

const FOLDER_NOT_FOUND = '知识库不存在';
const DOC_NOT_FOUND = '文档不存在';

/** SQL: the viewer's department id (or null). */
const departmentOf = (userId: string) => sql<string | null>`(select department_id from users where id = ${userId})`;

/** SQL condition: a share of (type, idColumn) reaches the viewer directly or through their department. */
export const sharedWith = (type: 'folder' | 'doc', idColumn: string, userId: string) => sql<boolean>`exists (
  select 1 from kb_shares s where s.resource_type = ${type} and s.resource_id = ${sql.ref(idColumn)}
  and ((s.target_type = 'user' and s.target_id = ${userId})
    or (s.target_type = 'department' and s.target_id = ${departmentOf(userId)})))`;

/** SQL condition: the viewer may read this folder (owner, shared with them, or public). */
export const folderReadable = (userId: string, alias = 'kb_folders') => sql<boolean>`(${sql.ref(`${alias}.owner_id`)} = ${userId}
  or ${sql.ref(`${alias}.is_public`)} = 1 or ${sharedWith('folder', `${alias}.id`, userId)})`;

/** SQL condition: the viewer may read this document (owner, shared, or its folder readable). */
export const docReadable = (userId: string, alias = 'kb_documents') => sql<boolean>`(${sql.ref(`${alias}.owner_id`)} = ${userId}
  or ${sharedWith('doc', `${alias}.id`, userId)}
  or exists (select 1 from kb_folders f where f.id = ${sql.ref(`${alias}.folder_id`)} and ${folderReadable(userId, 'f')}))`;

/**
 * The one authorisation check (DESIGN §9) for every route taking a folder or document id.
 * Owners may do anything; people it is shared with (directly or through their department) and
 * anyone for a public folder may read; a change by a reader is 403; anyone else gets the same
 * 404 as for a missing id, so existence is not revealed.
 */
export async function canAccess(db: Executor, viewer: Viewer, resource: { type: 'folder'; id: string }, action: Action): Promise<Selectable<KbFolderTable>>;
export async function canAccess(db: Executor, viewer: Viewer, resource: { type: 'doc'; id: string }, action: Action): Promise<Selectable<KbDocumentTable>>;
export async function canAccess(db: Executor, viewer: Viewer, resource: Resource, action: Action): Promise<Selectable<KbFolderTable> | Selectable<KbDocumentTable>> {
  if (resource.type === 'folder') {
    const row = await db
      .selectFrom('kb_folders')
      .selectAll()
      .select(folderReadable(viewer.userId).as('readable'))
      .where('id', '=', resource.id)
      .executeTakeFirst();
    if (!row || !row.readable) throw new DomainError('not_found', FOLDER_NOT_FOUND);
    if (action === 'write' && row.owner_id !== viewer.userId) throw new DomainError('forbidden', '只有知识库的创建者可以修改它');
    const { readable: _readable, ...folder } = row;
    return folder;
  }
  const row = await db
    .selectFrom('kb_documents')
    .selectAll()
    .select(docReadable(viewer.userId).as('readable'))
    .where('id', '=', resource.id)
    .executeTakeFirst();
  if (!row || !row.readable) throw new DomainError('not_found', DOC_NOT_FOUND);
  if (action === 'write' && row.owner_id !== viewer.userId) throw new DomainError('forbidden', '只有文档的上传者可以修改它');
  const { readable: _readable, ...doc } = row;
  return doc;
}
