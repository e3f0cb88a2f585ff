// Loads pdf.js and tells it where its worker and data live. In a build the csai-pdfjs-assets
// Vite plugin (scripts/vite-pdfjs-assets.mjs) copies them next to the chunks, under
// assets/pdfjs-<version>/, so they come from the same origin as this code; in development and
// in browser tests the package folder is served as /node_modules/pdfjs-dist/.
import * as pdfjs from 'pdfjs-dist';
import type { DocumentInitParameters, PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api';

export { pdfjs };
export type { PDFDocumentProxy };

/** Where pdf.js's own files are served (a folder URL ending in `/`). */
export function pdfjsBase(): string {
  // A plain variable (not a literal) so Vite leaves the URL to run time.
  const folder = `./pdfjs-${pdfjs.version}/`;
  return import.meta.env?.PROD ? new URL(folder, import.meta.url).href : new URL('/node_modules/pdfjs-dist/', location.href).href;
}

let worker: InstanceType<typeof pdfjs.PDFWorker> | undefined;

/**
 * The page's one pdf.js worker, started on first call: the viewer calls it as soon as it mounts,
 * so the worker script loads while the document is still downloading.
 */
export function pdfWorker(): InstanceType<typeof pdfjs.PDFWorker> {
  if (!worker || worker.destroyed) {
    pdfjs.GlobalWorkerOptions.workerSrc = `${pdfjsBase()}build/pdf.worker.min.mjs`;
    worker = new pdfjs.PDFWorker();
  }
  return worker;
}

/** The getDocument parameters every load uses: data folders, and no eval (DESIGN §9). */
export function documentParams(data: Uint8Array): DocumentInitParameters {
  const base = pdfjsBase();
  return {
    data,
    worker: pdfWorker(),
    isEvalSupported: false,
    enableXfa: false,
    cMapUrl: `${base}cmaps/`,
    cMapPacked: true,
    iccUrl: `${base}iccs/`,
    standardFontDataUrl: `${base}standard_fonts/`,
    wasmUrl: `${base}wasm/`,
  };
}

/** Opens a PDF from its bytes. */
export function openPdf(data: Uint8Array): Promise<PDFDocumentProxy> {
  return pdfjs.getDocument(documentParams(data)).promise;
}
