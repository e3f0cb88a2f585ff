import { defineConfig } from 'vitest/config';
import { preactAliasEntries } from './scripts/preact-aliases.mjs';

// CSAI_TEST_DB=postgres runs the server tests on a real PostgreSQL (tests/server/postgres-global.ts).
const onPostgres = process.env.CSAI_TEST_DB === 'postgres';

export default defineConfig({
  test: {
    projects: [
      {
        // The browser code runs on preact/compat, as in the Vite build.
        resolve: { alias: preactAliasEntries },
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
          include: ['tests/server/**/*.test.ts', 'tests/scripts/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          ...(onPostgres ? { globalSetup: ['tests/server/postgres-global.ts'] } : {}),
        },
      },
    ],
  },
});
