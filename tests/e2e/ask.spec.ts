import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signInOnPage, signUpThroughOutbox } from './helpers';

// Asking with a real PDF against the real server and its local engine. The engine is paced by
// CSAI_LOCAL_ENGINE_DELAY_MS (playwright.config.ts) so the page can reload mid-answer.
// Documents: `node scripts/fetch-test-docs.mjs` → .tmp/test-docs (real Debian texlive files).
const DOCS = '.tmp/test-docs';
const SHOTS = 'test-results/screenshots';
fs.mkdirSync(SHOTS, { recursive: true });

const stamp = Date.now().toString(36);
const user = { email: `asker-${stamp}@example.com`, name: '赵药师', password: 'Aspirin-ring-9' };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ baseURL }) => {
  expect(fs.existsSync(path.join(DOCS, 'zhlipsum.pdf')), 'run `node scripts/fetch-test-docs.mjs` first').toBe(true);
  await signUpThroughOutbox(baseURL!, user);
});

test('upload a real PDF, ask in Chinese, the cited answer streams, survives a reload and shows in a second tab', async ({ page }) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await signInOnPage(page, user);

  const ask = page.locator('csai-ask');
  const input = ask.locator('[part~="input"]');
  await expect(input).toBeVisible();
  await ask.locator('input[type=file]').setInputFiles(path.join(DOCS, 'zhlipsum.pdf'));
  const chip = ask.locator('[part~="file-chip"]');
  await expect(chip).toContainText('zhlipsum.pdf');
  // Sending while the file still parses is refused with the SPEC message.
  await input.fill('阿司匹林是什么？');
  if ((await chip.getAttribute('data-phase')) !== 'done') {
    await input.press('Enter');
    await expect(page.getByText('文件正在解析中，请等待上传完成')).toBeVisible();
  }
  await expect(chip).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(chip).toContainText('完成');
  await input.press('Enter');

  await expect(page).toHaveURL(/\/channels\?channel_id=[\w-]+&closeSider=true$/);
  const channels = page.locator('csai-channels');
  const questionBox = channels.locator('[part~="question"]').first();
  await expect(channels.locator('[part~="question-text"]').first()).toHaveText('阿司匹林是什么？');
  const answer = channels.locator('[part~="answer"]').first();
  // Mid-answer: some text is there and the answer is still running (read in one go).
  await expect(answer).toContainText('未配置大语言模型');
  const snap = await questionBox.evaluate((el) => ({ status: el.getAttribute('data-status'), text: el.querySelector('[part~="answer"]')?.textContent ?? '' }));
  expect(snap.status).toBe('running');

  // A reload mid-answer starts from what was stored and continues.
  await page.reload();
  await expect(answer).toContainText(snap.text.trim().slice(0, 30));
  // A second tab shows the same answer.
  const second = await page.context().newPage();
  await second.goto(page.url());
  const secondAnswer = second.locator('csai-channels [part~="answer"]').first();
  await expect(secondAnswer).toContainText('未配置大语言模型');

  await expect(questionBox).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  const after = (await answer.textContent()) ?? '';
  expect(after.length).toBeGreaterThan(snap.text.length);
  await expect(second.locator('csai-channels [part~="question"]').first()).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  expect(((await secondAnswer.textContent()) ?? '').trim()).toBe(after.trim());
  await second.close();

  // The citation points at page 3, where zhlipsum.pdf talks about 阿司匹林.
  const cite = answer.locator('a[data-cite]').first();
  await expect(cite).toBeVisible();
  const href = (await cite.getAttribute('href')) ?? '';
  const params = new URL(href, 'http://x').searchParams;
  expect(params.get('page')).toBe('3');
  expect(params.get('docId')).toBeTruthy();
  await page.screenshot({ path: `${SHOTS}/ask-answer.png`, fullPage: true, animations: 'disabled' });
  await cite.click();
  await expect(page).toHaveURL(/\/pdf_viewer\?docId=[\w-]+&page=3/);
  expect(problems).toEqual([]);
});

test('find the channel in history, rename it and delete it', async ({ page }) => {
  await signInOnPage(page, user);
  await page.goto('/channels');
  const channels = page.locator('csai-channels');
  const item = channels.locator('[part~="channel"]').filter({ hasText: '阿司匹林是什么？' });
  await expect(item).toHaveCount(1);
  await channels.locator('[part~="search"]').fill('阿司匹林');
  await expect(item).toHaveCount(1);
  await item.locator('[part~="rename"]').click();
  const field = channels.locator('[part~="rename-input"]');
  await field.fill('阿司匹林笔记');
  await field.press('Enter');
  await channels.locator('[part~="search"]').fill('');
  const renamed = channels.locator('[part~="channel"]').filter({ hasText: '阿司匹林笔记' });
  await expect(renamed).toHaveCount(1);
  await renamed.locator('[part~="channel-name"]').click();
  await expect(page).toHaveURL(/\/channels\?channel_id=/);
  await expect(channels.locator('[part~="question-text"]').first()).toHaveText('阿司匹林是什么？');
  await renamed.locator('[part~="delete-channel"]').click();
  await renamed.locator('[part~="confirm"] button').first().click();
  await expect(channels.locator('[part~="channel"]').filter({ hasText: '阿司匹林笔记' })).toHaveCount(0);
  await page.reload();
  await expect(channels.locator('[part~="empty"]')).toBeVisible();
});
