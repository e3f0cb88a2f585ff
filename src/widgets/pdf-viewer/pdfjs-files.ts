// Where pdf.js's own files live, and its worker started early. No pdf.js import here: the
// element's prefetch (prefetch.ts) starts the worker with this module alone, so the worker's
// script (the biggest file of the viewer) downloads and compiles on its own thread while the
// pdf.js library and the React view are still loading on the page.
//
// In a build the csai-pdfjs-assets Vite plugin (scripts/vite-pdfjs-assets.mjs) copies the
// worker and the data folders next to the chunks, under assets/pdfjs-<version>/, so they come
// from the same origin as this code; in development and in browser tests the package folder is
// served as /node_modules/pdfjs-dist/.
import { version } from 'pdfjs-dist/package.json';

/** Where pdf.js's own files are served (a folder URL ending in `/`). */
export function pdfjsBase(): string {
  // A plain variable (not a literal) so Vite leaves the URL to run time.
  const folder = `./pdfjs-${version}/`;
  return import.meta.env?.PROD ? new URL(folder, import.meta.url).href : new URL('/node_modules/pdfjs-dist/', location.href).href;
}

export const workerUrl = () => `${pdfjsBase()}build/pdf.worker.min.mjs`;

/** The early worker, and a promise that settles only if it fails before its script has run. */
export interface EarlyWorker {
  worker: Worker;
  failed: Promise<void>;
  /** Settles once pdf.js's worker code runs and listens (true), or the worker failed (false). */
  ready: Promise<boolean>;
  /** Started through a blob (another origin): a page's CSP may refuse that where pdf.js's fallback still works. */
  viaBlob: boolean;
}

let early: EarlyWorker | null | undefined;

/**
 * The page's one pdf.js worker thread, started on first call (null when it cannot start). pdf.js
 * gets it as its port at once: its first messages wait in the thread's queue, so the document
 * opens as soon as the script has run, whatever the page's main thread is busy with then. A
 * worker from another origin (the loader embedded on a foreign page) starts through a
 * same-origin blob that imports it, as pdf.js does itself.
 */
export function startWorker(): EarlyWorker | null {
  if (early !== undefined) return early;
  let worker: Worker;
  let blob: string | undefined;
  try {
    let src = workerUrl();
    if (new URL(src).origin !== location.origin) {
      blob = URL.createObjectURL(new Blob([`await import(${JSON.stringify(src)});`], { type: 'text/javascript' }));
      src = blob;
    }
    worker = new Worker(src, { type: 'module' });
  } catch {
    early = null;
    return early;
  }
  let settle: (ok: boolean) => void = () => {};
  const ready = new Promise<boolean>((resolve) => (settle = resolve));
  const failed = new Promise<void>((resolve) => {
    const done = (ok: boolean) => {
      settle(ok);
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
      if (blob) URL.revokeObjectURL(blob);
      if (ok) return;
      worker.terminate();
      early = null;
      resolve();
    };
    // pdf.js's worker announces itself with { action: "ready" } (WorkerMessageHandler.initializeFromPort).
    const onMessage = (e: MessageEvent<unknown>) => {
      if (typeof e.data === 'object' && e.data !== null && 'action' in e.data && e.data.action === 'ready') done(true);
    };
    const onError = () => done(false);
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
  });
  early = { worker, failed, ready, viaBlob: blob !== undefined };
  return early;
}
