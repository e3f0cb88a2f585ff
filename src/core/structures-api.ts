// The structures read from a document's drawings: GET /knowledge_base/doc/{id}/structures
// and a reader's correction, PUT /knowledge_base/doc/{id}/structures/{sid}, parsed by the contract.
import { docStructure, docStructuresResult, type DocStructure } from '../contract/structures';
import type { ApiClient } from './api';

export type { DocStructure };

const enc = encodeURIComponent;

/**
 * The structure calls of one client.
 * @example const { structures } = await structuresApi(api()).list(docId);
 */
export function structuresApi(client: ApiClient) {
  return {
    /** The recognised structures of a document (the effective SMILES: a correction wins), by page. */
    list: (docId: string, signal?: AbortSignal) => client.get(`/knowledge_base/doc/${enc(docId)}/structures`, docStructuresResult, { signal, quiet: true, redirect: false }),
    /** Corrects one structure (any reader of the document may); the server's Chinese message on bad input. */
    correct: (docId: string, sid: number, body: { smiles: string } | { molfile: string }): Promise<DocStructure> =>
      client.put(`/knowledge_base/doc/${enc(docId)}/structures/${sid}`, body, docStructure, { quiet: true }),
  };
}
/** The structure calls. */
export type StructuresApi = ReturnType<typeof structuresApi>;
