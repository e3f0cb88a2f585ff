// Setup file of the server projects (vitest.config.ts): evaluated before EACH test file, also
// where a worker runs many files in one module graph (isolate: false), so the hooks here are
// registered for every file.
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { killLeftChildren } from './children';
import { SQL_TRACE_DIR_ENV, SQL_TRACE_ENV } from '../../src/server/db/sql-trace';
import { closeLeftServers } from './left-servers';

afterAll(killLeftChildren);
// A server a file left running would go on polling its queues, and starting timers, during the
// next files of its worker.
afterAll(async () => {
  const urls = await closeLeftServers();
  if (urls.length > 0) console.warn(`closed after the file: ${urls.length} server(s) it left running`);
});

// A traced run (scripts/postgres-files.mjs --record): the statements this file makes the server
// send, in and out of this process, go to a file of its own (src/server/db/sql-trace.ts).
const traceDir = process.env[SQL_TRACE_DIR_ENV];
if (traceDir) {
  beforeAll(({}, suite) => {
    const rel = path.relative(process.cwd(), suite.file.filepath).split(path.sep).join('/');
    process.env[SQL_TRACE_ENV] = path.join(traceDir, `${rel.replaceAll('/', '__')}.txt`);
  });
}
