import { expect, test, type Page } from '@playwright/test';
import { signInOnPage, signUpThroughOutbox, uploadParsed, type TestUser } from './helpers';

// Every page is served with a strict Content-Security-Policy. The site must work under
// it: no page or element may need an inline script or style, or any other source the policy refuses.
const user: TestUser = { email: `csp${Date.now().toString(36)}@example.com`, name: '策略', password: 'Benzene-ring-6' };

/** Collects CSP violations and console errors of the page (and its frames). */
function watch(page: Page) {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy|Refused to/i.test(m.text())) problems.push(`${m.text().slice(0, 120)} @ ${m.location().url}`);
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return problems;
}

test.beforeAll(async ({ baseURL }) => signUpThroughOutbox(baseURL!, user));

test('the site runs under its own CSP: pages, the question box and the chemical editor', async ({ page }) => {
  test.setTimeout(240_000);
  const problems = watch(page);
  const res = await page.goto('/auth/sign-in');
  expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'self'");
  await signInOnPage(page, user);
  for (const route of ['/knowledges', '/channels', '/public_folder', '/test', '/']) {
    await page.goto(route);
    await page.waitForLoadState('networkidle');
  }
  const ask = page.locator('csai-ask');
  await ask.locator('[part~="chem-editor"]').click();
  const editor = ask.locator('csai-chem-editor');
  await expect(editor.locator('[part~="dialog"]')).toBeVisible();
  await expect(editor.locator('[part~="status"]')).toHaveCount(0, { timeout: 150_000 });
  await expect(editor.locator('[part~="load-error"]')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('documents open under the CSP: a PDF in pdf.js, an SDF in 3D with its molecule drawings', async ({ page }) => {
  test.setTimeout(240_000);
  const problems = watch(page);
  await signInOnPage(page, user);
  const ids: string[] = [];
  for (const [name, mimeType] of [['zhlipsum.pdf', 'application/pdf'], ['cdk2.sdf', 'chemical/x-mdl-sdfile']] as const) ids.push(await uploadParsed(page, { name, mimeType }));
  await page.goto(`/pdf_viewer?docId=${ids[0]}`);
  await expect(page.locator('csai-pdf-viewer canvas').first()).toBeVisible({ timeout: 30_000 });
  await page.goto(`/pdf_viewer?docId=${ids[1]}`);
  await expect(page.locator('csai-molecule-3d [part~="atoms"]')).toContainText('个原子', { timeout: 30_000 });
  await expect(page.locator('csai-molecule').first().locator('[part~="drawing"] svg')).toHaveCount(1, { timeout: 30_000 });
  expect(problems).toEqual([]);
});
