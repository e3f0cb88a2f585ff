// Loads pdf.js and tells it where its worker and data live (pdfjs-files.ts: the same folder the
// early worker comes from).
import * as pdfjs from 'pdfjs-dist';
import type { DocumentInitParameters, PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api';
import { pdfjsBase, startWorker, workerUrl } from './pdfjs-files';

export { pdfjs, pdfjsBase };
export type { PDFDocumentProxy };

let own: InstanceType<typeof pdfjs.PDFWorker> | undefined;

/**
 * A pdf.js worker for the page: the early thread (pdfjs-files.ts, usually started by the
 * element's prefetch) when it runs, else one pdf.js makes itself (which falls back to its
 * main-thread worker when that fails too).
 */
export function pdfWorker(): InstanceType<typeof pdfjs.PDFWorker> {
  const early = startWorker();
  if (early) return pdfjs.PDFWorker.create({ port: early.worker });
  if (!own || own.destroyed) {
    pdfjs.GlobalWorkerOptions.workerSrc = workerUrl();
    own = new pdfjs.PDFWorker();
  }
  return own;
}

/**
 * How a document is opened. `wasm`: pdf.js may compile its WebAssembly decoders (ICC colours,
 * JPEG 2000). An element embedded in another page passes false: that page's CSP may lack
 * 'wasm-unsafe-eval' (the worker inherits it), and pdf.js's JavaScript fallbacks need nothing.
 */
export interface OpenOptions {
  wasm?: boolean;
}

/** The getDocument parameters every load uses: data folders, and no eval (DESIGN §9). */
export function documentParams(data: Uint8Array, worker: InstanceType<typeof pdfjs.PDFWorker>, { wasm = true }: OpenOptions = {}): DocumentInitParameters {
  const base = pdfjsBase();
  return {
    data,
    worker,
    isEvalSupported: false,
    useWasm: wasm,
    enableXfa: false,
    cMapUrl: `${base}cmaps/`,
    cMapPacked: true,
    iccUrl: `${base}iccs/`,
    standardFontDataUrl: `${base}standard_fonts/`,
    wasmUrl: `${base}wasm/`,
  };
}

/** Opens a PDF from its bytes. */
export async function openPdf(data: Uint8Array, options: OpenOptions = {}): Promise<PDFDocumentProxy> {
  const early = startWorker();
  if (!early) return pdfjs.getDocument(documentParams(data, pdfWorker(), options)).promise;
  // Through a blob (another origin) the worker's first task only imports pdf.js's worker code:
  // messages sent before that code listens are dispatched to no one and the document never
  // opens. pdf.js takes a port as ready at once, so wait for the worker's own "ready" here.
  if (early.viaBlob && !(await early.ready)) return pdfjs.getDocument(documentParams(data, pdfWorker(), options)).promise;
  // pdf.js hands the bytes over to the worker; a retry on its own worker needs a copy.
  const task = pdfjs.getDocument(documentParams(early.viaBlob ? data.slice() : data, pdfjs.PDFWorker.create({ port: early.worker }), options));
  const lost = early.failed.then(() => 'lost' as const);
  const result = await Promise.race([task.promise, lost]);
  if (result !== 'lost') return result;
  void task.destroy();
  // The same script failed from its own origin: pdf.js could not load it either.
  if (!early.viaBlob) throw new Error('the pdf.js worker did not start');
  return pdfjs.getDocument(documentParams(data, pdfWorker(), options)).promise;
}
