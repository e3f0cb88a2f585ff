import { defineConfig } from 'vitest/config';
import { preactAliasEntries } from './scripts/preact-aliases.mjs';

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
        },
      },
    ],
  },
});
