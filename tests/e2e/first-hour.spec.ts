import { expect, test, type Page } from '@playwright/test';
import { signInOnPage, signUpThroughOutbox } from './helpers';

// What a new user meets first, in a real browser on a fresh data folder with no model
// and no search service: a question of several lines starts a conversation; 联网搜索 starts off;
// the token page and /test are laid out; the viewer has a way back; the language switch.
const stamp = Date.now().toString(36);
const user = { email: `first-${stamp}@example.com`, name: 'Chemist', password: 'Aspirin-ring-9' };

test.describe.configure({ mode: 'serial' });
test.beforeAll(async ({ baseURL }) => {
  await signUpThroughOutbox(baseURL!, user);
});

/** Text of the page (shadow roots included), without scripts, styles, tooltips and `skip` elements. */
async function pageText(page: Page, skip: string): Promise<string[]> {
  return page.evaluate((skipSelector) => {
    const out: string[] = [];
    const walk = (node: Node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        const text = node.textContent?.trim();
        if (text) out.push(text);
        return;
      }
      if (node instanceof Element) {
        if (['STYLE', 'SCRIPT', 'TITLE', 'TEXTAREA', 'NOSCRIPT'].includes(node.tagName.toUpperCase())) return;
        if (skipSelector && node.matches(skipSelector)) return;
        if (node.shadowRoot) walk(node.shadowRoot);
      }
      for (const child of node.childNodes) walk(child);
    };
    walk(document.body);
    return out;
  }, skip);
}

/** Abbreviations and names that stay as written in the Chinese interface. */
const KEPT = new Set(['CSAI', 'ADMET', 'SMILES', 'PDF', 'JPEG', 'JPG', 'PNG', 'PDB', 'SDF', 'MB', 'OpenAI', 'Pro', 'API', 'MCP', 'Chemist', 'BM25']);

test('a question of several lines starts a conversation named after its first line; 联网搜索 starts off', async ({ page }) => {
  await signInOnPage(page, user);
  const ask = page.locator('csai-ask');
  const input = ask.locator('[part~="input"]');
  await expect(input).toBeVisible();
  // No search service here: the toggle is off, and turning it on says so in one short line.
  const online = ask.locator('[part~="toggle-online"]');
  await expect(online).toHaveAttribute('aria-pressed', 'false');
  await online.click();
  await expect(ask.locator('[part~="online-hint"]')).toHaveText('本服务器未配置联网搜索，回答只使用所选文档和工具。');
  await expect(page.getByText('SEARXNG_URL')).toHaveCount(0);
  await online.click();
  await expect(ask.locator('[part~="online-hint"]')).toHaveCount(0);

  await input.fill('这段代码做什么？');
  await input.press('Shift+Enter');
  await input.pressSequentially('```python');
  await input.press('Shift+Enter');
  await input.pressSequentially('print(1)');
  await input.press('Enter');
  await expect(page).toHaveURL(/\/channels\?channel_id=[\w-]+/);
  const channels = page.locator('csai-channels');
  await expect(channels.locator('[part~="question-text"]').first()).toContainText('print(1)');
  await expect(channels.getByText('这段代码做什么？', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('频道名称不能包含控制字符')).toHaveCount(0);
});

test('the token page, /test and the document viewer are laid out for reading', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInOnPage(page, user);
  await page.goto('/tokens');
  const field = page.locator('#token-name');
  const create = page.getByRole('button', { name: '创建令牌' });
  await expect(create).toBeVisible();
  // Measured once the page has settled (its styles and fonts may still be arriving on a busy machine).
  const middle = async (l: typeof field) => {
    const box = await l.boundingBox();
    return box ? box.y + box.height / 2 : NaN;
  };
  await expect.poll(async () => Math.abs((await middle(field)) - (await middle(create)))).toBeLessThan(2);

  await page.goto('/test');
  const tools = page.getByRole('heading', { name: '工具' }).locator('xpath=..');
  await expect(tools).toBeVisible();
  await expect.poll(async () => (await tools.boundingBox())?.width ?? 0).toBeGreaterThan(900);

  // The viewer opened from a page: once it has said the document is not there, its back link
  // returns there. (The page's main-frame navigations are kept to tell, should it not, what moved.)
  await page.goto('/tokens');
  await page.goto('/pdf_viewer?docId=missing-doc');
  await expect(page.locator('csai-pdf-viewer [part~="error"]')).toBeVisible();
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => void (frame === page.mainFrame() && navigations.push(frame.url())));
  await page.getByTestId('back-link').click();
  await expect(page).toHaveURL(/\/tokens$/).catch((error: Error) => {
    throw new Error(`${error.message}\nnavigations after the click: ${navigations.join(' → ') || 'none'}`);
  });
});

test('the language choice in the user menu: English pages without Chinese, remembered for the user', async ({ page, browser, baseURL }) => {
  await signInOnPage(page, user);
  await expect(page.locator('csai-ask [part~="input"]')).toBeVisible();
  // Chinese: no English words of the interface (the examples' SMILES are data).
  const zh = (await pageText(page, '.example, .user-trigger')).join('\n');
  const latin = [...new Set(zh.match(/[A-Za-z][A-Za-z0-9+]*/g) ?? [])].filter((w) => w.length > 1 && !KEPT.has(w));
  expect(latin).toEqual([]);

  await page.locator('.user-trigger').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByRole('heading', { name: 'How can I help?' })).toBeVisible();
  await expect(page.locator('csai-ask [part~="send"]')).toHaveText('Send');
  // (The sign-in toast said in Chinese before the switch is left out.)
  const en = (await pageText(page, '.user-trigger, .toaster')).join('\n');
  expect(en.match(/[\u3400-\u9fff]+/g) ?? []).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

  // The next visit, in another browser: the server remembers the choice.
  const other = await browser.newContext({ baseURL });
  const second = await other.newPage();
  await signInOnPage(second, user);
  await expect(second.getByRole('heading', { name: 'How can I help?' })).toBeVisible();
  // Back to Chinese for the other tests.
  await second.locator('.user-trigger').click();
  await second.getByRole('menuitem', { name: '中文' }).click();
  await expect(second.getByRole('heading', { name: '有什么可以帮您？' })).toBeVisible();
  await other.close();
});
