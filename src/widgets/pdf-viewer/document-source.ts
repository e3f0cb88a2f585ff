// Where the viewer model (src/core/viewer-model.ts) gets one document from: the record and the
// bytes (taken from the element's prefetch when it started them), pdf.js, the parsed markdown and
// the download. Every call goes through the element's API client (its api-base, credentials and
// SPEC §8 mapping); a prefetched answer is read by the client like its own.
import { imageResult, kbDocument, markdownResult, type KbDocument } from '../../contract/knowledge';
import type { Opened, OutlineNode, ViewerDocument, ViewerSource } from '../../core/viewer-model';
import type { PageText } from '../../core/viewer-geometry';
import type { ApiClient } from '../../core/api';
import { API_ROOT, documentPath } from '../../core/document-paths';
import { openPdf, pdfWorker, type PDFDocumentProxy } from './pdfjs';
import { downloadPath, prefetchKey, takePrefetch } from './prefetch';

/** A `/api/v1/…` path (download-url, prefetch) as the client's path below its root. */
const clientPath = (path: string) => (path.startsWith(`${API_ROOT}/`) ? path.slice(API_ROOT.length) : path);

/** An opened PDF as the model sees it, with pdf.js's document for the pages to draw. */
export interface PdfDocument extends ViewerDocument {
  readonly pdf: PDFDocumentProxy;
}

function pdfDocument(pdf: PDFDocumentProxy): PdfDocument {
  return {
    pdf,
    numPages: pdf.numPages,
    async pageText(n: number): Promise<PageText> {
      const content = await (await pdf.getPage(n)).getTextContent();
      const items = content.items.filter((i): i is typeof i & { str: string; hasEOL: boolean } => 'str' in i);
      return { items: items.map((i) => i.str), eol: items.map((i) => i.hasEOL) };
    },
    async outline() {
      // pdf.js types its outline entries loosely; the fields read are the ones OutlineNode names.
      const o: OutlineNode[] | null = await pdf.getOutline();
      return o;
    },
    async destinationPage(dest) {
      const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : dest;
      const ref = explicit?.[0];
      if (ref === undefined || ref === null) return null;
      const index = typeof ref === 'number' ? ref : typeof ref === 'object' && 'num' in ref ? await pdf.getPageIndex(ref as { num: number; gen: number }) : null;
      return index === null ? null : index + 1;
    },
    close() {
      void pdf.destroy();
    },
  };
}

/** What the element's attributes point at. */
export interface DocumentAttributes {
  apiOrigin: string;
  /** The element's API client. */
  client: ApiClient;
  docId: string | undefined;
  downloadUrl: string | undefined;
  ifImg: boolean;
}

/**
 * The source of the document the attributes name, or null when they name none. `save` hands the
 * downloaded file to the user (the view puts a link in its shadow root).
 */
export function documentSource({ apiOrigin, client, docId, downloadUrl, ifImg }: DocumentAttributes, save: (blob: Blob, name: string) => void): ViewerSource<PdfDocument> | null {
  const path = downloadPath(docId, downloadUrl);
  if (!path) return null;
  return {
    // The record, then the PDF bytes or the image.
    async open(signal, record): Promise<Opened<PdfDocument>> {
      // Started by the element shell while this code loaded (prefetch.ts), when it could.
      const early = ifImg ? undefined : takePrefetch(prefetchKey(apiOrigin, docId, path));
      if (early) signal.addEventListener('abort', () => early.abort());
      // The record and the bytes in parallel (most documents are PDFs); the worker starts too.
      const bytesAbort = new AbortController();
      signal.addEventListener('abort', () => bytesAbort.abort());
      const bytesPromise = ifImg || early ? null : client.download(clientPath(path), { signal: bytesAbort.signal }).then((d) => d.blob);
      bytesPromise?.catch(() => undefined);
      if (!ifImg && !early) pdfWorker();
      let info: KbDocument | null = null;
      if (early?.record) info = await client.get(clientPath(early.recordPath), kbDocument, { response: early.record, signal });
      else if (docId) info = await client.get(documentPath.record(docId), kbDocument, { signal });
      if (signal.aborted) throw signal.reason;
      record(info);
      if (info && info.type !== 1) {
        bytesAbort.abort(); // not a PDF: the bytes are not needed
        early?.abort();
        void early?.pdf.then((p) => p.destroy(), () => undefined);
      }
      if (ifImg || info?.type === 3) {
        const img = await client.get(documentPath.image(docId ?? ''), imageResult, { signal });
        return { state: 'image', src: `data:${img.mime};base64,${img.img_base64}` };
      }
      if (info && info.type !== 1) return { state: 'other' };
      let opened: PDFDocumentProxy;
      if (early) {
        await client.response(clientPath(early.path), { response: early.bytes, signal });
        opened = await early.pdf;
      } else {
        const blob = await (bytesPromise ?? client.download(clientPath(path), { signal }).then((d) => d.blob));
        const bytes = new Uint8Array(await blob.arrayBuffer());
        if (signal.aborted) throw signal.reason;
        // Embedded (any api-base), pdf.js uses its JavaScript decoders: no WebAssembly under the page's CSP.
        opened = await openPdf(bytes, { wasm: apiOrigin === '' });
      }
      const document = pdfDocument(opened);
      try {
        const first = (await opened.getPage(1)).getViewport({ scale: 1 });
        return { state: 'pdf', document, firstPage: { width: first.width, height: first.height } };
      } catch (error) {
        document.close();
        throw error;
      }
    },
    markdown: docId ? () => client.get(documentPath.markdown(docId), markdownResult).then((r) => r.markdown) : undefined,
    async download(info) {
      const { blob } = await client.download(clientPath(path));
      save(blob, info?.title ?? `${docId ?? 'document'}.pdf`);
    },
  };
}
