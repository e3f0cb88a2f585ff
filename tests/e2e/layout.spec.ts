import { expect, test, type Page } from '@playwright/test';
import { csrfHeaders, signUpThroughOutbox } from './helpers';

// Layout a chemist notices: the knowledge panel fills the window below the top bar and scrolls its
// own lists; the conversation text keeps clear of its card's border. Desktop and phone widths.
const stamp = Date.now().toString(36);
const user = { email: `layout-${stamp}@example.com`, name: '孙版面', password: 'Toluene-ring-7' };
const SIZES = [
  { width: 1440, height: 900 },
  { width: 375, height: 800 },
];

async function signIn(page: Page) {
  const headers = await csrfHeaders(page.request);
  const res = await page.request.post('/api/v1/auth/sign-in', { headers, data: { account: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ baseURL }) => {
  await signUpThroughOutbox(baseURL!, user);
});

test('the knowledge panel fills the height below the top bar and scrolls its folder list inside', async ({ page }) => {
  await signIn(page);
  // Enough folders that the list cannot show them all.
  const headers = await csrfHeaders(page.request);
  for (let i = 1; i <= 30; i++) {
    const res = await page.request.post('/api/v1/knowledge_base/folder', { headers, data: { name: `合成路线 ${i}` } });
    expect(res.status(), await res.text()).toBe(200);
  }
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto('/knowledges');
    const panel = page.locator('csai-knowledge');
    await expect(panel.locator('[part~="folder"]').filter({ hasText: '合成路线 30' }).first()).toBeAttached();
    const m = await page.evaluate(() => {
      const el = document.querySelector('csai-knowledge')!.getBoundingClientRect();
      const bar = document.querySelector('.topbar')!.getBoundingClientRect();
      const layout = document.querySelector('csai-knowledge')!.shadowRoot!.querySelector('[part~="layout"]')!.getBoundingClientRect();
      const list = document.querySelector('csai-knowledge')!.shadowRoot!.querySelector('[part~="sidebar-content"]')!.parentElement!;
      return {
        top: el.top, bottom: el.bottom, layoutBottom: layout.bottom, bar: bar.bottom, viewport: innerHeight,
        pageScrolls: document.scrollingElement!.scrollHeight > innerHeight + 1,
        listScrolls: list.scrollHeight > list.clientHeight + 1, listStyle: getComputedStyle(list).overflowY,
      };
    });
    const label = `${size.width}px: ${JSON.stringify(m)}`;
    // Right below the top bar (the page's top padding at most) down to the page's bottom margin.
    expect(m.top - m.bar, label).toBeGreaterThanOrEqual(0);
    expect(m.top - m.bar, label).toBeLessThanOrEqual(8);
    expect(m.viewport - m.bottom, label).toBeGreaterThanOrEqual(0);
    expect(m.viewport - m.bottom, label).toBeLessThanOrEqual(20);
    expect(Math.abs(m.layoutBottom - m.bottom), label).toBeLessThanOrEqual(1);
    expect(m.pageScrolls, label).toBe(false);
    expect(m.listScrolls, label).toBe(true);
    expect(m.listStyle, label).toBe('auto');
    await page.screenshot({ path: `test-results/screenshots/knowledge-${size.width}.png`, animations: 'disabled' });
  }
});

test('the conversation keeps its text off the card border', async ({ page }) => {
  await signIn(page);
  const headers = await csrfHeaders(page.request);
  const channel = ((await (await page.request.post('/api/v1/channel', { headers, data: { name: '阿司匹林' } })).json()) as { data: { id: string } }).data.id;
  const sent = await page.request.post('/api/v1/channel/init_questions', { headers, data: { question: '阿司匹林与布洛芬在心血管疾病预防中的用途有什么区别？', channel_id: channel } });
  expect(sent.status(), await sent.text()).toBe(200);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto(`/channels?channel_id=${channel}`);
    const channels = page.locator('csai-channels');
    await expect(channels.locator('[part~="answer"]').first()).toContainText('未配置大语言模型', { timeout: 30_000 });
    const gaps = await channels.evaluate((el) => {
      const card = el.shadowRoot!.querySelector('[part~="base"]')!.getBoundingClientRect();
      const out: Record<string, number[]> = {};
      for (const name of ['question-text', 'answer', 'toggle-history', 'search', 'channel']) {
        const box = el.shadowRoot!.querySelector(`[part~="${name}"]`)!.getBoundingClientRect();
        out[name] = [box.left - card.left, card.right - box.right, box.top - card.top];
      }
      return out;
    });
    for (const [name, [left, right, top]] of Object.entries(gaps)) {
      expect(left, `${name} left at ${size.width}px`).toBeGreaterThanOrEqual(12);
      expect(right, `${name} right at ${size.width}px`).toBeGreaterThanOrEqual(12);
      expect(top, `${name} top at ${size.width}px`).toBeGreaterThanOrEqual(12);
    }
    await page.screenshot({ path: `test-results/screenshots/channels-${size.width}.png`, animations: 'disabled' });
  }
});
