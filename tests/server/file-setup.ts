// Setup file of the server projects (vitest.config.ts): evaluated before EACH test file, also
// where a worker runs many files in one module graph (isolate: false), so the hooks here are
// registered for every file.
import { afterAll } from 'vitest';
import { killLeftChildren } from './children';
import { closeLeftServers } from './left-servers';

afterAll(killLeftChildren);
// A server a file left running would go on polling its queues, and starting timers, during the
// next files of its worker.
afterAll(async () => {
  const urls = await closeLeftServers();
  if (urls.length > 0) console.warn(`closed after the file: ${urls.length} server(s) it left running`);
});
