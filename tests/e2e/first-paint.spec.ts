import { expect, test, type Page } from '@playwright/test';
import { signInOnPage, signUpThroughOutbox } from './helpers';

// Home's server-rendered first paint (src/host/first-paint.tsx, src/server/first-paint.ts): a
// signed-in `/` shows its question box, and takes typing, before the page's scripts run; the
// scripts then take it over without the user losing what they typed or where.
const stamp = Date.now().toString(36);
const user = { email: `first-paint-${stamp}@example.com`, name: '钱研究员', password: 'Aspirin-ring-9' };

test.describe.configure({ mode: 'serial' });
test.beforeAll(async ({ baseURL }) => {
  await signUpThroughOutbox(baseURL!, user);
});

/** Holds the question box's view code (the Ask chunk) until `release()`: the page shows only the first paint meanwhile. */
async function holdBoxCode(page: Page) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/Ask-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** The static copy's parts (markup and style) inside the box's shadow root. */
const copyParts = (page: Page) => page.locator('csai-ask').evaluate((el) => el.shadowRoot!.querySelectorAll('[data-csai-prerendered]').length);

const box = (page: Page) => page.locator('csai-ask textarea[part~="input"]');

test('the box shows and takes typing before its code has loaded; the text, caret and focus carry over', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  // A style the CSP refused would be reported here (the copy's style element is allowed by hash).
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await signInOnPage(page, user);
  const release = await holdBoxCode(page);
  await page.reload();

  await expect(page.getByRole('heading', { name: '有什么可以帮您？' })).toBeVisible();
  const before = await box(page).boundingBox();
  expect(before).not.toBeNull();
  // The copy is styled (its style element applied): the send button is the accent colour.
  expect(await page.locator('csai-ask [part~="send"]').evaluate((b) => getComputedStyle(b).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
  await box(page).click();
  await page.keyboard.type('阿司匹林的作用机制');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  // Still the copy (home's React may have taken the element into its page; the box inside is the
  // copy until the view's code arrives).
  expect(await copyParts(page)).toBe(2);

  release();
  await expect(page.locator('#first-paint')).toHaveCount(0);
  await expect(page.locator('csai-ask')).toHaveCount(1);
  expect(await copyParts(page)).toBe(0);
  await expect(box(page)).toHaveValue('阿司匹林的作用机制');
  // Focus and caret stayed: typing goes on where it was (two characters before the end).
  await page.keyboard.type('的');
  await expect(box(page)).toHaveValue('阿司匹林的作用的机制');
  // Nothing moved when the live box took over.
  const after = await box(page).boundingBox();
  expect(Math.abs(after!.y - before!.y)).toBeLessThanOrEqual(1);
  expect(Math.abs(after!.x - before!.x)).toBeLessThanOrEqual(1);
  expect(Math.abs(after!.width - before!.width)).toBeLessThanOrEqual(1);
  // The rest of home follows as before: the rail's entries and the examples.
  await expect(page.getByRole('button', { name: '新对话' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '试试这些问题' })).toBeVisible();
  expect(problems).toEqual([]);
});

test("when the box's code is slow, the page renders around the copy and the box takes it over later, text, caret and focus kept", async ({ page }) => {
  await signInOnPage(page, user);
  const release = await holdBoxCode(page);
  await page.reload();
  await box(page).click();
  await page.keyboard.type('布洛芬的剂量');
  await page.keyboard.press('ArrowLeft');
  // The page waits at most 3 s for the live box, then renders and takes the copy's element in.
  await expect(page.locator('#first-paint')).toHaveCount(0, { timeout: 10_000 });
  expect(await copyParts(page)).toBe(2);
  await page.keyboard.type('常用');
  release();
  await expect.poll(() => copyParts(page)).toBe(0);
  await expect(box(page)).toHaveValue('布洛芬的剂常用量');
  await page.keyboard.type('！');
  await expect(box(page)).toHaveValue('布洛芬的剂常用！量');
});

test("a click or a file given to the box before its code has loaded reaches the live box, not the copy", async ({ page }) => {
  await signInOnPage(page, user);
  const release = await holdBoxCode(page);
  await page.reload();
  await expect(box(page)).toBeVisible();
  // Both wait for the live box (the copy's controls are disabled, and it has no file input).
  const clicked = page.locator('csai-ask [part~="tab-knowledge"]').click();
  const chosen = page.locator('csai-ask input[type=file]').setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
  await page.waitForTimeout(500);
  expect(await copyParts(page)).toBe(2);
  release();
  await Promise.all([clicked, chosen]);
  await expect(page.locator('csai-ask [part~="tab-knowledge"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('csai-ask [part~="file-chip"]')).toContainText('notes.pdf');
});

test('Enter in the copy sends the question once the code is there, as in the live box', async ({ page }) => {
  await signInOnPage(page, user);
  const release = await holdBoxCode(page);
  await page.reload();
  await box(page).fill('布洛芬的常用剂量是多少');
  // SPEC §5 in the copy too: Ctrl+Enter and Shift+Enter add a line, Enter sends.
  await box(page).press('Control+Enter');
  await box(page).press('Shift+Enter');
  await box(page).pressSequentially('成人');
  await expect(box(page)).toHaveValue('布洛芬的常用剂量是多少\n\n成人');
  expect(await copyParts(page)).toBe(2);
  await box(page).press('Enter');
  release();
  await expect(page).toHaveURL(/\/channels\?channel_id=/);
  await expect(page.getByText('布洛芬的常用剂量是多少').first()).toBeVisible();
});

test('without scripts the copy is a form: sending it brings the question back in the box, and the page takes it from there', async ({ browser, baseURL }) => {
  const signedIn = await browser.newContext({ baseURL });
  const page = await signedIn.newPage();
  await signInOnPage(page, user);
  const state = await signedIn.storageState();
  await signedIn.close();

  const noScript = await browser.newContext({ baseURL, storageState: state, javaScriptEnabled: false });
  const still = await noScript.newPage();
  await still.goto('/');
  await expect(box(still)).toBeVisible();
  await box(still).fill('青霉素的作用靶点');
  await still.locator('csai-ask [part~="send"]').click();
  await expect(still).toHaveURL(/\/\?q=/);
  await expect(box(still)).toHaveValue('青霉素的作用靶点');
  await noScript.close();

  // With scripts, the question put back stays in the live box (not sent: a link cannot ask for anyone), and leaves the address.
  const withScript = await browser.newContext({ baseURL, storageState: state });
  const live = await withScript.newPage();
  await live.goto(`/?q=${encodeURIComponent('青霉素的作用靶点')}`);
  await expect(live.locator('#first-paint')).toHaveCount(0);
  await expect(box(live)).toHaveValue('青霉素的作用靶点');
  await expect(live).toHaveURL(/\/$/);
  await withScript.close();
});

test('a narrow screen and a signed-out visitor get the page as before, without the copy', async ({ browser, baseURL }) => {
  const narrow = await browser.newContext({ baseURL, viewport: { width: 400, height: 800 } });
  const page = await narrow.newPage();
  await signInOnPage(page, user);
  await page.reload();
  await expect(box(page)).toBeVisible();
  await expect(page.locator('#first-paint')).toHaveCount(0);
  await expect(page.locator('csai-ask')).toHaveCount(1);
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  await narrow.close();

  const visitor = await browser.newContext({ baseURL });
  const html = await (await visitor.request.get('/', { headers: { accept: 'text/html' } })).text();
  expect(html).not.toContain('first-paint');
  await visitor.close();
});
