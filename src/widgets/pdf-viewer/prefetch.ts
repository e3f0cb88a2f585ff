// The viewer's head start: the element shell imports this small module (no React) as soon as a
// <csai-pdf-viewer> connects, so the document's record, its bytes, pdf.js's worker and the
// opening of the PDF run while the React view is still loading. The view takes the result once
// (takePrefetch) for the same document; anything not taken in time is dropped.
import { kbDocument, type KbDocument } from '../../contract/knowledge';
import { fetchBlob } from '../shared/fetch-api';
import { getJson } from '../shared/fetch-json';
import type { PDFDocumentProxy } from './pdfjs';

const API = '/api/v1/knowledge_base';
const KEEP_MS = 30_000;

/** The requests the view would start itself for a PDF document. */
export interface Prefetched {
  /** The document's record (null without a doc-id). */
  info: Promise<KbDocument | null>;
  /** The PDF opened from its bytes (pdf.js, in the shared worker). */
  pdf: Promise<PDFDocumentProxy>;
  /** Stops the bytes download (a record that is not a PDF). */
  abort(): void;
}

const pending = new Map<string, Prefetched>();

/** The key of one load: the same inputs the view's load effect depends on. */
export function prefetchKey(apiOrigin: string, docId: string | undefined, path: string): string {
  return JSON.stringify([apiOrigin, docId ?? '', path]);
}

/** Same rule as the view's downloadPath (kept in step with PdfViewer.tsx). */
export function downloadPath(id: string | undefined, url: string | undefined): string | null {
  if (url && /^\/api\/v1\/[\w\-./%]+$/.test(url) && !url.includes('..')) return url;
  return id ? `${API}/download/${encodeURIComponent(id)}` : null;
}

/** Starts loading the host's document (a PDF unless `if-img`); no-op when nothing to load or already started. */
export function prefetch(host: Element): void {
  const attr = (name: string) => host.getAttribute(name)?.trim() || undefined;
  const rawIfImg = host.getAttribute('if-img');
  if (rawIfImg !== null && rawIfImg.trim().toLowerCase() !== 'false') return;
  const docId = attr('doc-id') ?? attr('download-key');
  const path = downloadPath(docId, attr('download-url'));
  if (!path) return;
  const apiOrigin = (attr('api-base') ?? '').replace(/\/+$/, '');
  const key = prefetchKey(apiOrigin, docId, path);
  if (pending.has(key)) return;
  const controller = new AbortController();
  const pdfjs = import('./pdfjs');
  void pdfjs.then((m) => m.pdfWorker()).catch(() => undefined);
  const bytes = fetchBlob(apiOrigin, path, { signal: controller.signal });
  const info = docId ? getJson(apiOrigin, `${API}/doc/${encodeURIComponent(docId)}`, kbDocument) : Promise.resolve(null);
  const pdf = Promise.all([bytes, pdfjs]).then(async ([blob, m]) => m.openPdf(new Uint8Array(await blob.arrayBuffer())));
  // Failures surface when the view awaits them; unhandled here they would only be noise.
  info.catch(() => undefined);
  pdf.catch(() => undefined);
  const entry: Prefetched = { info, pdf, abort: () => controller.abort() };
  pending.set(key, entry);
  setTimeout(() => {
    if (pending.get(key) !== entry) return;
    pending.delete(key);
    controller.abort();
    void pdf.then((doc) => doc.destroy(), () => undefined);
  }, KEEP_MS);
}

/** The prefetched load of this document, once (later calls get undefined). */
export function takePrefetch(key: string): Prefetched | undefined {
  const entry = pending.get(key);
  pending.delete(key);
  return entry;
}
