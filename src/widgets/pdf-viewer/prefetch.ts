// The viewer's head start: the element shell imports this small module (no React, no zod: it
// must run before the big shared chunks evaluate) as soon as a <csai-pdf-viewer> connects, so the
// document's record, its bytes, pdf.js's worker and the opening of the PDF run while the React
// view is still loading. The view takes the result once (takePrefetch) for the same document and
// reads the answers through its API client (`response` option); anything not taken in time is dropped.
import { API_ROOT, documentPath } from '../../core/document-paths';
import { rawGet } from '../../core/request';
import type { PDFDocumentProxy } from './pdfjs';
import { startWorker, workerUrl } from './pdfjs-files';

const KEEP_MS = 30_000;

/** The requests the view would start itself for a PDF document. */
export interface Prefetched {
  /** The record's answer (null without a doc-id); the same request the client makes. */
  record: Promise<Response> | null;
  /** The file's answer; the same request the client makes. */
  bytes: Promise<Response>;
  /** The PDF opened from a successful answer (rejects when the answer failed). */
  pdf: Promise<PDFDocumentProxy>;
  /** The path of the file (for messages). */
  path: string;
  /** The path of the record (for messages). */
  recordPath: string;
  /** Stops the bytes download (a record that is not a PDF). */
  abort(): void;
}

const pending = new Map<string, Prefetched>();
/** The longest the file's download waits for the worker's script (prefetch below). */
const WORKER_FIRST_MS = 200;

/** Settles when the page has received `url` (its resource timing entry appears), or after `ms`. */
function arrived(url: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (typeof PerformanceObserver === 'undefined' || performance.getEntriesByName(url).length > 0) {
      resolve();
      return;
    }
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName(url).length > 0) done();
    });
    const timer = setTimeout(done, ms);
    function done() {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    }
    observer.observe({ type: 'resource' });
  });
}
/** Loads that have not yet handed their bytes to pdf.js. */
const starting = new Set<Promise<void>>();

/**
 * Settles when every started load has handed its bytes to pdf.js, or after `ms`. The element
 * imports its view after this: the view's code (a dozen chunks to evaluate, then the first
 * render) would otherwise take the main thread while the bytes wait to be sent to the worker,
 * and the worker's parse of the document is the longest step before the first page.
 */
export function whenOpening(ms: number): Promise<void> {
  if (starting.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void Promise.all(starting).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The key of one load: the same inputs the view's load effect depends on. */
export function prefetchKey(apiOrigin: string, docId: string | undefined, path: string): string {
  return JSON.stringify([apiOrigin, docId ?? '', path]);
}

/** Only paths of this API are fetched from `download-url` (never another site with the user's cookies). */
export function downloadPath(id: string | undefined, url: string | undefined): string | null {
  if (url && url.startsWith(`${API_ROOT}/`) && /^[\w\-./%]+$/.test(url) && !url.includes('..')) return url;
  return id ? API_ROOT + documentPath.download(id) : null;
}

/** The `type` of a record envelope (`{ data: { type } }`), when it has one. */
function recordType(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null || !('data' in body)) return undefined;
  const data = body.data;
  if (typeof data !== 'object' || data === null || !('type' in data)) return undefined;
  return typeof data.type === 'number' ? data.type : undefined;
}

/** Whether the bytes start like a PDF: `%PDF-` within the first 1024 bytes (where pdf.js looks for it). */
export function looksLikePdf(data: Uint8Array): boolean {
  const head = data.subarray(0, 1024);
  outer: for (let i = 0; i + 5 <= head.length; i++) {
    for (let j = 0; j < 5; j++) if (head[i + j] !== '%PDF-'.charCodeAt(j)) continue outer;
    return true;
  }
  return false;
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
  // The worker's thread first: its script is the biggest file of the viewer (pdfjs-files.ts).
  const worker = startWorker();
  const controller = new AbortController();
  // The file and pdf.js's library are asked for once the worker's script is in (or after
  // WORKER_FIRST_MS): they would share the connection otherwise, and the worker needs its script
  // long before it needs the file (it compiles and starts first), so the file arrives about as
  // early and the worker is ready sooner.
  // (A worker started through a blob, on another origin, fetches its script in its own thread:
  // the page sees no timing of it, and nothing waits.)
  const workerFirst = worker && !worker.viaBlob ? arrived(workerUrl(), WORKER_FIRST_MS) : Promise.resolve();
  // Asked as the API client asks (core/request.ts): the element's credentials, X-Requested-With.
  const lang = host.closest('[lang]')?.getAttribute('lang') ?? undefined;
  const bytes = workerFirst.then(() => rawGet(apiOrigin, path, '*/*', controller.signal, lang));
  const recordPath = API_ROOT + documentPath.record(docId ?? '');
  const record = docId ? rawGet(apiOrigin, recordPath, 'application/json', undefined, lang) : null;
  // A record that says the document is not a PDF (an SDF or a PDB opened without the route
  // knowing its type) stops the download: its bytes never reach pdf.js. The PDF does not wait
  // for the record: the two run side by side, as before.
  let notPdf = false;
  void record
    ?.then((res) => (res.ok ? res.clone().json() : undefined))
    .then((body: unknown) => {
      const type = recordType(body);
      if (type !== undefined && type !== 1) {
        notPdf = true;
        controller.abort();
      }
    })
    .catch(() => undefined);
  const pdfjs = workerFirst.then(() => import('./pdfjs'));
  // The body is read as soon as it arrives, beside pdf.js's module: the document opens in the
  // first task after both are there.
  const data = bytes.then(async (res) => {
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  });
  const pdf = Promise.all([data, pdfjs]).then(([d, m]) => {
    // Bytes that are not a PDF (the record may still be on its way) are never handed to pdf.js.
    if (notPdf || !looksLikePdf(d)) throw new Error('not a PDF');
    // Embedded (an api-base) the page's CSP decides about WebAssembly: pdf.js's JS fallbacks then (pdfjs.ts).
    return m.openPdf(d, { wasm: apiOrigin === '' });
  });
  // Settles once pdf.js has been asked to open the document (or the load failed before).
  const opening = Promise.all([data, pdfjs]).then(
    () => undefined,
    () => undefined,
  );
  starting.add(opening);
  void opening.then(() => starting.delete(opening));
  // While the view starts, the worker reads the start page: a render that draws nothing
  // (every operation filtered out) asks for the page's display operator list, which pdf.js
  // keeps for the page. The view's own render of that page joins the same list (streamed or
  // complete): one pass in the worker, and its drawing starts with the first chunk.
  const startPage = Number(attr('page') ?? '1');
  void pdf
    .then(async (doc) => {
      const n = Number.isInteger(startPage) ? Math.min(Math.max(startPage, 1), doc.numPages) : 1;
      const page = await doc.getPage(n);
      const canvas = document.createElement('canvas');
      canvas.width = 1;
      canvas.height = 1;
      await page.render({ canvas, viewport: page.getViewport({ scale: 0.01 }), operationsFilter: () => false }).promise;
    })
    .catch(() => undefined);
  // Failures surface when the view reads them; unhandled here they would only be noise.
  bytes.catch(() => undefined);
  record?.catch(() => undefined);
  pdf.catch(() => undefined);
  const entry: Prefetched = { record, bytes, pdf, path, recordPath, abort: () => controller.abort() };
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
