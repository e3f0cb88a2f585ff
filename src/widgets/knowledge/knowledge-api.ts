// The knowledge-base calls of SPEC §7 as the element uses them, over the page's API client
// (CSRF, SPEC §8 toasts, 401 → sign-in) with every answer parsed by the contract schemas.
import { z } from 'zod';
import { paged } from '../../contract/envelope';
import { department, personSearchResult } from '../../contract/general';
import {
  deleteResult,
  kbDocument,
  kbFolder,
  markdownResult,
  nameId,
  shareRecord,
  shareResult,
  uploadResult,
  type KbFolder,
} from '../../contract/knowledge';
import type { ApiClient } from '../../core/api';
import { queryCache } from '../../core/query-cache';
import { perFileProgress } from '../../core/upload-progress';

const folderPage = paged(kbFolder);
const docPage = paged(kbDocument);
export type FolderPage = z.infer<typeof folderPage>;
export type DocPage = z.infer<typeof docPage>;
export type ShareRecord = z.infer<typeof shareRecord>;
export type PersonSearch = z.infer<typeof personSearchResult>;
export type Department = z.infer<typeof department>;

/** Which folder list: mine, shared with me, public. */
export type FolderScope = 'mine' | 'shared' | 'public';
/** Server sort keys of folder lists. */
export type FolderSortKey = '-createTime' | 'createTime' | '-updateTime' | 'name';

/** SPEC §9 / §7 usage notes: folder lists are fetched with page 1, size 100. */
export const FOLDER_PAGE_SIZE = 100;
/** Documents per page of the main list. */
export const DOC_PAGE_SIZE = 20;

const scopePath: Record<FolderScope, string> = {
  mine: '/knowledge_base/folder',
  shared: '/knowledge_base/get_share_folders',
  public: '/knowledge_base/public_folders',
};

const qs = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  return q.toString();
};

/** The element's API over its client (`useApi()`: its `api-base`, credentials, `csai-error`). */
export function knowledgeApi(client: ApiClient) {
  const enc = encodeURIComponent;
  return {
    root: client.root,
    folders: (scope: FolderScope, { search, sort }: { search?: string; sort?: FolderSortKey } = {}) =>
      client.get(`${scopePath[scope]}?${qs({ page: 1, size: FOLDER_PAGE_SIZE, search, sort })}`, folderPage),
    /** Quiet: a folder that cannot be read is simply not shown. */
    folder: (id: string) => client.get(`/knowledge_base/get_folder/${enc(id)}`, kbFolder, { quiet: true }),
    docs: (folderId: string, { page, search }: { page: number; search?: string }, signal?: AbortSignal) =>
      client.get(`/knowledge_base/folder/${enc(folderId)}?${qs({ page, size: DOC_PAGE_SIZE, search })}`, docPage, { signal }),
    createFolder: (name: string) => client.post('/knowledge_base/folder', { name }, kbFolder),
    updateFolder: (id: string, body: { name?: string; is_public?: boolean }) => client.put(`/knowledge_base/folder/${enc(id)}`, body, kbFolder),
    deleteFolder: (id: string) => client.delete(`/knowledge_base/folder/${enc(id)}`, deleteResult),
    deleteDoc: (docId: string) => client.delete(`/knowledge_base/${enc(docId)}`, deleteResult),
    moveDoc: (docId: string, folderId: string) => client.post('/knowledge_base/folder/movedoc', { docId, folder_id: folderId }, z.object({ moved: z.number() })),
    copyDoc: (docId: string, folderId: string) => client.post('/knowledge_base/copy_doc', { docId, folder_id: folderId }, nameId),
    /** Quiet: the caller shows the SPEC §8 add toasts itself. */
    addToKb: (docId: string, folderId: string) => client.post('/knowledge_base/add_doc_to_kb', { docId, folder_id: folderId }, nameId, { quiet: true }),
    /**
     * SPEC §4/§7: uploads a batch into a folder in one multipart request, reporting each file's
     * progress (0–100); the SPEC §8 upload rows are the client's.
     */
    upload: (folderId: string, files: readonly { file: Blob; name: string }[], onProgress: (percents: number[]) => void, signal?: AbortSignal) => {
      const form = new FormData();
      form.append('folder_id', folderId);
      for (const f of files) form.append('files', f.file, f.name);
      const sizes = files.map((f) => f.file.size);
      return client.upload(`/knowledge_base/upload?${qs({ folder_id: folderId })}`, form, uploadResult, {
        signal,
        onProgress: (loaded, total) => onProgress(perFileProgress(sizes, loaded, total)),
        redirect: false,
      });
    },
    download: (docId: string) => client.download(`/knowledge_base/download/${enc(docId)}`),
    markdown: (docId: string) =>
      queryCache().query(`knowledge:markdown:${docId}`, () => client.get(`/knowledge_base/doc_markdown/${enc(docId)}`, markdownResult, { quiet: true })),
    shareFolder: (folderId: string, userIds: string[], departmentIds: string[]) =>
      client.post('/knowledge_base/share_folder', { folder_id: folderId, user_ids: userIds, department_ids: departmentIds }, shareResult),
    shareDoc: (docId: string, userIds: string[], departmentIds: string[]) =>
      client.post('/knowledge_base/share_doc', { docId, user_ids: userIds, department_ids: departmentIds }, shareResult),
    cancelShare: (shareId: string) => client.post('/knowledge_base/cancel_share', { share_id: shareId }, deleteResult),
    shareRecords: () => client.get('/knowledge_base/get_shared_records', z.array(shareRecord)),
    searchPeople: (keyword: string, signal?: AbortSignal) => client.get(`/search_person_department?${qs({ keyword })}`, personSearchResult, { signal, quiet: true }),
    departments: () => queryCache().query('knowledge:departments', () => client.get('/departments', z.array(department), { quiet: true })),
    ping: async () => {
      await client.get('/', z.unknown(), { quiet: true }).catch(() => undefined);
    },
  };
}
export type KnowledgeApi = ReturnType<typeof knowledgeApi>;

/** SDF documents: the molecule count from the parsed text ("共 N 个分子"), or null. */
export function moleculeCount(markdown: string): number | null {
  const m = /共\s*(\d+)\s*个分子/.exec(markdown);
  return m ? Number(m[1]) : null;
}

/** The folder kept in the store (SPEC §3 now_knowledge). */
export const storedFolder = kbFolder;
export type StoredFolder = KbFolder;
