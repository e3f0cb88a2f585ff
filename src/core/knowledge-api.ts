// The knowledge-base calls of SPEC §7 (and GET channel/channel_docs/{id}) over an API client
// (CSRF, SPEC §8 toasts, 401 → sign-in), every answer parsed by the contract schemas.
import { z } from 'zod';
import { paged } from '../contract/envelope';
import { department, personSearchResult } from '../contract/general';
import {
  deleteResult,
  kbDocument,
  kbFolder,
  markdownResult,
  nameId,
  shareRecord,
  shareResult,
  translateResult,
  uploadResult,
} from '../contract/knowledge';
import type { ApiClient, CallOptions } from './api';
import { documentPath } from './document-paths';
import { queryCache } from './query-cache';
import { perFileProgress } from './upload-progress';

const folderPage = paged(kbFolder);
const docPage = paged(kbDocument);
/** A page of folders. */
export type FolderPage = z.infer<typeof folderPage>;
/** A page of documents. */
export type DocPage = z.infer<typeof docPage>;
/** One share made by the signed-in user. */
export type ShareRecord = z.infer<typeof shareRecord>;
/** People and departments found by the people search. */
export type PersonSearch = z.infer<typeof personSearchResult>;
/** A department. */
export type Department = z.infer<typeof department>;
/** A translation: the text, whether the source was cut, the model. */
export type Translation = z.infer<typeof translateResult>;
/** Target languages of POST translate. */
export type TranslateLanguage = 'zh' | 'en';

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

/** Paging and search of a document list. */
export interface DocQuery {
  page: number;
  search?: string | undefined;
}

/**
 * The knowledge-base calls bound to one API client (the page's, at the element's `api-base`).
 * @example const kb = createKnowledgeApi(api()); const mine = await kb.folders('mine');
 */
export function createKnowledgeApi(client: ApiClient) {
  const enc = encodeURIComponent;
  const docMarkdown = (docId: string, signal?: AbortSignal) => client.get(documentPath.markdown(docId), markdownResult, { quiet: true, signal });
  return {
    folders: (scope: FolderScope, { search, sort }: { search?: string | undefined; sort?: FolderSortKey } = {}) =>
      client.get(`${scopePath[scope]}?${qs({ page: 1, size: FOLDER_PAGE_SIZE, search, sort })}`, folderPage),
    /** Quiet: a folder that cannot be read is simply not shown. */
    folder: (id: string) => client.get(`/knowledge_base/get_folder/${enc(id)}`, kbFolder, { quiet: true }),
    /** GET get_folder/xxx?folder_name=: one of your folders by its exact name (404 when none). Quiet: the caller says so. */
    folderByName: (name: string) => client.get(`/knowledge_base/get_folder/xxx?${qs({ folder_name: name })}`, kbFolder, { quiet: true }),
    docs: (folderId: string, { page, search }: DocQuery, signal?: AbortSignal) =>
      client.get(`/knowledge_base/folder/${enc(folderId)}?${qs({ page, size: DOC_PAGE_SIZE, search })}`, docPage, { signal }),
    /** GET get_shared_docs: documents shared with you one by one. */
    sharedDocs: ({ page, search }: DocQuery, signal?: AbortSignal) =>
      client.get(`/knowledge_base/get_shared_docs?${qs({ page, size: DOC_PAGE_SIZE, search })}`, docPage, { signal }),
    /** GET all_docs with show_my_kb: your question files and the documents of your knowledge bases. */
    allDocs: ({ page, search }: DocQuery, signal?: AbortSignal) =>
      client.get(`/knowledge_base/all_docs?${qs({ page, size: DOC_PAGE_SIZE, search, show_my_kb: 1 })}`, docPage, { signal }),
    /** One document with its parse state. Quiet: a document gone or unreadable is left out by the caller. */
    doc: (docId: string, opts: CallOptions = {}) => client.get(documentPath.record(docId), kbDocument, { quiet: true, ...opts }),
    createFolder: (name: string) => client.post('/knowledge_base/folder', { name }, kbFolder),
    updateFolder: (id: string, body: { name?: string; is_public?: boolean }) => client.put(`/knowledge_base/folder/${enc(id)}`, body, kbFolder),
    deleteFolder: (id: string) => client.delete(`/knowledge_base/folder/${enc(id)}`, deleteResult),
    deleteDoc: (docId: string) => client.delete(`/knowledge_base/${enc(docId)}`, deleteResult),
    moveDoc: (docId: string, folderId: string) => client.post('/knowledge_base/folder/movedoc', { docId, folder_id: folderId }, z.object({ moved: z.number() })),
    copyDoc: (docId: string, folderId: string) => client.post('/knowledge_base/copy_doc', { docId, folder_id: folderId }, nameId),
    /** Quiet: the caller shows the SPEC §8 add toasts itself. */
    addToKb: (docId: string, folderId: string) => client.post('/knowledge_base/add_doc_to_kb', { docId, folder_id: folderId }, nameId, { quiet: true }),
    /** POST es_copy_doc_to_question_channel: copies readable documents into your question files. */
    copyToQuestion: (docIds: string[]) => client.post('/knowledge_base/es_copy_doc_to_question_channel', { docIds }, uploadResult),
    /** POST translate of a parsed document. Quiet: the translate view shows the failure (503 without a model). */
    translate: (docId: string, targetLang: TranslateLanguage, signal?: AbortSignal) =>
      client.post('/knowledge_base/translate', { docId, target_lang: targetLang }, translateResult, { quiet: true, signal }),
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
    download: (docId: string, opts: CallOptions = {}) => client.download(documentPath.download(docId), opts),
    /** GET doc_markdown, read once per page (cached). Quiet: the view says it could not be read. */
    markdown: (docId: string) => queryCache().query(`knowledge:markdown:${docId}`, () => docMarkdown(docId)),
    /** GET doc_markdown, read now (not cached), cancelled by `signal`. */
    docMarkdown,
    shareFolder: (folderId: string, userIds: string[], departmentIds: string[]) =>
      client.post('/knowledge_base/share_folder', { folder_id: folderId, user_ids: userIds, department_ids: departmentIds }, shareResult),
    shareDoc: (docId: string, userIds: string[], departmentIds: string[]) =>
      client.post('/knowledge_base/share_doc', { docId, user_ids: userIds, department_ids: departmentIds }, shareResult),
    cancelShare: (shareId: string) => client.post('/knowledge_base/cancel_share', { share_id: shareId }, deleteResult),
    shareRecords: () => client.get('/knowledge_base/get_shared_records', z.array(shareRecord)),
    searchPeople: (keyword: string, signal?: AbortSignal) => client.get(`/search_person_department?${qs({ keyword })}`, personSearchResult, { signal, quiet: true }),
    departments: () => queryCache().query('knowledge:departments', () => client.get('/departments', z.array(department), { quiet: true })),
    /** GET channel/channel_docs/{id}: ids of the documents a conversation's questions used. */
    channelDocIds: (channelId: string, signal?: AbortSignal) => client.get(`/channel/channel_docs/${enc(channelId)}`, z.array(z.string()), { quiet: true, signal }),
  };
}
/** The knowledge-base calls. */
export type KnowledgeApi = ReturnType<typeof createKnowledgeApi>;

/** SDF documents: the molecule count from the parsed text ("共 N 个分子"), or null. */
export function moleculeCount(markdown: string): number | null {
  const m = /共\s*(\d+)\s*个分子/.exec(markdown);
  return m ? Number(m[1]) : null;
}
