import os from 'node:os';
import type { Writable } from 'node:stream';

/** Log bytes waiting for stdout at most; past this, lines are dropped (and counted) rather than kept. */
export const LOG_BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * The server's log destination: lines go to a stream (stdout) without ever blocking the
 * event loop or growing without bound. pino's default destination writes stdout synchronously and,
 * when a pipe is full because its reader stopped (a stuck log shipper), retries in a sleep loop on
 * the main thread — requests stop, and so does shutdown. Here a line is handed to the stream only
 * while less than `limit` bytes wait in it; otherwise it is dropped and counted, and once the
 * reader has caught up (the stream drains) one warning line says how many were lost. A stream that
 * failed (EPIPE: the reader went away) is not written again.
 */
export function boundedLogStream(out: Writable = process.stdout, limit = LOG_BUFFER_BYTES) {
  let dropped = 0;
  let total = 0;
  let broken = false;
  let awaitingDrain = false;
  out.on('error', () => {
    broken = true;
  });
  const report = () => {
    if (!dropped || broken) return;
    const line = JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, hostname: os.hostname(), dropped, msg: `${dropped} log lines were dropped: stdout did not take them in time` });
    dropped = 0;
    out.write(`${line}\n`);
  };
  const onDrain = () => {
    awaitingDrain = false;
    report();
  };
  return {
    write(line: string) {
      if (broken || out.destroyed || !out.writable) {
        dropped++;
        total++;
        return;
      }
      if (out.writableLength + Buffer.byteLength(line) > limit) {
        dropped++;
        total++;
        if (!awaitingDrain) {
          awaitingDrain = true;
          out.once('drain', onDrain);
        }
        return;
      }
      report();
      out.write(line);
    },
    /** Lines dropped since the last report. */
    dropped: () => dropped,
    /** Lines dropped since the server started. */
    droppedTotal: () => total,
  };
}
