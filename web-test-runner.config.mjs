// Browser tests in Debian's Chromium. Each test file is bundled with esbuild (on React 19, as in
// the Vite build), see STACK-NOTES.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromiumPath, CHROMIUM_ARGS } from './scripts/chromium.mjs';

// The elements' class rules generated ahead of time, as the Vite build does (scripts/vite-widget-css.ts).
const widgetCssDefine = await (async () => {
  const out = path.join(process.cwd(), '.tmp/wtr-widget-css.mjs');
  await build({ entryPoints: [path.join(process.cwd(), 'scripts/vite-widget-css.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: out, logLevel: 'silent' });
  const { widgetCss } = await import(`${out}?${Date.now()}`);
  return JSON.stringify(widgetCss(process.cwd()));
})();

const bundleTests = {
  name: 'bundle-tests',
  async serve(context) {
    const file = decodeURIComponent(context.path);
    if (!/\.browser\.test\.tsx?$/.test(file)) return undefined;
    const result = await build({
      entryPoints: [path.join(process.cwd(), file)],
      bundle: true,
      format: 'esm',
      jsx: 'automatic',
      // The site imports CHANGELOG.md as text (Vite's `?raw`); esbuild drops the query and needs a loader.
      loader: { '.md': 'text' },
      write: false,
      sourcemap: 'inline',
      define: { 'process.env.NODE_ENV': '"development"', __CSAI_WIDGET_CSS__: widgetCssDefine },
      logLevel: 'silent',
      inject: [path.join(process.cwd(), 'tests/browser-setup.ts')],
    });
    return { body: result.outputFiles[0].text, type: 'js' };
  },
};

// Counts every test, for the closing "N passed, N failed" line of `npm test`.
const countingReporter = {
  onTestRunFinished({ sessions }) {
    let passed = 0;
    let failed = 0;
    const names = [];
    const walk = (suite, file, prefix) => {
      for (const t of suite.tests ?? []) {
        if (t.passed) passed++;
        else if (!t.skipped) { failed++; names.push(`${file} › ${prefix}${t.name}`); }
      }
      for (const s of suite.suites ?? []) walk(s, file, `${prefix}${s.name} › `);
    };
    for (const s of sessions) {
      const file = path.relative(process.cwd(), s.testFile);
      if (s.testResults) walk(s.testResults, file, '');
      if (!s.passed && !s.testResults?.tests?.length && !s.testResults?.suites?.length) { failed++; names.push(`${file} (did not run)`); }
    }
    fs.mkdirSync('.artifacts', { recursive: true });
    fs.writeFileSync('.artifacts/wtr.json', JSON.stringify({ passed, failed, names }));
  },
};

export default {
  files: ['tests/**/*.browser.test.ts', 'tests/**/*.browser.test.tsx'],
  nodeResolve: true,
  concurrency: 2,
  testFramework: { config: { timeout: 20000 } },
  testsFinishTimeout: 300000,
  plugins: [bundleTests],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    }),
  ],
  reporters: [(await import('@web/test-runner')).defaultReporter(), countingReporter],
};
