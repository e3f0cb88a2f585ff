// A document's structure–activity (SAR) table (issue 28 §2): GET /knowledge_base/doc/{id}/sar and
// its CSV / SDF download, over an API client, parsed by the contract schema.
import { sarResult, type SarResult } from '../contract/chemdocs';
import type { ApiClient } from './api';

export type { SarResult };

const enc = encodeURIComponent;

/**
 * The SAR calls of one client.
 * @example const sar = await sarApi(api()).table(docId);
 */
export function sarApi(client: ApiClient) {
  return {
    /** The document's compounds (label, linked structure) and their activities with page and box. */
    table: (docId: string, signal?: AbortSignal) => client.get(`/knowledge_base/doc/${enc(docId)}/sar`, sarResult, { signal, quiet: true }),
    /** Downloads the table as CSV or as SDF with the activities as data fields. */
    download: (docId: string, format: 'csv' | 'sdf') => client.download(`/knowledge_base/doc/${enc(docId)}/sar/export?format=${format}`),
    /** Where the page of an activity opens in the viewer. */
    viewerPath: (docId: string, page: number | null) => `/pdf_viewer?${new URLSearchParams({ docId, ...(page ? { page: String(page) } : {}) }).toString()}`,
  };
}
