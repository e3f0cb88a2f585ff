import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, signInOnPage, signUpThroughOutbox } from './helpers';

// Real documents nobody here wrote (Debian packages), fetched by `node scripts/fetch-test-docs.mjs`.
const DOCS = '.tmp/test-docs';
const stamp = Date.now().toString(36);
const owner = { email: `share-owner-${stamp}@example.com`, name: '王化学', password: 'Benzene-ring-6' };
const reader = { email: `share-reader-${stamp}@example.com`, name: `赵研究员${stamp}`, password: 'Toluene-ring-7' };

const kb = (page: Page) => page.locator('csai-knowledge');
const docRow = (page: Page, title: string) => kb(page).locator('[part~="document"]').filter({ has: page.getByRole('button', { name: title, exact: true }) });

test('a document shared one by one shows under 与我共享 for its reader, who can ask with it and see it in the conversation', async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  expect(fs.existsSync(path.join(DOCS, 'zhnumber.pdf')), 'run node scripts/fetch-test-docs.mjs').toBe(true);
  await signUpThroughOutbox(baseURL!, owner);
  await signUpThroughOutbox(baseURL!, reader);

  // ---------- the owner: a folder with one PDF, the document (not the folder) shared ----------
  await signInOnPage(page, owner);
  await page.goto('/knowledges');
  await kb(page).getByRole('button', { name: '新建知识库' }).click();
  const create = kb(page).getByRole('dialog', { name: '新建知识库' });
  await create.getByLabel('知识库名称').fill('单篇分享');
  await create.getByRole('button', { name: '创建' }).click();
  await expect(kb(page).getByRole('heading', { name: '单篇分享' })).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await kb(page).getByRole('button', { name: '上传文件' }).click();
  await (await chooser).setFiles(path.join(DOCS, 'zhnumber.pdf'));
  await expect(docRow(page, 'zhnumber.pdf').locator('[part~="parse-status"]')).toHaveText('完成', { timeout: 90_000 });

  // Folder lookup by name: Enter in the sidebar search opens the folder of that exact name.
  await kb(page).locator('[part~="doc-view"][data-view="all_docs"]').click();
  await expect(kb(page).getByRole('heading', { name: '我的全部文档' })).toBeVisible();
  const search = kb(page).getByPlaceholder('搜索知识库');
  await search.fill('单篇分享');
  await search.press('Enter');
  await expect(kb(page).getByRole('heading', { name: '单篇分享' })).toBeVisible();
  await search.fill('');

  await docRow(page, 'zhnumber.pdf').getByRole('button', { name: '更多操作：zhnumber.pdf' }).click();
  await kb(page).getByRole('menuitem', { name: '分享' }).click();
  const share = kb(page).getByRole('dialog', { name: '分享“zhnumber.pdf”' });
  await share.getByLabel('搜索同事或部门').fill(reader.name);
  await share.getByRole('checkbox').first().check();
  await share.getByRole('button', { name: '分享', exact: true }).click();
  await expect(share.locator('[part~="share-record"]')).toContainText(reader.name);
  await share.getByRole('button', { name: '关闭' }).first().click();

  // ---------- the reader ----------
  const readerContext = await browser.newContext();
  const other = await readerContext.newPage();
  await signInOnPage(other, reader);
  await other.goto('/knowledges');
  // No folder is shared with them: before 与我共享 the document was nowhere to be seen.
  await expect(kb(other).locator('[part~="section-shared"]')).toContainText('暂无共享的知识库');
  await kb(other).locator('[part~="doc-view"][data-view="shared_docs"]').click();
  await expect(kb(other).getByRole('heading', { name: '与我共享的文档' })).toBeVisible();
  await expect(docRow(other, 'zhnumber.pdf')).toContainText('所有者：王化学');
  await expect(docRow(other, 'zhnumber.pdf').locator('[part~="parse-status"]')).toHaveText('完成');
  await expectAccessible(other);

  // Translate: this server has no language model, and the dialog says so.
  await docRow(other, 'zhnumber.pdf').getByRole('button', { name: '更多操作：zhnumber.pdf' }).click();
  await kb(other).getByRole('menuitem', { name: '翻译' }).click();
  const translate = kb(other).getByRole('dialog', { name: '翻译“zhnumber.pdf”' });
  await translate.getByRole('button', { name: '开始翻译' }).click();
  await expect(translate.locator('[part~="translation-error"]')).toHaveText('服务器未配置语言模型，无法翻译。请管理员设置 LLM_BASE_URL 和 LLM_MODEL 后再试。');
  await translate.getByRole('button', { name: '关闭' }).first().click();

  // Use it in a question: the home page's question box has it among its files.
  await docRow(other, 'zhnumber.pdf').getByRole('button', { name: '更多操作：zhnumber.pdf' }).click();
  await kb(other).getByRole('menuitem', { name: '用于提问' }).click();
  await expect(other).toHaveURL(/\/\?docIds=[\w-]+$/);
  const ask = other.locator('csai-ask');
  const chip = ask.locator('[part~="file-chip"]');
  await expect(chip).toContainText('zhnumber.pdf');
  await expect(chip).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await ask.locator('[part~="input"]').fill('这份文档讲了什么？');
  await ask.locator('[part~="input"]').press('Enter');
  await expect(other).toHaveURL(/\/channels\?channel_id=[\w-]+&closeSider=true$/);

  // The conversation lists the document it used; the history says when, in Chinese.
  const channels = other.locator('csai-channels');
  const used = channels.locator('[part~="channel-docs"]');
  await expect(used.locator('summary')).toHaveText('本对话使用的文档（1）');
  await used.locator('summary').click();
  await expect(used.locator('[part~="channel-doc"]')).toContainText('zhnumber.pdf');
  await channels.locator('[part~="toggle-history"]').click();
  await expect(channels.locator('[part~="channel-time"]').first()).toHaveText(/^(现在|\d+秒钟前|\d+分钟前)$/);
  await used.locator('[part~="channel-doc"] button').click();
  await expect(other).toHaveURL(/\/pdf_viewer\?docId=[\w-]+&if_img=0$/);
  await readerContext.close();
});
