// A worker thread for bench/knowledge.bench.ts: raw pdf.js text extraction with pdf.js loaded as
// the parse workers load it (src/server/parsing/pdfjs.ts: the built-ins its polyfills replace are
// given back), so the parse figure can also be read against the same pdf.js. Answers each file
// path it is sent with pages/s.
import { parentPort } from 'node:worker_threads';
import { getDocument } from '../src/server/parsing/pdfjs';
import { rawExtraction } from './pdfjs-raw';

const port = parentPort;
if (!port) throw new Error('pdfjs-raw-worker must run in a worker thread');
port.on('message', (file: string) => {
  void rawExtraction(getDocument, file).then((pagesPerSecond) => port.postMessage(pagesPerSecond));
});
