// The embed weight: JavaScript a foreign page downloads for the loader alone and for an
// interactive <csai-status>, gzip, next to an empty Vite React page built in the same run.
// Target: loader <= 5 KB gzip. The element figure has no target of its own; it is the floor every
// React element pays (React, twind, i18next, zod) before its own code — issue 5 holds a fully
// interactive <csai-ask> to 135 KB. Needs `npm run build` first (dist/web).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
// @ts-expect-error plain ESM helper shared with the test configs
import { chromiumPath, CHROMIUM_ARGS } from '../scripts/chromium.mjs';
// @ts-expect-error plain ESM script shared with `npm run demo`
import { startDemoServer } from '../scripts/demo-server.mjs';
import { freePort, root, spawnServer, type Figure } from './lib';

const LOADER_BUDGET_KB = 5;

/** An empty Vite React page rendering one heading, built and served from a temp folder. */
export async function baselinePage(): Promise<{ url: string; close(): Promise<void> }> {
  const dir = path.join(root, '.tmp/bench-widgets-baseline');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><meta charset="UTF-8"><title>baseline</title></head><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>');
  fs.writeFileSync(path.join(dir, 'main.tsx'), "import { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')!).render(<h1>Hello</h1>);\n");
  const out = path.join(dir, 'dist');
  await build({
    root: dir,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    define: { 'process.env.NODE_ENV': '"production"' },
    build: { outDir: out, emptyOutDir: true, target: 'es2022', rolldownOptions: { output: { minify: true } } },
  });
  const server = http.createServer((req, res) => {
    const file = path.join(out, req.url === '/' ? 'index.html' : decodeURIComponent(req.url!.split('?')[0]!));
    if (!file.startsWith(out) || !fs.existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': file.endsWith('.js') ? 'text/javascript' : 'text/html' }).end(fs.readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`, close: () => new Promise((r) => server.close(() => r())) };
}

/** Gzip bytes of every script a cold page load fetches until `ready` holds. */
export async function scriptBytes(browser: Browser, url: string, ready: string, { bypassCSP = false } = {}): Promise<number> {
  // bypassCSP: a page with a strict CSP would refuse the evaluated readiness check (not the element).
  const context = await browser.newContext({ bypassCSP });
  const page = await context.newPage();
  const sizes: Promise<number>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') sizes.push(res.body().then((b) => zlib.gzipSync(b, { level: 9 }).length, () => 0));
  });
  await page.goto(url);
  await page.waitForFunction(ready);
  const total = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
  await context.close();
  return total;
}

export async function run(): Promise<Figure[]> {
  if (!fs.existsSync(path.join(root, 'dist/web/widgets/csai.js'))) throw new Error('dist/web is missing: run `npm run build` first');
  const demoPort = await freePort();
  const demoOrigin = `http://127.0.0.1:${demoPort}`;
  const csai = await spawnServer('src/server/main.ts', { CSAI_WEB_DIR: path.join(root, 'dist/web'), CSAI_CORS_ORIGINS: demoOrigin });
  const demo: { url: string; close(): Promise<void> } = await startDemoServer({ port: demoPort, csaiOrigin: csai.url });
  const baseline = await baselinePage();
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const base = await scriptBytes(browser, baseline.url, "document.querySelector('h1') !== null");
    const loader = await scriptBytes(browser, `${demo.url}/later.html`, "customElements.get('csai-status') !== undefined");
    const status = await scriptBytes(browser, `${demo.url}/index.html`, "document.querySelector('csai-status')?.shadowRoot?.querySelector('[part~=pill]')?.dataset.state === 'online'");
    const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
    return [
      { name: `embed loader on a foreign page, gzip (budget ${LOADER_BUDGET_KB} KB)`, value: kb(loader), baseline: kb(base), ratio: loader / base, target: { op: '<=', ratio: (LOADER_BUDGET_KB * 1024) / base } },
      { name: 'interactive <csai-status> on a foreign page, gzip (loader + element)', value: kb(status), baseline: kb(base), ratio: status / base },
    ];
  } finally {
    await browser.close();
    await baseline.close();
    await demo.close();
    await csai.stop();
  }
}
