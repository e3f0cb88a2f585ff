import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { csrfHeaders, expectAccessible, signInOnPage, signUpThroughOutbox } from './helpers';

// Real documents nobody here wrote (Debian packages), fetched by `node scripts/fetch-test-docs.mjs`.
const DOCS = '.tmp/test-docs';
const SHOTS = 'test-results/screenshots';
fs.mkdirSync(SHOTS, { recursive: true });

const stamp = Date.now().toString(36);
const owner = { email: `kb-owner-${stamp}@example.com`, name: '王化学', password: 'Benzene-ring-6' };
const reader = { email: `kb-reader-${stamp}@example.com`, name: `李博士${stamp}`, password: 'Toluene-ring-7' };

async function screenshot(page: Page, name: string) {
  await expect(page.locator('.route-progress')).toHaveCount(0);
  for (const close of await page.locator('.toast__close').all()) await close.click().catch(() => undefined);
  await expect(page.locator('.toast')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

const kb = (page: Page) => page.locator('csai-knowledge');
const docRow = (page: Page, title: string) => kb(page).locator('[part~="document"]').filter({ has: page.getByRole('button', { name: title, exact: true }) });

test.describe.configure({ mode: 'serial' });

test('upload two PDFs and an SDF, watch them parse, share the folder with a reader who cannot delete it', async ({ page, browser, baseURL }) => {
  test.setTimeout(240_000);
  for (const f of ['zhlipsum.pdf', 'zhnumber.pdf', 'cdk2.sdf']) {
    expect(fs.existsSync(path.join(DOCS, f)), `${f}: run node scripts/fetch-test-docs.mjs`).toBe(true);
  }
  await signUpThroughOutbox(baseURL!, owner);
  await signUpThroughOutbox(baseURL!, reader);

  // ---------- the owner ----------
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInOnPage(page, owner);
  await page.goto('/knowledges');
  await expect(kb(page).getByText('选择一个知识库')).toBeVisible();
  await expect(kb(page).getByText('还没有知识库')).toBeVisible();

  // A folder, named through the dialog (an empty name is refused first).
  await kb(page).getByRole('button', { name: '新建知识库' }).click();
  const create = kb(page).getByRole('dialog', { name: '新建知识库' });
  await create.getByRole('button', { name: '创建' }).click();
  await expect(create.getByText('请输入知识库名称')).toBeVisible();
  await create.getByLabel('知识库名称').fill('激酶抑制剂文献');
  await create.getByRole('button', { name: '创建' }).click();
  await expect(create).toHaveCount(0);
  await expect(kb(page).getByRole('heading', { name: '激酶抑制剂文献' })).toBeVisible();
  await expect(kb(page).getByText('这个知识库还没有文档')).toBeVisible();

  // Two PDFs by clicking the upload button.
  const chooser = page.waitForEvent('filechooser');
  await kb(page).getByRole('button', { name: '上传文件' }).click();
  await (await chooser).setFiles([path.join(DOCS, 'zhlipsum.pdf'), path.join(DOCS, 'zhnumber.pdf')]);
  const uploads = kb(page).locator('[part~="upload-item"]');
  await expect(uploads).toHaveText(['zhlipsum.pdf完成', 'zhnumber.pdf完成']);
  await expect(kb(page).locator('[part~="upload-total"]')).toHaveText('总进度 100%');
  // A finished batch leaves the upload list by itself after a moment.
  await expect(kb(page).locator('[part~="uploads"]')).toHaveCount(0);

  // An SDF by drag and drop.
  const sdf = fs.readFileSync(path.join(DOCS, 'cdk2.sdf')).toString('base64');
  const dataTransfer = await page.evaluateHandle((b64) => {
    const dt = new DataTransfer();
    dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'cdk2.sdf', { type: 'chemical/x-mdl-sdfile' }));
    return dt;
  }, sdf);
  await kb(page).locator('[part~="drop-zone"]').dispatchEvent('dragover', { dataTransfer });
  await kb(page).locator('[part~="drop-zone"]').dispatchEvent('drop', { dataTransfer });
  await expect(uploads).toHaveText(['cdk2.sdf完成']);

  // Parsing: each document ends at 完成 (the list polls every second while one is parsing).
  for (const title of ['zhlipsum.pdf', 'zhnumber.pdf', 'cdk2.sdf']) {
    await expect(docRow(page, title).locator('[part~="parse-status"]')).toHaveText('完成', { timeout: 120_000 });
  }
  await expect(docRow(page, 'cdk2.sdf').locator('[part~="molecule-count"]')).toHaveText(/\d+ 个分子/);
  await expect(docRow(page, 'zhlipsum.pdf')).toContainText('页');
  await expect(kb(page).locator('[data-folder-id]').filter({ hasText: '激酶抑制剂文献' })).toContainText('3');
  await screenshot(page, 'knowledge-owner-1440');
  await expectAccessible(page);

  // A document opens in the viewer (the site routes csai-navigate); back again, the folder is still chosen.
  await docRow(page, 'zhlipsum.pdf').getByRole('button', { name: '打开' }).click();
  await expect(page).toHaveURL(/\/pdf_viewer\?docId=[\w-]+&if_img=0$/);
  await page.goBack();
  await expect(kb(page).getByRole('heading', { name: '激酶抑制剂文献' })).toBeVisible();

  // Share the folder with the reader, found by name.
  await kb(page).locator('[part~="folder-actions"]').getByRole('button', { name: '分享' }).click();
  const share = kb(page).getByRole('dialog', { name: '分享“激酶抑制剂文献”' });
  await share.getByLabel('搜索同事或部门').fill(reader.name);
  await share.getByRole('checkbox').first().check();
  await share.getByRole('button', { name: '分享', exact: true }).click();
  await expect(share.locator('[part~="share-record"]')).toContainText(reader.name);
  // The modal dialog keeps the page behind it inert (toasts included): a plain picture.
  await page.screenshot({ path: `${SHOTS}/knowledge-share-1440.png`, animations: 'disabled' });
  await share.getByRole('button', { name: '关闭' }).first().click();
  await expect(kb(page).getByText('已共享')).toBeVisible();

  // Public, and back to private later: the public list follows.
  await kb(page).getByRole('button', { name: '设为公开' }).click();
  await expect(kb(page).locator('[part~="main-list"]').getByText('公开', { exact: true })).toBeVisible();
  await expect(kb(page).locator('[part~="section-public"]')).toContainText('激酶抑制剂文献');

  // ---------- the reader ----------
  const readerContext = await browser.newContext();
  const other = await readerContext.newPage();
  await other.setViewportSize({ width: 375, height: 780 });
  await signInOnPage(other, reader);
  await other.goto('/knowledges');
  const sharedSection = kb(other).locator('[part~="section-shared"]');
  await expect(sharedSection.getByRole('button', { name: /激酶抑制剂文献/ })).toBeVisible();
  await expect(kb(other).locator('[part~="section-mine"]')).toContainText('还没有知识库');
  await sharedSection.getByRole('button', { name: /激酶抑制剂文献/ }).click();
  await expect(kb(other).getByRole('heading', { name: '激酶抑制剂文献' })).toBeVisible();
  await expect(kb(other).getByText('只读')).toBeVisible();
  await expect(docRow(other, 'zhlipsum.pdf').locator('[part~="parse-status"]')).toHaveText('完成');
  // No way to change it in the UI…
  await expect(kb(other).locator('[part~="folder-actions"]')).toHaveCount(0);
  await expect(kb(other).getByRole('button', { name: '删除', exact: true })).toHaveCount(0);
  // …and the server refuses a delete.
  const folderId = await kb(other).locator('[part~="section-shared"] [data-folder-id]').first().getAttribute('data-folder-id');
  const del = await other.request.delete(`/api/v1/knowledge_base/folder/${folderId}`, { headers: await csrfHeaders(other.request) });
  expect(del.status()).toBe(403);
  await expect(kb(other).locator('[part~="document"]')).toHaveCount(3);
  const overflow = await other.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
  await screenshot(other, 'knowledge-reader-375');
  await expectAccessible(other);
  // The public folder page lists it for the reader too.
  await other.goto('/public_folder');
  await expect(kb(other).locator('[part~="section-public"]').getByRole('button', { name: /激酶抑制剂文献/ })).toBeVisible();
  await expect(kb(other).locator('[part~="section-mine"]')).toHaveCount(0);
  await screenshot(other, 'knowledge-public-375');
  await readerContext.close();

  await kb(page).getByRole('button', { name: '取消公开' }).click();
  await expect(kb(page).locator('[part~="section-public"]')).toContainText('暂无公开的知识库');

  // The owner at 375px too.
  await page.setViewportSize({ width: 375, height: 780 });
  await page.reload();
  await expect(kb(page).getByRole('heading', { name: '激酶抑制剂文献' })).toBeVisible();
  await screenshot(page, 'knowledge-owner-375');
});
