import { parentPort } from 'node:worker_threads';
import { extractArticle } from './extract';

/** An extraction thread (extract-pool.ts): one page at a time, the article or the error's message back. */
const port = parentPort;
if (!port) throw new Error('extract-worker must run in a worker thread');

port.on('message', (task: { id: number; html: string; url: string }) => {
  try {
    port.postMessage({ id: task.id, ok: true, article: extractArticle(task.html, new URL(task.url)) });
  } catch (err) {
    port.postMessage({ id: task.id, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
