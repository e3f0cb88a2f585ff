import { expect, test, type Page } from '@playwright/test';
import { signInOnPage, signUpThroughOutbox, startDemo } from './helpers';

// <csai-ask> on a foreign page (demo/ask.html on its own origin, allowed by CSAI_CORS_ORIGINS):
// one script tag, a hostile stylesheet, a CSP without unsafe-inline / unsafe-eval. The session
// cookie is the CSAI server's (same site: 127.0.0.1 on two ports), sent with credentials.
let demo: { url: string; close: () => Promise<void> };
let csai: string;
const stamp = Date.now().toString(36);
const user = { email: `embed-ask-${stamp}@example.com`, name: '钱研究员', password: 'Ibuprofen-ring-8' };

test.beforeAll(async ({ baseURL }, testInfo) => {
  csai = baseURL!;
  demo = await startDemo(csai, testInfo.parallelIndex);
  await signUpThroughOutbox(csai, user);
});
test.afterAll(async () => demo?.close());

function watchProblems(page: Page) {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

test('on a hostile page under a strict CSP: asks, emits csai-submitted, stays; changes no page style', async ({ page }) => {
  test.setTimeout(90_000);
  await signInOnPage(page, user, csai);
  const problems = watchProblems(page);
  await page.goto(`${demo.url}/ask.html`);
  const stay = page.locator('#ask-stay');
  const input = stay.locator('[part~="input"]');
  await expect(input).toBeVisible();
  // `button { display: none }` and `* { all: unset }` on the page do not reach inside.
  await expect(stay.locator('[part~="send"]')).toBeVisible();
  await expect(stay.locator('[part~="toggle-thinking"]')).toBeVisible();
  const look = await input.evaluate((el) => {
    const s = getComputedStyle(el);
    return { font: s.fontFamily, size: s.fontSize, radius: s.borderTopLeftRadius };
  });
  expect(look.font).not.toContain('Times');
  expect(look.size).toBe('14px');
  expect(look.radius).toBe('2px');

  const pageStyles = () =>
    page.evaluate(() => {
      const pick = (sel: string) => {
        const s = getComputedStyle(document.querySelector(sel)!);
        return [s.display, s.color, s.fontFamily, s.fontSize, s.backgroundColor].join('|');
      };
      return { title: pick('#eln-title'), button: pick('#eln-button'), body: pick('body'), sheets: document.styleSheets.length, adopted: document.adoptedStyleSheets.length };
    });
  const before = await pageStyles();

  await input.fill('布洛芬的作用机制是什么？');
  await input.press('Enter');
  await expect(page.locator('#events')).toContainText('csai-submitted: {"channelId":"');
  expect(page.url()).toBe(`${demo.url}/ask.html`);
  await expect(input).toHaveValue('');
  // The answer (local engine, paced) runs: the stop button shows until it is done.
  await expect(stay.locator('[part~="stop"]')).toBeVisible();
  await expect(stay.locator('[part~="send"]')).toBeVisible({ timeout: 60_000 });

  expect(await pageStyles()).toEqual(before);
  expect(before.adopted).toBe(0);
  expect(problems).toEqual([]);
});

test('by default it opens the conversation on the CSAI server', async ({ page }) => {
  test.setTimeout(90_000);
  await signInOnPage(page, user, csai);
  const problems = watchProblems(page);
  await page.goto(`${demo.url}/ask.html`);
  const input = page.locator('#ask-open [part~="input"]');
  await expect(input).toBeVisible();
  await input.fill('阿司匹林的不良反应');
  await input.press('Enter');
  await expect(page).toHaveURL(new RegExp(`^${csai.replace(/[.:/]/g, '\\$&')}/channels\\?channel_id=[\\w-]+&closeSider=true$`));
  await expect(page.locator('csai-channels [part~="question-text"]').first()).toHaveText('阿司匹林的不良反应');
  expect(problems).toEqual([]);
});
