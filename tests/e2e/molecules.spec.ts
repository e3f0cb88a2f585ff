import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { csrfHeaders, expectAccessible, signUpThroughOutbox, TEST_DOCS, uploadParsed } from './helpers';

// The document viewer, the molecule elements and the chemical editor against the built product,
// with real files nobody here wrote (Debian packages, `node scripts/fetch-test-docs.mjs`).
const stamp = Date.now().toString(36);
const user = { email: `mol-${stamp}@example.com`, name: '赵药化', password: 'Pyridine-ring-5' };

/** Signs up, activates (dev outbox) and signs in, all through the API of the page's own context. */
async function signedIn(page: Page, baseURL: string) {
  await signUpThroughOutbox(baseURL, user);
  const headers = await csrfHeaders(page.request);
  const signIn = await page.request.post('/api/v1/auth/sign-in', { headers, data: { account: user.email, password: user.password } });
  expect(signIn.status(), await signIn.text()).toBe(200);
}

/** Signs in the account the first test created (the tests run in order). */
async function signIn(page: Page) {
  const headers = await csrfHeaders(page.request);
  const res = await page.request.post('/api/v1/auth/sign-in', { headers, data: { account: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
}


/** Whether an element's drawing box holds a drawn SVG (parsed from the server's answer). */
const drawn = (page: Page, id: string) =>
  expect.poll(() => page.locator(id).evaluate((el) => el.shadowRoot?.querySelector('[part~="drawing"] > svg')?.querySelectorAll('path').length ?? 0), { timeout: 60_000, message: id }).toBeGreaterThan(3);

/** Puts an element on a page of the site (same origin: the session cookie goes along). */
async function place(page: Page, html: string) {
  await page.evaluate((markup) => {
    const box = document.createElement('div');
    box.id = 'e2e-box';
    box.style.cssText = 'position:fixed;inset:0;z-index:9999;background:#fff;padding:8px';
    box.innerHTML = markup;
    document.body.append(box);
  }, html);
}

test.describe.configure({ mode: 'serial' });

test('a PDB and an SDF document open in the 3D viewer; structures draw through the real RDKit', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  for (const f of ['5dpv.pdb', 'cdk2.sdf', 'zhnumber.pdf']) expect(fs.existsSync(path.join(TEST_DOCS, f)), `${f}: run node scripts/fetch-test-docs.mjs`).toBe(true);
  await signedIn(page, baseURL!);
  const pdb = await uploadParsed(page, { name: '5dpv.pdb', mimeType: 'chemical/x-pdb' });
  const sdf = await uploadParsed(page, { name: 'cdk2.sdf', mimeType: 'chemical/x-mdl-sdfile' });
  await page.goto('/');

  await place(page, `<csai-molecule-3d id="pdb" doc-id="${pdb}" style="height:360px"></csai-molecule-3d><csai-molecule-3d id="sdf" doc-id="${sdf}" style="height:300px"></csai-molecule-3d>`);
  const pdbView = page.locator('#pdb');
  await expect(pdbView.locator('[part~="atoms"]')).toContainText('个原子', { timeout: 30_000 });
  await expect(pdbView.locator('[part~="canvas"] canvas')).toHaveCount(1);
  await expect(pdbView.locator('[part~="style"]')).toHaveValue('cartoon');
  await expect(pdbView.locator('[part~="ligand"]')).toBeEnabled();
  await pdbView.locator('[part~="ligand"]').click();
  await pdbView.locator('[part~="style"]').selectOption('stick');
  await expect(page.locator('#sdf [part~="style"]')).toHaveValue('stick', { timeout: 30_000 });
  await expect(page.locator('#sdf [part~="atoms"]')).toContainText('个原子');
  await expectAccessible(page, '#pdb');

  // 2D drawings: a drug SMILES, an SDF record by mol-key, and a bad SMILES with the server's message.
  await page.evaluate(() => document.getElementById('e2e-box')?.remove());
  await place(page, `<csai-molecule id="aspirin" smiles="CC(=O)Oc1ccccc1C(=O)O" caption></csai-molecule><csai-molecule id="rec" mol-key="${sdf}:1"></csai-molecule><csai-molecule id="bad" smiles="C1CC(("></csai-molecule>`);
  await drawn(page, '#aspirin');
  await expect(page.locator('#aspirin [part~="formula"]')).toHaveText('分子式 C9H8O4');
  await drawn(page, '#rec');
  await expect(page.locator('#bad [part~="error"]')).toContainText('结构绘制失败：');
  await expectAccessible(page, '#aspirin');
});

test('a real PDF opens in /pdf_viewer, page 7 is reachable, a search finds text, a cited box is outlined', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  const doc = await uploadParsed(page, { name: 'zhnumber.pdf', mimeType: 'application/pdf' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/pdf_viewer?docId=${doc}`);
  const viewer = page.locator('csai-pdf-viewer');
  await expect(viewer.locator('[part~="page-count"]')).toHaveText('/ 32', { timeout: 30_000 });
  await expect(viewer.locator('[data-page-number="1"]')).toHaveAttribute('data-rendered', 'true');
  await viewer.locator('[part~="page-input"]').fill('7');
  await viewer.locator('[part~="page-input"]').press('Enter');
  await expect(viewer.locator('[data-page-number="7"]')).toHaveAttribute('data-rendered', 'true');
  await expect(viewer.locator('[data-page-number="7"]')).toBeInViewport();
  await expect(viewer.locator('[part~="page-input"]')).toHaveValue('7');
  await viewer.locator('[part~="search-input"]').fill('zhnumber');
  await viewer.locator('[part~="search-input"]').press('Enter');
  await expect(viewer.locator('[part~="search-status"]')).toContainText('共', { timeout: 30_000 });
  await expect(viewer.locator('[part~="search-match-current"]').first()).toBeInViewport();
  await expectAccessible(page, 'csai-pdf-viewer');

  await page.goto(`/pdf_viewer?docId=${doc}&page=7&highlight=${encodeURIComponent('72,400,500,460')}`);
  await expect(viewer.locator('[part~="citation"]')).toBeInViewport({ timeout: 30_000 });
  await expect(viewer.locator('[data-page-number="7"] [part~="citation"]')).toHaveCount(1);
});

test('the chemical editor loads Ketcher on open, and its SMILES draws as a structure', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto('/');
  const ketcherLoads: string[] = [];
  page.on('request', (r) => {
    if (/ketcher/i.test(r.url())) ketcherLoads.push(r.url());
  });
  await place(page, '<csai-chem-editor id="ed"></csai-chem-editor><div id="out"></div>');
  await page.evaluate(() => {
    document.getElementById('ed')!.addEventListener('csai-chem-smiles', (e) => {
      const mol = document.createElement('csai-molecule');
      mol.id = 'drawn';
      mol.setAttribute('smiles', (e as CustomEvent<{ smiles: string }>).detail.smiles);
      mol.setAttribute('caption', '');
      document.getElementById('out')!.append(mol);
    });
  });
  await expect(page.locator('#ed [part~="dialog"]')).toHaveCount(1);
  expect(ketcherLoads).toEqual([]); // nothing of Ketcher before the dialog opens
  await page.evaluate(() => (document.getElementById('ed') as HTMLElement & { open(s?: string): void }).open('CC(=O)Oc1ccccc1C(=O)O'));
  await expect(page.locator('#ed [part~="status"]')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.locator('#ed [part~="load-error"]')).toHaveCount(0);
  expect(ketcherLoads.length).toBeGreaterThan(0);
  // The starting structure went into Ketcher; insert takes it back out as SMILES.
  const frame = page.frameLocator('#ed >> [part~="frame"]');
  await expect(frame.locator('svg text').filter({ hasText: 'O' }).first()).toBeVisible({ timeout: 60_000 });
  await page.locator('#ed [part~="insert"]').click();
  await drawn(page, '#drawn');
  // Ketcher writes the same structure its own way; RDKit gives aspirin's formula back.
  expect(await page.locator('#drawn').getAttribute('smiles')).toMatch(/O/);
  await expect(page.locator('#drawn [part~="formula"]')).toHaveText('分子式 C9H8O4');
  await expect(page.locator('#ed [part~="dialog"]')).not.toBeVisible();
});
