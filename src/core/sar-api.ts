// A document's structure–activity (SAR) table: GET /knowledge_base/doc/{id}/sar and
// its CSV / SDF download, over an API client, parsed by the contract schema.
import { sarResult, type SarResult } from '../contract/chemdocs';
import { moleculeHitPath, structureReviewPath } from '../contract/molecules';
import type { ApiClient } from './api';

export type { SarResult };

const enc = encodeURIComponent;

/** A place in a document: its kind (an image opens as a picture), page and box in PDF points. */
interface Place {
  doc_id: string;
  doc_type: number;
  page: number | null;
  bbox?: [number, number, number, number] | null;
}

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
    /** Where a place of the document opens in the viewer: its page with the box (an activity's table row) highlighted. */
    viewerPath: (place: Place) => moleculeHitPath({ ...place, mol_key: null }),
    /** A row's drawn structure: the viewer at the drawing with its review open; null when the row has no figure. */
    reviewPath: (place: Place & { structure_id: number | null }) => structureReviewPath({ ...place, mol_key: null, source: 'figure' }),
  };
}
