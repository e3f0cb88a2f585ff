/**
 * pdf.js for Node (its legacy build, DESIGN §9), loaded once per thread through here.
 *
 * The legacy build (both halves, pdf.mjs and pdf.worker.mjs) carries core-js polyfills that
 * replace built-ins Node already has, for the whole thread: Array.prototype.push becomes a
 * JavaScript loop (about twice as slow for every array of every module, pdf.js's own text
 * extraction included: a tenth of a parse), and JSON.parse, JSON.stringify and
 * Function.prototype.toString are wrapped. Node 20's own are put back as soon as the module
 * has loaded; pdf.js needs none of the polyfilled behaviour. The import is dynamic so that this
 * runs first: a bundler hoists static imports of external packages above all bundled code.
 * Every import of pdf.js in the server (and in bench/knowledge.bench.ts's baseline) goes
 * through this module.
 */
import type { DocumentInitParameters } from 'pdfjs-dist/types/src/display/api';
import { SameThreadPort } from './pdf-port';

const natives = [
  [Array.prototype, 'push', Array.prototype.push],
  [JSON, 'parse', JSON.parse],
  [JSON, 'stringify', JSON.stringify],
  [Function.prototype, 'toString', Function.prototype.toString],
] as const;

const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
// Node has no web workers: pdf.js runs its worker half in this thread ("fake worker"), importing
// pdf.worker.mjs — with core-js polyfills of its own — at the first getDocument(). It is loaded
// here instead, before the built-ins are put back; it registers itself as globalThis.pdfjsWorker,
// which pdf.js's fallback uses without importing anything; openDocument below connects to it itself.
// (The package ships no types for it.)
const workerModule: string = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
const { WorkerMessageHandler } = (await import(workerModule)) as { WorkerMessageHandler: { initializeFromPort(port: SameThreadPort): void } };

for (const [owner, name, native] of natives) {
  // Unchanged when pdf.js was loaded before this module ran (its polyfills are then all there is).
  if (Reflect.get(owner, name) !== native) Object.defineProperty(owner, name, { value: native, writable: true, configurable: true, enumerable: false });
}

// pdf.js 5 inflates every Flate stream (each page's content, fonts, CMaps) through the web
// DecompressionStream when the global exists. In Node 20 that is a web stream over a zlib Transform
// whose work goes to the libuv pool: a zlib context, a chain of promises and two thread hops for
// each of a document's many small streams. Without the global pdf.js inflates them itself, at once,
// in this thread: the same bytes (every test PDF parses to identical results), and a parse about a
// tenth faster (bench/knowledge.bench.ts, 1.00× → 1.10× raw pdf.js text). Only pdf.js uses the
// global in the processes that load this module (parse workers).
Reflect.deleteProperty(globalThis, 'DecompressionStream');

export const { getDocument, OPS } = pdfjs;

/**
 * A document opened with pdf.js's worker half in this thread over a SameThreadPort (pdf-port.ts:
 * no deep copy of the messages that need none) instead of pdf.js's fake worker. `close` ends the
 * document and its worker half.
 */
export function openDocument(params: Omit<DocumentInitParameters, 'worker'>) {
  const port = new SameThreadPort();
  WorkerMessageHandler.initializeFromPort(port);
  const worker = pdfjs.PDFWorker.create({ port: port as unknown as Worker });
  const task = pdfjs.getDocument({ ...params, worker });
  return {
    task,
    async close() {
      await task.destroy();
      worker.destroy();
      port.terminate();
    },
  };
}
export type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
export type { TextItem } from 'pdfjs-dist/types/src/display/api';
