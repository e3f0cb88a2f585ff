import { defineConfig } from '@playwright/test';
// @ts-expect-error plain ESM helper shared with the wtr config
import { chromiumPath, CHROMIUM_ARGS } from './scripts/chromium.mjs';
// The demo pages' origins (another site's page embedding the widgets), one per parallel worker.
import { DEMO_PORT, DEMO_PORTS } from './tests/e2e/helpers';

const port = Number(process.env.E2E_PORT ?? 18931);
const dataDir = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';

/** End-to-end against the built product (`npm run build` first), on a fresh data folder. */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: '.artifacts/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'zh-CN',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: `rm -rf ${dataDir} && node dist/server/main.js`,
    url: `http://127.0.0.1:${port}/api/v1/`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      CSAI_DATA_DIR: dataDir,
      CSAI_DEV_OUTBOX: '1',
      CSAI_PASSWORD_COST: '12',
      CSAI_LOG_LEVEL: 'warn',
      CSAI_PUBLIC_URL: `http://127.0.0.1:${port}`,
      CSAI_CORS_ORIGINS: Array.from({ length: DEMO_PORTS }, (_, i) => `http://127.0.0.1:${DEMO_PORT + i}`).join(','),
      // The local engine streams slowly enough for tests/e2e/ask.spec.ts to reload mid-answer.
      CSAI_LOCAL_ENGINE_DELAY_MS: '700',
    },
  },
});
