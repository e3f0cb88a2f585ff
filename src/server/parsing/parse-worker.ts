import { parseImage } from './image';
import { parsePdb } from './pdb';
import { parsePdf } from './pdf';
import { parseSdf } from './sdf';
import { parseMarkdown } from './markdown';
import { withTitle } from './chunks';
import fs from 'node:fs';
import { keptLabelBlocks, readStructures } from './chemistry/stage';
import { TURN_FD, type ParseResult, type PoolMessage, type WorkerMessage } from './protocol';

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

/**
 * Waits, blocking this process, for the pool's token `serial` on the turn pipe (the pool
 * pauses a parse at a page boundary to let another owner's document run). The parse's state stays
 * in memory meanwhile. Tokens of earlier pauses (asked and resumed before this process saw them)
 * are skipped. The pipe closing means the server is gone.
 */
function waitForTurn(serial: number) {
  const token = Buffer.alloc(4);
  const nap = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    let got = 0;
    while (got < 4) {
      let n: number;
      try {
        n = fs.readSync(TURN_FD, token, got, 4 - got, null);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
        Atomics.wait(nap, 0, 0, 20);
        continue;
      }
      if (n === 0) leave();
      got += n;
    }
    if (token.readUInt32LE(0) >= serial) return;
  }
}

/** The task being parsed, and the pause the pool asked of it (the serial to wait for). */
let current: number | undefined;
let pauseAsked: number | undefined;

process.on('message', (msg: PoolMessage) => {
  if (msg.type === 'pause') {
    if (msg.taskId === current) pauseAsked = msg.serial;
    return;
  }
  const task = msg;
  current = task.taskId;
  pauseAsked = undefined;
  // Parsers report progress at page (or record) boundaries: where a pause takes effect.
  const progress = (percent: number, text?: string) => {
    send({ type: 'progress', taskId: task.taskId, percent, ...(text ? { text } : {}) });
    if (pauseAsked !== undefined && current === task.taskId) {
      const serial = pauseAsked;
      pauseAsked = undefined;
      waitForTurn(serial);
    }
  };
  const work = (): Promise<ParseResult> => {
    // The structure step after the text (parsing/structure-job.ts).
    if (task.structures) return readStructures(task.kind === 'image' ? 'image' : 'pdf', task.path, task.structures, progress);
    switch (task.kind) {
      // A page document's first passage also carries its title's words (SDF and PDB add their own).
      // The label blocks go back to the pool for the structure job (parse-job.ts keeps them in its payload).
      case 'pdf':
        return parsePdf(task.path, progress).then((r) => ({ ...r, chunks: withTitle(r.chunks, task.title), labelBlocks: keptLabelBlocks(r.labelBlocks) }));
      case 'image':
        return parseImage(task.path, task.title, progress).then((r) => ({ ...r, chunks: withTitle(r.chunks, task.title), labelBlocks: keptLabelBlocks(r.labelBlocks) }));
      case 'sdf':
        return parseSdf(task.path, task.title, progress);
      case 'pdb':
        return parsePdb(task.path, task.title, progress);
      case 'markdown':
        return parseMarkdown(task.path, progress).then((r) => ({ ...r, chunks: withTitle(r.chunks, task.title) }));
    }
  };
  const end = () => {
    current = undefined;
    pauseAsked = undefined;
  };
  work().then(
    (result) => {
      end();
      send({ type: 'done', taskId: task.taskId, result, memoryMb: memoryMb() });
    },
    (err: unknown) => {
      end();
      send({ type: 'error', taskId: task.taskId, message: err instanceof Error ? err.message : String(err), memoryMb: memoryMb() });
    },
  );
});
