// Loads pdf.js and tells it where its worker and data live (pdfjs-files.ts: the same folder the
// early worker comes from).
import * as pdfjs from 'pdfjs-dist';
import type { DocumentInitParameters, PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api';
import { pdfjsBase, startWorker, workerUrl } from './pdfjs-files';

export { pdfjs, pdfjsBase };
export type { PDFDocumentProxy };

let worker: Promise<InstanceType<typeof pdfjs.PDFWorker>> | undefined;

/**
 * The page's one pdf.js worker, started on first call (the element's prefetch usually started
 * its thread already): pdf.js talks to that thread through its port. When it could not start,
 * pdf.js makes a worker itself (and falls back to its main-thread one when that fails too).
 */
export function pdfWorker(): Promise<InstanceType<typeof pdfjs.PDFWorker>> {
  worker ??= startWorker().then((port) => {
    if (port) return pdfjs.PDFWorker.create({ port });
    pdfjs.GlobalWorkerOptions.workerSrc = workerUrl();
    return new pdfjs.PDFWorker();
  });
  return worker;
}

/** The getDocument parameters every load uses: data folders, and no eval (DESIGN §9). */
export function documentParams(data: Uint8Array, worker: InstanceType<typeof pdfjs.PDFWorker>): DocumentInitParameters {
  const base = pdfjsBase();
  return {
    data,
    worker,
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
export async function openPdf(data: Uint8Array): Promise<PDFDocumentProxy> {
  return pdfjs.getDocument(documentParams(data, await pdfWorker())).promise;
}
