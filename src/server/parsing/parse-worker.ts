import { parseImage } from './image';
import { parsePdb } from './pdb';
import { parsePdf } from './pdf';
import { parseSdf } from './sdf';
import { parseMarkdown } from './markdown';
import { withTitle } from './chunks';
import type { ParseResult, ParseTask, WorkerMessage } from './protocol';

/**
 * What this process holds after a task: its V8 heap and the memory outside it (ArrayBuffers such as
 * page images, WebAssembly memory), in MB. The pool ends a worker that holds too much (worker-pool.ts).
 */
function memoryMb(): number {
  const m = process.memoryUsage();
  return Math.round((m.heapTotal + m.external) / (1024 * 1024));
}

/** The parse process (forked by worker-pool.ts): one task at a time, progress and result as messages. */
if (!process.send) throw new Error('parse-worker must run as a forked process');
// The server went away (its end of the channel closed, or a send found it closed): nothing is left
// to parse for.
const leave = () => process.exit(0);
process.on('disconnect', leave);
const send = (msg: WorkerMessage) => {
  if (process.connected) process.send?.(msg, undefined, undefined, (err: Error | null) => err && leave());
};

process.on('message', (task: ParseTask) => {
  const progress = (percent: number, text?: string) => send({ type: 'progress', taskId: task.taskId, percent, ...(text ? { text } : {}) });
  const work = (): Promise<ParseResult> => {
    switch (task.kind) {
      // A page document's first passage also carries its title's words (SDF and PDB add their own).
      case 'pdf':
        return parsePdf(task.path, progress).then((r) => ({ ...r, chunks: withTitle(r.chunks, task.title) }));
      case 'image':
        return parseImage(task.path, task.title, progress).then((r) => ({ ...r, chunks: withTitle(r.chunks, task.title) }));
      case 'sdf':
        return parseSdf(task.path, task.title, progress);
      case 'pdb':
        return parsePdb(task.path, task.title, progress);
      case 'markdown':
        return parseMarkdown(task.path, progress).then((r) => ({ ...r, chunks: withTitle(r.chunks, task.title) }));
    }
  };
  work().then(
    (result) => send({ type: 'done', taskId: task.taskId, result, memoryMb: memoryMb() }),
    (err: unknown) => send({ type: 'error', taskId: task.taskId, message: err instanceof Error ? err.message : String(err), memoryMb: memoryMb() }),
  );
});
