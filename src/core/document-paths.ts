// Where one document's API calls go (SPEC §8), below the API root: written once, for the API
// modules (knowledge-api.ts, ask-files.ts), the document viewer and its prefetch, which runs in the
// element shell before the API client (and zod) load, so this module imports nothing.

/** The path every API call hangs below on the server. */
export const API_ROOT = '/api/v1';

const enc = encodeURIComponent;

/** A document's calls, as paths below {@link API_ROOT}. */
export const documentPath = {
  /** GET: the document's record (title, type, parse status). */
  record: (docId: string) => `/knowledge_base/doc/${enc(docId)}`,
  /** GET: an image document's picture (base64). */
  image: (docId: string) => `/knowledge_base/get_img/${enc(docId)}`,
  /** GET: the parsed text as markdown. */
  markdown: (docId: string) => `/knowledge_base/doc_markdown/${enc(docId)}`,
  /** GET: the stored file. */
  download: (docId: string) => `/knowledge_base/download/${enc(docId)}`,
};
