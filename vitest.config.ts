import fs from 'node:fs';
import { defineConfig } from 'vitest/config';
import { isolatedTestFiles } from './scripts/isolated-files.mjs';
import { postgresSelection } from './scripts/postgres-files.mjs';
import { LongestFirstSequencer } from './scripts/vitest-sequencer.mjs';

// Issue 14 §1: the server suite runs on SQLite (project `server`) and again on a real PostgreSQL
// (project `server-postgres`: every server test file that reaches the database, derived by
// scripts/postgres-files.mjs; tests/server/postgres-global.ts starts Debian's PostgreSQL 15).
// CSAI_TEST_DB=postgres runs the `server` project itself on PostgreSQL (any file, by hand).
const onPostgres = process.env.CSAI_TEST_DB === 'postgres';
const hasPostgres = fs.existsSync('/usr/lib/postgresql/15/bin/pg_ctl');
const SERVER_FILES = ['tests/server/**/*.test.ts', 'tests/scripts/**/*.test.ts'];
const POSTGRES_GLOBAL = 'tests/server/postgres-global.ts';
// Bundles the server once per run for the parse processes and server processes the tests start.
const BUILD_GLOBAL = 'tests/server/build-global.ts';
// postgres-global.ts puts the server's URL in this variable of the vitest process, which every
// worker inherits: the SQLite project's workers get it emptied (postgres-harness.ts reads it).
const PG_SERVER_ENV = 'CSAI_TEST_PG_SERVER';

const serverTest = {
  environment: 'node',
  pool: 'forks',
  testTimeout: 60_000,
  hookTimeout: 60_000,
  // Evaluated before each file, also in a shared module graph: the per-file clean-up hooks.
  setupFiles: 'tests/server/file-setup.ts',
  globalSetup: [BUILD_GLOBAL] as string[],
} as const;

// vitest's default is one worker fewer than the cores, i.e. ONE on CI's 2-core machine, so the
// files ran one after another although most server files mostly wait (child processes, HTTP
// servers, PostgreSQL). Files share nothing (each has its own temp folder, free ports and its own
// PostgreSQL database), so more workers than cores pays off. CSAI_TEST_WORKERS overrides it.
const MAX_WORKERS = Number(process.env.CSAI_TEST_WORKERS) || 3;
// Files that measure memory (parse workers' heaps after a large job, this process's resident size
// during a 150 MB upload streamed to S3) and need the machine to themselves: with other files'
// servers beside them the figures move by more than their limits. They run after all the others,
// one at a time (projects `server-alone` and `server-postgres-alone`). The parse-fairness file
// waits for another user's page while OCR holds every parse process: beside other files' OCR the
// machine, not the scheduler, decides when that page starts.
const ALONE_FILES = ['tests/server/parsing/parse-memory.test.ts', 'tests/server/files/s3-storage.test.ts', 'tests/server/parsing/parse-fairness.test.ts'];
// Importing the server (Fastify app, every route, tsx/vite transforms) took most of a server file's
// time when each file got a fresh module graph. The projects `server` and `server-postgres` run
// their files with isolate: false — a worker keeps its module graph from file to file. That is
// safe because each file builds its own app (helpers.ts startServer, explicit config, own temp
// folder and database), no test file mocks modules or stubs globals, environment changes are put
// back in `finally`, the few process-wide singletons (RDKit service, extraction pool, the cgroup
// probe) are caches of what the machine has, and per-file clean-up hooks live in a setup file
// (tests/server/file-setup.ts). The files that change their thread's globals (they load pdf.js,
// whose core-js polyfills stay) or say why they need it run isolated, each in a fresh process
// (projects `server-isolated`, `server-postgres-isolated`; scripts/isolated-files.mjs derives
// the list). So `--project server` alone leaves those out: run `--project 'server*'`.
// CSAI_TEST_ISOLATE=1 gives every file a fresh module graph again (to rule out a leak between files).
const ISOLATED_FILES = isolatedTestFiles().map((e) => e.file);
const SHARE_MODULES = process.env.CSAI_TEST_ISOLATE !== '1';

export default defineConfig({
  test: {
    maxWorkers: MAX_WORKERS,
    // Within each group, the longest files first, across projects (scripts/vitest-sequencer.mjs).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/core/**/*.test.ts', 'tests/contract/**/*.test.ts', 'tests/widgets/**/*.test.ts'],
          // *.browser.test.ts run in Chromium through @web/test-runner, not here.
          exclude: ['**/node_modules/**', '**/*.browser.test.ts', '**/*.browser.test.tsx'],
          environment: 'happy-dom',
        },
      },
      {
        test: {
          name: 'server',
          include: SERVER_FILES,
          exclude: ['**/node_modules/**', ...ALONE_FILES, ...ISOLATED_FILES],
          ...serverTest,
          isolate: !SHARE_MODULES,
          ...(onPostgres ? { globalSetup: [BUILD_GLOBAL, POSTGRES_GLOBAL] } : { env: { [PG_SERVER_ENV]: '' } }),
        },
      },
      {
        test: {
          name: 'server-isolated',
          include: ISOLATED_FILES.filter((f) => !ALONE_FILES.includes(f)),
          ...serverTest,
          ...(onPostgres ? { globalSetup: [BUILD_GLOBAL, POSTGRES_GLOBAL] } : { env: { [PG_SERVER_ENV]: '' } }),
        },
      },
      {
        test: {
          name: 'server-alone',
          include: ALONE_FILES,
          ...serverTest,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          env: { [PG_SERVER_ENV]: '' },
        },
      },
      // Defined only when asked for (CSAI_TEST_POSTGRES_ALL=1: npm run test:postgres, and npm test's
      // step vitest-postgres), so that a plain `vitest run` does not run the files twice. Which
      // files: those that together send every statement the whole suite sends on PostgreSQL
      // (scripts/postgres-files.mjs postgresSelection; CSAI_TEST_POSTGRES_FULL=1 runs them all).
      ...(hasPostgres && !onPostgres && process.env.CSAI_TEST_POSTGRES_ALL === '1'
        ? ((onPg: string[]) => [
            {
              test: {
                name: 'server-postgres',
                include: onPg.filter((f) => !ALONE_FILES.includes(f) && !ISOLATED_FILES.includes(f)),
                ...serverTest,
                isolate: !SHARE_MODULES,
                globalSetup: [BUILD_GLOBAL, POSTGRES_GLOBAL],
              },
            },
            {
              test: {
                name: 'server-postgres-isolated',
                include: onPg.filter((f) => !ALONE_FILES.includes(f) && ISOLATED_FILES.includes(f)),
                ...serverTest,
                globalSetup: [BUILD_GLOBAL, POSTGRES_GLOBAL],
              },
            },
            {
              test: {
                name: 'server-postgres-alone',
                include: onPg.filter((f) => ALONE_FILES.includes(f)),
                ...serverTest,
                maxWorkers: 1,
                sequence: { groupOrder: 1 },
                globalSetup: [BUILD_GLOBAL, POSTGRES_GLOBAL],
              },
            },
          ])([...postgresSelection().keys()])
        : []),
    ],
  },
});
