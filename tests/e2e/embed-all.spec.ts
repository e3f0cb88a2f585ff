import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signInOnPage, signUpThroughOutbox, startDemo, TEST_DOCS, uploadParsed } from './helpers';

// Every element on one foreign page (demo/embed-all.html on its own origin, allowed by
// CSAI_CORS_ORIGINS): a CSP without 'unsafe-inline' / 'unsafe-eval', `* { all: unset }` in the
// page's stylesheet, the user signed in on CSAI (same site: 127.0.0.1 on two ports). Each element
// must do its work with the user's session and leave the console clean.
let demo: { url: string; close: () => Promise<void> };
let csai: string;
const stamp = Date.now().toString(36);
const user = { email: `embed-all-${stamp}@example.com`, name: '孙研究员', password: 'Quinoline-ring-6' };

test.beforeAll(async ({ baseURL }, testInfo) => {
  csai = baseURL!;
  demo = await startDemo(csai, testInfo.parallelIndex);
  await signUpThroughOutbox(csai, user);
});
test.afterAll(async () => demo?.close());

/** Chromium's software GL reports its own slow paths while 3Dmol draws: the driver's, not the page's. */
const GL_DRIVER = /^\[\.WebGL-0x[0-9a-f]+\]GL Driver Message \(OpenGL, Performance/;

function watchProblems(page: Page) {
  const problems: string[] = [];
  page.on('console', (m) => {
    if ((m.type() === 'error' || m.type() === 'warning') && !GL_DRIVER.test(m.text())) problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}


test('every element works on a foreign origin under a strict CSP and a hostile stylesheet, with a clean console', async ({ page }) => {
  test.setTimeout(240_000);
  for (const f of ['zhlipsum.pdf', 'cdk2.sdf']) expect(fs.existsSync(path.join(TEST_DOCS, f)), `${f}: run node scripts/fetch-test-docs.mjs`).toBe(true);
  await signInOnPage(page, user, csai);
  const pdf = await uploadParsed(page, { name: 'zhlipsum.pdf', mimeType: 'application/pdf' }, { origin: csai });
  const sdf = await uploadParsed(page, { name: 'cdk2.sdf', mimeType: 'chemical/x-mdl-sdfile' }, { origin: csai });

  const problems = watchProblems(page);
  // The page's scripts (the chemical editor's frame is a document of its own).
  const scripts: Promise<string>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script' && res.request().frame() === page.mainFrame()) scripts.push(res.text().catch(() => ''));
  });
  await page.goto(`${demo.url}/embed-all.html?pdf=${pdf}&sdf=${sdf}`);

  // <csai-knowledge>: the user's folders, the question folder among them.
  await expect(page.locator('#knowledge [part~="folder"]').first()).toBeVisible({ timeout: 30_000 });
  // <csai-pdf-viewer doc-id>: the record and the file with the user's session; a page drawn.
  await expect(page.locator('#viewer [data-rendered]').first()).toBeVisible({ timeout: 60_000 });
  // <csai-molecule>: drawn by the server's RDKit, its colours applied without inline style attributes.
  await expect
    .poll(() => page.locator('#molecule').evaluate((el) => el.shadowRoot?.querySelector('[part~="drawing"] svg')?.querySelectorAll('path').length ?? 0), { timeout: 60_000 })
    .toBeGreaterThan(3);
  await expect(page.locator('#molecule [part~="formula"]')).toHaveText('分子式 C9H8O4');
  // <csai-molecule-3d doc-id> of an SDF document.
  await expect(page.locator('#molecule3d [part~="atoms"]')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('#molecule3d [part~="error"]')).toHaveCount(0);

  // <csai-ask navigate="false"> → the answer runs here; <csai-channels> on the page lists the new conversation.
  const channelNames = page.locator('#channels [part~="channel-name"]');
  const before = await channelNames.count();
  const input = page.locator('#ask [part~="input"]');
  await input.fill('对乙酰氨基酚的代谢途径');
  // The answering state (a stop button) may be short-lived: an observer notes that it showed.
  await page.locator('#ask').evaluate((host) => {
    const root = host.shadowRoot!;
    new MutationObserver(() => {
      if (root.querySelector('[part~="stop"]')) host.setAttribute('data-saw-stop', '');
    }).observe(root, { subtree: true, childList: true });
  });
  await input.press('Enter');
  await expect(page.locator('#events')).toContainText('csai-submitted: {"channelId":"');
  expect(page.url()).toContain(`${demo.url}/embed-all.html`);
  await expect(channelNames).toHaveCount(before + 1, { timeout: 30_000 });
  await expect(channelNames.first()).toHaveText('对乙酰氨基酚的代谢途径');
  await expect(page.locator('#ask [part~="send"]')).toBeVisible({ timeout: 90_000 });
  await expect(page.locator('#ask')).toHaveAttribute('data-saw-stop', '');

  // <csai-chem-editor>: Ketcher in its frame from the CSAI origin.
  await page.evaluate(() => (document.getElementById('editor') as HTMLElement & { open(s?: string): void }).open('c1ccccc1O'));
  await expect(page.locator('#editor [part~="status"]')).toHaveCount(0, { timeout: 90_000 });
  await expect(page.locator('#editor [part~="load-error"]')).toHaveCount(0);

  // Nothing reported a failure, nothing broke the page's policy.
  await expect(page.locator('#events')).not.toContainText('csai-error');
  expect(problems).toEqual([]);
  // React and ReactDOM (both hold the element symbol) arrive once, in one shared chunk, for every element.
  const withReact = (await Promise.all(scripts)).filter((text) => text.includes('react.transitional.element'));
  expect(withReact).toHaveLength(1);
  // The elements' styles stay in their shadow roots.
  expect(await page.evaluate(() => ({ sheets: document.styleSheets.length, adopted: document.adoptedStyleSheets.length, styled: document.querySelectorAll('[style]').length }))).toEqual({ sheets: 1, adopted: 0, styled: 0 });
});
