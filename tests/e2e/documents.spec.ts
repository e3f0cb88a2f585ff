import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, signInOnPage, signUpThroughOutbox, TEST_DOCS, uploadParsed } from './helpers';

// Opening each kind of document from the knowledge list, as a first user does: a PDF fills the
// window; an SDF or a PDB (“3D 查看”) shows its 3D structure, and an SDF its molecule list, instead
// of the PDF viewer's “not a PDF” dead end.
const stamp = Date.now().toString(36);
const user = { email: `docs-${stamp}@example.com`, name: '孙药理', password: 'Indole-ring-9' };

/** Uploads real files into the question folder (“提问上传的文件”) and waits until each is parsed. */
async function upload(page: Page, files: [string, string][]) {
  for (const [name, mimeType] of files) await uploadParsed(page, { name, mimeType });
}

const row = (page: Page, title: string) =>
  page.locator('csai-knowledge [part~="document"]').filter({ has: page.getByRole('button', { name: title, exact: true }) });

test.describe.configure({ mode: 'serial' });

test('SDF and PDB documents open as a 3D view (and a molecule list), a PDF viewer fills the window', async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  for (const f of ['cdk2.sdf', '5dpv.pdb', 'zhlipsum.pdf']) expect(fs.existsSync(path.join(TEST_DOCS, f)), `${f}: run node scripts/fetch-test-docs.mjs`).toBe(true);
  await signUpThroughOutbox(baseURL!, user);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInOnPage(page, user);
  await upload(page, [['cdk2.sdf', 'chemical/x-mdl-sdfile'], ['5dpv.pdb', 'chemical/x-pdb'], ['zhlipsum.pdf', 'application/pdf']]);

  // Everything the browser asks for from here on: a molecule file never goes near pdf.js.
  const requested: string[] = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  // (The 3D view downloads the file itself; pdf.js's code and worker are never fetched.)
  const notPdfJs = async () => {
    await expect(page.locator('csai-pdf-viewer')).toHaveCount(0);
    expect(requested.filter((u) => u.includes('/pdfjs-') || u.includes('pdf.worker'))).toEqual([]);
  };

  // The SDF opened by its title in the list: the molecule view, not the PDF viewer.
  await page.goto('/knowledges');
  await page.locator('csai-knowledge').getByText('提问上传的文件').click();
  await row(page, 'cdk2.sdf').getByRole('button', { name: 'cdk2.sdf', exact: true }).click();
  await expect(page).toHaveURL(/\/pdf_viewer\?docId=/);
  await expect(page.locator('csai-molecule-3d [part~="atoms"]')).toContainText('个原子', { timeout: 30_000 });
  await notPdfJs();
  await page.goBack();

  // The SDF from the list's “3D 查看”: its 3D view and its 47 molecules, one chosen for 3D.
  await row(page, 'cdk2.sdf').getByRole('button', { name: '3D 查看' }).click();
  await expect(page).toHaveURL(/\/pdf_viewer\?docId=/);
  await expect(page.getByRole('heading', { name: 'cdk2.sdf' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('该文档不是 PDF 或图片，无法在此预览')).toHaveCount(0);
  await expect(page.locator('csai-molecule-3d [part~="atoms"]')).toContainText('个原子', { timeout: 30_000 });
  const list = page.getByRole('region', { name: '分子列表' });
  await expect(list.getByRole('heading')).toContainText('共 47 个');
  await expect(list.locator('csai-molecule')).toHaveCount(30);
  await expect(list.locator('csai-molecule').first().locator('[part~="drawing"] svg')).toHaveCount(1, { timeout: 30_000 });
  await list.getByRole('button', { name: '3. ZINC03814460' }).click();
  await expect(list.getByRole('button', { name: '3. ZINC03814460' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('3D 显示第 3 个分子：ZINC03814460')).toBeVisible();
  await expect(page.locator('csai-molecule-3d')).toHaveAttribute('mol-key', /:3$/);
  await list.getByRole('button', { name: /显示更多（还有 17 个）/ }).click();
  await expect(list.locator('csai-molecule')).toHaveCount(47);
  await notPdfJs();
  // The 3D canvas takes the height given to the element, not only its 16rem minimum.
  const canvas = await page.locator('csai-molecule-3d [part~="canvas"]').boundingBox();
  expect(canvas!.height).toBeGreaterThan(400);
  await expectAccessible(page, '.mol-doc');

  // The PDB: the protein in 3D, no molecule list.
  await page.goBack();
  await row(page, '5dpv.pdb').getByRole('button', { name: '3D 查看' }).click();
  await expect(page.getByRole('heading', { name: '5dpv.pdb' })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('csai-molecule-3d [part~="atoms"]')).toContainText('个原子', { timeout: 30_000 });
  await expect(page.getByRole('region', { name: '分子列表' })).toHaveCount(0);

  // A PDF: the viewer takes the whole window below the 44 px way back, at 1440 and at 375 px.
  await page.goBack();
  await row(page, 'zhlipsum.pdf').getByRole('button', { name: '打开' }).click();
  const viewer = page.locator('csai-pdf-viewer');
  await expect(viewer.locator('[data-page-number="1"]')).toHaveAttribute('data-rendered', 'true', { timeout: 30_000 });
  expect((await viewer.boundingBox())!.height).toBe(900 - 44);
  await expect(page.getByTestId('back-link')).toBeVisible();
  await page.setViewportSize({ width: 375, height: 812 });
  await expect.poll(async () => (await viewer.boundingBox())!.height).toBe(812 - 44);
  // On the phone the toolbar keeps to two rows and nothing sticks out sideways.
  const toolbar = viewer.locator('[part~="toolbar"]');
  await expect(viewer.locator('[part~="next"]')).toBeVisible();
  await expect
    .poll(() =>
      toolbar.evaluate((bar) => {
        const shown = [...bar.querySelectorAll<HTMLElement>('button, input, [part~="page-count"], [part~="zoom-level"]')]
          .map((el) => el.getBoundingClientRect())
          .filter((r) => r.width > 0 && r.height > 0);
        const centres = [...new Set(shown.map((r) => Math.round((r.top + r.bottom) / 2)))].sort((a, b) => a - b);
        const rows = centres.filter((c, i) => i === 0 || c - centres[i - 1]! > 8).length;
        const box = bar.getBoundingClientRect();
        const outside = shown.filter((r) => r.left < box.left - 0.5 || r.right > box.right + 0.5).length;
        return { twoRowsAtMost: rows <= 2, outside, overflow: bar.scrollWidth > bar.clientWidth, wider: box.width > window.innerWidth };
      }),
    )
    .toEqual({ twoRowsAtMost: true, outside: 0, overflow: false, wider: false });
  for (const name of ['上一页', '下一页', '放大', '缩小', '下载']) await expect(toolbar.getByRole('button', { name, exact: true })).toBeInViewport();
  await expect(page.getByRole('heading', { name: 'zhlipsum.pdf' })).toHaveCount(0);
});

test('the public knowledge page is called 公开知识库 in the top bar, as in its panel', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInOnPage(page, user);
  await page.goto('/public_folder');
  await expect(page.locator('csai-knowledge').getByText('公开知识库').first()).toBeVisible();
  await expect(page.getByText('公共文件夹')).toHaveCount(0);
  await expect(page).toHaveTitle(/公开知识库/);
});
