import fs from 'node:fs';
import path from 'node:path';
import type { getDocument as GetDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { root } from './lib';

/** Raw pdf.js text extraction of a file (every page's getTextContent), in pages/s. */
export async function rawExtraction(getDocument: typeof GetDocument, file: string): Promise<number> {
  const pdfjs = path.join(root, 'node_modules/pdfjs-dist');
  const started = performance.now();
  const doc = await getDocument({
    data: new Uint8Array(fs.readFileSync(file)),
    isEvalSupported: false,
    verbosity: 0,
    cMapUrl: `${pdfjs}/cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${pdfjs}/standard_fonts/`,
  }).promise;
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    await page.getTextContent();
    page.cleanup();
  }
  const pages = doc.numPages;
  await doc.destroy();
  return pages / ((performance.now() - started) / 1000);
}
