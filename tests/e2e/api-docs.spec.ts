import { expect, test } from '@playwright/test';

// /api/docs/ is served under a strict CSP of its own. The Swagger UI must still work
// under it in a real browser: it loads its scripts, renders the API and shows no CSP violation.
test('the API documentation renders under its CSP, with no violation', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text().slice(0, 200));
  });
  page.on('pageerror', (e) => problems.push(e.message));
  const res = await page.goto('/api/docs/');
  expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'self'");
  expect(res?.headers()['x-frame-options']).toBe('SAMEORIGIN');
  await expect(page.locator('.swagger-ui .info .title')).toContainText('CSAI API');
  // The operations are listed, and one opens.
  const operation = page.locator('.opblock').first();
  await expect(operation).toBeVisible();
  await operation.locator('.opblock-summary').click();
  await expect(operation.locator('.opblock-body')).toBeVisible();
  expect(problems).toEqual([]);
});
