// The weight of a fully interactive <csai-ask> on a foreign page — every script the page
// fetches (loader, element shell, React, twind, i18n, zod, the question box) until the box is
// ready to type in, gzip, against an empty Vite React page built in the same run. Response schemas
// (zod) load with the first call, not before the box is interactive.
// Target: at most 135 KB gzip in all (on real React 19). Needs `npm run build` first (dist/web).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
// @ts-expect-error plain ESM helper shared with the test configs
import { chromiumPath, CHROMIUM_ARGS } from '../scripts/chromium.mjs';
// @ts-expect-error plain ESM script shared with `npm run demo`
import { startDemoServer } from '../scripts/demo-server.mjs';
import { freePort, root, spawnServer, type Figure } from './lib';
import { baselinePage, scriptBytes } from './widgets.bench';

const ASK_BUDGET_KB = 135;

/** Gzip bytes of the scripts loaded until the box is interactive, then after its first call (the tool list on hover). */
async function askBytes(browser: Browser, url: string): Promise<{ interactive: number; afterFirstCall: number }> {
  const context = await browser.newContext({ bypassCSP: true }); // the readiness checks are evaluated in the page
  const page = await context.newPage();
  const sizes: Promise<number>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') sizes.push(res.body().then((b) => zlib.gzipSync(b, { level: 9 }).length, () => 0));
  });
  const sum = async () => (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
  await page.goto(url);
  await page.waitForFunction("(() => { const r = document.querySelector('#ask-stay')?.shadowRoot; return !!r?.querySelector('[part~=input]') && !!r.querySelector('[part~=toggle-tools]'); })()");
  await page.waitForLoadState('networkidle');
  const interactive = await sum();
  await page.locator('#ask-stay [part~="toggle-tools"]').hover();
  await page.waitForFunction("!!document.querySelector('#ask-stay')?.shadowRoot?.querySelector('[part~=tool-group]')");
  await page.waitForLoadState('networkidle');
  const afterFirstCall = await sum();
  await context.close();
  return { interactive, afterFirstCall };
}

export async function run(): Promise<Figure[]> {
  if (!fs.existsSync(path.join(root, 'dist/web/widgets/csai.js'))) throw new Error('dist/web is missing: run `npm run build` first');
  const demoPort = await freePort();
  const csai = await spawnServer('src/server/main.ts', { CSAI_WEB_DIR: path.join(root, 'dist/web'), CSAI_CORS_ORIGINS: `http://127.0.0.1:${demoPort}` });
  const demo: { url: string; close(): Promise<void> } = await startDemoServer({ port: demoPort, csaiOrigin: csai.url });
  const baseline = await baselinePage();
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const base = await scriptBytes(browser, baseline.url, "document.querySelector('h1') !== null");
    // Interactive: the text area and the toggles are there (typing and toggles work); the first
    // call (here the tool list, on hover) then loads zod and the contract.
    const ask = await askBytes(browser, `${demo.url}/ask.html`);
    const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
    return [
      { name: `interactive <csai-ask> on a foreign page, gzip (budget ${ASK_BUDGET_KB} KB)`, value: kb(ask.interactive), baseline: kb(base), ratio: ask.interactive / base, target: { op: '<=', ratio: (ASK_BUDGET_KB * 1024) / base } },
      { name: '<csai-ask> after its first call (zod and the contract loaded), gzip', value: kb(ask.afterFirstCall), baseline: kb(base), ratio: ask.afterFirstCall / base },
    ];
  } finally {
    await browser.close();
    await baseline.close();
    await demo.close();
    await csai.stop();
  }
}
