import { sql, type Selectable } from 'kysely';
import type { Executor } from '../db/database';
import { localizeMessage, type Lang } from '../i18n';
import type { KbDocumentTable, KbFolderTable } from '../db/schema';
import { QUESTION_FOLDER_ID, type KbDocument, type KbFolder } from '../../contract/knowledge';

export type DocRow = Selectable<KbDocumentTable>;
export type FolderRow = Selectable<KbFolderTable>;

/** Escapes LIKE wildcards so a keyword matches literally (case-insensitive for Latin letters). */
export const likePattern = (keyword: string) => `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
export const titleLike = (column: string, keyword: string) => sql<boolean>`lower(${sql.ref(column)}) like ${likePattern(keyword)} escape '\\'`;

/** A page of a list (DESIGN §3). */
export const pageOf = <T>(items: T[], total: number, page: number, size: number) => ({ items, total, page, size });

/** The columns of a document every list shows, with its owner's name. */
export function selectDocs(db: Executor) {
  return db
    .selectFrom('kb_documents')
    .innerJoin('users', 'users.id', 'kb_documents.owner_id')
    .select([
      'kb_documents.id',
      'kb_documents.owner_id',
      'kb_documents.folder_id',
      'kb_documents.title',
      'kb_documents.type',
      'kb_documents.size',
      'kb_documents.parse_status',
      'kb_documents.parse_progress',
      'kb_documents.progress_texts',
      'kb_documents.page_count',
      'kb_documents.created_at',
      'kb_documents.source_url',
      'kb_documents.fetched_at',
      'users.name as owner_name',
    ]);
}
type DocListRow = Pick<DocRow, 'id' | 'owner_id' | 'folder_id' | 'title' | 'type' | 'size' | 'parse_status' | 'parse_progress' | 'progress_texts' | 'page_count' | 'created_at' | 'source_url' | 'fetched_at'> & { owner_name: string };

function parseTexts(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/** A document row as the API shows it to the viewer, its progress texts in the viewer's language. */
export function docView(row: DocListRow, viewerId: string, lang: Lang = 'zh'): KbDocument {
  return {
    docId: row.id,
    title: row.title,
    type: row.type,
    parseStatus: row.parse_status,
    parse_progress: row.parse_progress,
    progress_texts: parseTexts(row.progress_texts).map((t) => localizeMessage(t, lang)),
    img_id: row.type === 3 ? row.id : null,
    download_url: `/api/v1/knowledge_base/download/${encodeURIComponent(row.id)}`,
    download_key: row.id,
    folder_id: row.folder_id ?? QUESTION_FOLDER_ID,
    size: row.size,
    page_count: row.page_count,
    owner_id: row.owner_id,
    owner_name: row.owner_name,
    is_owner: row.owner_id === viewerId,
    created_at: row.created_at,
    source_url: row.source_url,
    fetched_at: row.fetched_at,
  };
}

/** The columns of a folder every list shows: owner name, document count, whether it is shared. */
export function selectFolders(db: Executor) {
  return db
    .selectFrom('kb_folders')
    .innerJoin('users', 'users.id', 'kb_folders.owner_id')
    .selectAll('kb_folders')
    .select([
      'users.name as owner_name',
      sql<number>`(select count(*) from kb_documents d where d.folder_id = kb_folders.id)`.as('doc_count'),
      sql<number>`exists (select 1 from kb_shares s where s.resource_type = 'folder' and s.resource_id = kb_folders.id)`.as('has_shares'),
    ]);
}
type FolderListRow = FolderRow & { owner_name: string; doc_count: number; has_shares: number };

export function folderView(row: FolderListRow, viewerId: string): KbFolder {
  return {
    id: row.id,
    name: row.name,
    isShared: row.has_shares === 1 || row.owner_id !== viewerId,
    is_public: row.is_public === 1,
    is_owner: row.owner_id === viewerId,
    owner_id: row.owner_id,
    owner_name: row.owner_name,
    doc_count: row.doc_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The built-in question folder's name (Chinese; English in i18n/en.ts). */
export const QUESTION_FOLDER_NAME = '问答文件';

/** SPEC §9: the built-in folder that holds files uploaded with questions, one per user. */
export async function questionFolderView(db: Executor, userId: string, lang: Lang = 'zh'): Promise<KbFolder> {
  const user = await db.selectFrom('users').select(['name', 'created_at']).where('id', '=', userId).executeTakeFirstOrThrow();
  const count = await db
    .selectFrom('kb_documents')
    .select(sql<number>`count(*)`.as('n'))
    .where('owner_id', '=', userId)
    .where('folder_id', 'is', null)
    .executeTakeFirstOrThrow();
  return {
    id: QUESTION_FOLDER_ID,
    // Not stored: named at display time in the viewer's language (SPEC names only its id).
    name: localizeMessage(QUESTION_FOLDER_NAME, lang),
    isShared: false,
    is_public: false,
    is_owner: true,
    owner_id: userId,
    owner_name: user.name,
    doc_count: count.n,
    created_at: user.created_at,
    updated_at: user.created_at,
  };
}

/** Maps the API folder id to the column value: the question-files folder is null. */
export const folderColumn = (folderId: string) => (folderId === QUESTION_FOLDER_ID ? null : folderId);
