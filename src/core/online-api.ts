import { z } from 'zod';
import type { ApiClient } from './api';
import { savedDocument } from '../contract/crawl';
import { literatureSearchResult } from '../contract/literature';
import { kbFolder } from '../contract/knowledge';

const folderList = z.object({ items: z.array(kbFolder) });

/**
 * The online-research calls bound to one API client: keep a crawled page or an open-access paper
 * in a knowledge base, search literature. Quiet: the card shows the outcome itself.
 * @example await createOnlineApi(api).savePage('https://example.com/a', 'k1')
 */
export function createOnlineApi(client: ApiClient) {
  return {
    /** Your own knowledge bases (the targets a page or paper can be saved into). */
    myFolders: () => client.get('/knowledge_base/folder?page=1&size=100', folderList, { quiet: true }),
    /** POST crawl/save: reads the page again and stores it (title, URL, fetch time) as a document. */
    savePage: (url: string, folderId: string) => client.post('/crawl/save', { url, folder_id: folderId }, savedDocument, { quiet: true }),
    /** POST literature/save_pdf: fetches an open-access PDF and stores it as a document. */
    savePaper: (pdfUrl: string, title: string, folderId: string) => client.post('/literature/save_pdf', { pdf_url: pdfUrl, title, folder_id: folderId }, savedDocument, { quiet: true }),
    /** GET literature/search. */
    searchLiterature: (query: string, limit = 10) => client.get(`/literature/search?${new URLSearchParams({ query, limit: String(limit) })}`, literatureSearchResult, { quiet: true }),
  };
}
export type OnlineApi = ReturnType<typeof createOnlineApi>;
