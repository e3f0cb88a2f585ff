import { expect, test, type Page } from '@playwright/test';

/** Console errors (the browser prints every failed request as one), uncaught errors and 4xx/5xx answers. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  return problems;
}

test('a signed-out visitor’s first load lands on sign-in without a failed request or a console error', async ({ page }) => {
  const problems = watch(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/sign-in$/);
  await expect(page.getByRole('button', { name: '登录', exact: true })).toBeVisible();
  // Work deferred past the first paint (the environment check, the elements' loader) has run too.
  await page.waitForLoadState('networkidle');
  expect(problems).toEqual([]);
});

test('a signed-out visitor opening an app page directly is sent to sign-in quietly', async ({ page }) => {
  const problems = watch(page);
  await page.goto('/knowledges');
  await expect(page).toHaveURL(/\/auth\/sign-in$/);
  await page.waitForLoadState('networkidle');
  expect(problems).toEqual([]);
});
