import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
