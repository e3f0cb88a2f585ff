import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { csrfHeaders, expectAccessible, signUpThroughOutbox, uploadParsed } from './helpers';

// In the browser, against the built product with Debian's osra: a paper of RDKit
// vector drawings (a page of text, then the drawings and a CDK2 activity table, printed to PDF by
// Chromium) is uploaded and parsed for real. Its recognised structures are outlined on page 2 of
// the viewer; a click opens the review panel; a correction is saved, survives a reload and is
// found by the molecule search, whose figure hit opens the same review; the SAR page lists the
// compounds and its CSV / SDF exports download files a CSV reader and RDKit read back.
const stamp = Date.now().toString(36);
const user = { email: `figures-${stamp}@example.com`, name: '孙结构', password: 'Quinoline-ring-9' };
const ASPIRIN = 'CC(=O)Oc1ccccc1C(=O)O';
const DRAWN = [ASPIRIN, 'Nc1ccc(S(N)(=O)=O)cc1', 'Cn1cnc2c1c(=O)n(C)c(=O)n2C'];
/** The correction saved in the test: aspirin's methyl ester analogue (what a chemist might type). */
const CORRECTED = 'COC(=O)c1ccccc1OC(C)=O';

type Structure = { id: number; page: number; bbox: [number, number, number, number]; smiles: string; label: string | null };

const rdkit = (script: string, input: string) => execFileSync('/usr/bin/python3', ['-c', script], { input, encoding: 'utf8' }).trim();
const canonical = (smiles: string) => rdkit('import sys\nfrom rdkit import Chem\nprint(Chem.MolToSmiles(Chem.MolFromSmiles(sys.stdin.read().strip())))', smiles);

/** The paper: page 1 text only, page 2 the drawings labelled "Compound N" and an activity table. */
function paperPdf(): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-e2e-figures-'));
  const html = path.join(dir, 'paper.html');
  execFileSync('/usr/bin/python3', [path.resolve('tests/server/chemdocs/chemdocs-draw.py'), html, ...DRAWN]);
  const rows = DRAWN.map((_, i) => `<tr><td>${i + 1}</td><td>${[45, 850, 12][i]}</td></tr>`).join('');
  const text = fs
    .readFileSync(html, 'utf8')
    .replace('<body>', '<body><h1>Discovery of CDK2 inhibitors</h1><p>This page introduces the series; the structures follow on the next page.</p><div style="break-after:page"></div>')
    .replace(
      '</body>',
      `<p>Table 1. Inhibition of CDK2 by compounds 1-3</p><table><tr><th>Compound</th><th>CDK2 IC50 (nM)</th></tr>${rows}</table>` +
        '<p>Compound 1 showed an IC50 of 45 nM against CDK2.</p></body>',
    );
  fs.writeFileSync(html, text);
  const pdf = path.join(dir, 'paper.pdf');
  execFileSync('/usr/bin/chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-pdf-header-footer', `--print-to-pdf=${pdf}`, html], { stdio: 'ignore', timeout: 120_000 });
  return fs.readFileSync(pdf);
}

async function signIn(page: Page) {
  const headers = await csrfHeaders(page.request);
  const res = await page.request.post('/api/v1/auth/sign-in', { headers, data: { account: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
}

const structuresOf = async (page: Page, docId: string) =>
  ((await (await page.request.get(`/api/v1/knowledge_base/doc/${docId}/structures`)).json()) as { data: { structures: Structure[] } }).data.structures;

/** Whether a <csai-molecule> drew a real SVG (paths parsed from the server's drawing). */
const drewSvg = (molecule: Locator) =>
  expect.poll(() => molecule.evaluate((el) => el.shadowRoot?.querySelector('[part~="drawing"] > svg')?.querySelectorAll('path').length ?? 0), { timeout: 60_000 }).toBeGreaterThan(3);

test.describe.configure({ mode: 'serial' });
let docId = '';
let aspirin: Structure;

test.beforeAll(async ({ baseURL }) => {
  await signUpThroughOutbox(baseURL!, user);
});

test('a paper of drawings: its structures are outlined on their page, a click opens the review, a correction is saved and kept', async ({ page }) => {
  test.setTimeout(900_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await signIn(page);
  // Parsing, then structure reading on this shared 2-core machine.
  docId = await uploadParsed(page, { name: 'cdk2-paper.pdf', mimeType: 'application/pdf', buffer: paperPdf() }, { timeout: 600_000, intervals: [2000] });
  await expect.poll(async () => (await structuresOf(page, docId)).length, { timeout: 300_000, intervals: [2000] }).toBeGreaterThanOrEqual(2);
  const structures = await structuresOf(page, docId);
  expect(new Set(structures.map((s) => s.page))).toEqual(new Set([2]));
  const found = structures.find((s) => canonical(s.smiles) === canonical(ASPIRIN));
  expect(found, JSON.stringify(structures)).toBeTruthy();
  aspirin = found!;

  await page.goto(`/pdf_viewer?docId=${docId}`);
  // The structure–activity table's link is a link of the bar above the viewer, beside the way back (not loose at the window's left edge).
  const sar = page.locator('nav.viewer-page__bar [data-testid="sar-link"]');
  await expect(sar).toHaveText('构效关系表');
  await expect(sar).toHaveAttribute('href', `/sar?docId=${docId}`);
  const [sarBox, backBox] = [await sar.boundingBox(), await page.getByTestId('back-link').boundingBox()];
  expect(sarBox!.x).toBeGreaterThan(backBox!.x + backBox!.width);
  expect(Math.abs(sarBox!.y + sarBox!.height / 2 - (backBox!.y + backBox!.height / 2))).toBeLessThan(4);
  expect(await sar.evaluate((el) => getComputedStyle(el).textDecorationLine)).toBe(await page.getByTestId('back-link').evaluate((el) => getComputedStyle(el).textDecorationLine));
  const viewer = page.locator('csai-pdf-viewer');
  const toggle = viewer.locator('[part~="structures-toggle"]');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true', { timeout: 60_000 });
  await expect(toggle).toHaveAttribute('aria-label', `识别的结构（${structures.length}）`);
  // Every box on page 2, none on page 1; each where its bbox (points, origin bottom-left) says.
  const pageTwo = viewer.locator('[data-page-number="2"]');
  await pageTwo.scrollIntoViewIfNeeded();
  await expect(pageTwo.locator('[part~="structure-box"]')).toHaveCount(structures.length, { timeout: 60_000 });
  await expect(viewer.locator('[data-page-number="1"] [part~="structure-box"]')).toHaveCount(0);
  const place = await pageTwo.evaluate((el, id) => {
    const box = el.querySelector<HTMLElement>(`[data-structure-id="${id}"]`)!.getBoundingClientRect();
    const p = el.getBoundingClientRect();
    return { left: box.left - p.left, top: box.top - p.top, width: box.width, height: box.height, pageWidth: p.width, pageHeight: p.height };
  }, aspirin.id);
  const scale = place.pageWidth / 612;
  const [x0, y0, x1, y1] = aspirin.bbox;
  expect(place.left).toBeCloseTo(x0 * scale, 0);
  expect(place.top).toBeCloseTo(place.pageHeight - y1 * scale, 0);
  expect(place.width).toBeCloseTo((x1 - x0) * scale, 0);
  expect(place.height).toBeCloseTo((y1 - y0) * scale, 0);
  await toggle.click();
  await expect(viewer.locator('[part~="structure-box"]')).toHaveCount(0);
  await toggle.click();

  // The review: the drawing cropped from page 2 beside the molecule RDKit drew, label, confidence, method.
  await pageTwo.locator(`[data-structure-id="${aspirin.id}"]`).click();
  const panel = viewer.locator('[part~="structure-panel"]');
  await expect(panel).toBeVisible();
  await expect(viewer.locator('[part~="structure-drawing"]')).toHaveAttribute('data-rendered', 'true', { timeout: 30_000 });
  await drewSvg(viewer.locator('[part~="structure-molecule"]'));
  // Read from the PDF's vector drawing (or by OSRA), said in Chinese.
  await expect(viewer.locator('[part~="structure-method"]')).toHaveText(/^(从 PDF 的矢量图形直接读取|OSRA 识别)/);
  await expect(viewer.locator('[part~="structure-confidence"]')).toHaveText(/^\d+%$/);
  if (aspirin.label) await expect(viewer.locator('[part~="structure-label"]')).toHaveText(aspirin.label);
  await expectAccessible(page, 'csai-pdf-viewer');

  // A structure RDKit refuses: the server's Chinese message, nothing saved.
  const input = viewer.locator('[part~="structure-smiles-input"]');
  await input.fill('C1CC(');
  await viewer.locator('[part~="structure-save"]').click();
  await expect(viewer.locator('[part~="structure-error"]')).toHaveText(/[\u4e00-\u9fff]/);
  await expect(viewer.locator('[part~="structure-corrected-by"]')).toHaveCount(0);
  // The correction: saved, who made it shown, the molecule redrawn.
  await input.fill(CORRECTED);
  await viewer.locator('[part~="structure-save"]').click();
  await expect(viewer.locator('[part~="structure-saved"]')).toBeVisible({ timeout: 30_000 });
  await expect(viewer.locator('[part~="structure-corrected-by"]')).toContainText(`已由 ${user.name} 于`);
  const corrected = canonical(CORRECTED);
  await expect(viewer.locator('[part~="structure-smiles"]')).toHaveText(corrected);

  // After a reload the correction is what the document's structure is.
  await page.reload();
  await viewer.locator('[data-page-number="2"]').scrollIntoViewIfNeeded();
  await viewer.locator(`[data-page-number="2"] [data-structure-id="${aspirin.id}"]`).click({ timeout: 60_000 });
  await expect(viewer.locator('[part~="structure-smiles"]')).toHaveText(corrected);
  await expect(viewer.locator('[part~="structure-recognised"]')).toHaveText(aspirin.smiles);
  await expect(viewer.locator('[part~="structure-corrected-by"]')).toContainText(user.name);
  await expect(viewer.locator(`[data-structure-id="${aspirin.id}"]`)).toHaveAttribute('data-corrected', 'true');
  expect(problems).toEqual([]);
});

test('the molecule search finds the corrected structure; its figure hit opens the drawing with its review', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto('/molecules');
  await page.locator('input[name="query"]').fill(CORRECTED);
  await page.getByRole('radio', { name: '精确结构' }).check();
  await page.locator('.molsearch__submit').click();
  const hit = page.locator('.molsearch__hit[data-source="figure"]').first();
  await expect(hit).toContainText('第 2 页的结构图', { timeout: 60_000 });
  await hit.getByRole('link', { name: '核对识别的结构' }).click();
  await expect(page).toHaveURL(new RegExp(`/pdf_viewer\\?docId=${docId}&page=2&bbox=[\\d.%C]+&structure=${aspirin.id}$`));
  const viewer = page.locator('csai-pdf-viewer');
  await expect(viewer.locator('[part~="structure-panel"]')).toBeVisible({ timeout: 60_000 });
  await expect(viewer.locator('[part~="structure-smiles"]')).toHaveText(canonical(CORRECTED));
  // The drawing is highlighted as a citation, and its box marked as the one open.
  await expect(viewer.locator('[data-page-number="2"] [part~="citation"]')).toBeVisible({ timeout: 60_000 });
  await expect(viewer.locator('[part~="structure-box-selected"]')).toHaveAttribute('data-structure-id', String(aspirin.id));
});

test('the SAR page lists the compounds and its CSV and SDF exports download files RDKit and a CSV reader read', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto(`/sar?docId=${docId}`);
  const rows = page.locator('.sar__table tbody tr');
  await expect(rows.first()).toBeVisible({ timeout: 60_000 });
  const labels = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-label')));
  expect(labels).toContain('1');
  await expect(page.locator('.sar__table thead')).toContainText('CDK2 IC50 (nM)');
  const row1 = page.locator('.sar__table tr[data-label="1"]');
  await expect(row1).toContainText('45');
  // The drawn structure of compound 1 (the correction, which wins for every reader).
  await expect(row1.locator('csai-molecule')).toHaveAttribute('smiles', canonical(CORRECTED));

  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '下载 CSV' }).click()]);
  const csvText = fs.readFileSync((await csv.path())!, 'utf8');
  const parsed = JSON.parse(rdkit('import csv, io, json, sys\nprint(json.dumps(list(csv.DictReader(io.StringIO(sys.stdin.read().lstrip("\\ufeff"))))))', csvText)) as Record<string, string>[];
  const one = parsed.find((r) => Object.values(r).includes('1'));
  expect(one, csvText).toBeTruthy();
  expect(Object.values(one!).some((v) => v.includes('45'))).toBe(true);

  const [sdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '下载 SDF' }).click()]);
  expect(sdf.suggestedFilename()).toMatch(/\.sdf$/);
  const read = JSON.parse(
    rdkit('import io, json, sys\nfrom rdkit import Chem\nms=[m for m in Chem.ForwardSDMolSupplier(io.BytesIO(sys.stdin.buffer.read())) if m is not None]\nprint(json.dumps([[Chem.MolToSmiles(m), m.GetPropsAsDict()] for m in ms]))', fs.readFileSync((await sdf.path())!, 'utf8')),
  ) as [string, Record<string, unknown>][];
  expect(read.length).toBeGreaterThan(0);
  expect(read.some(([smiles]) => smiles === canonical(CORRECTED))).toBe(true);

  // Compound 1's structure opens its drawing on page 2 with the review beside it.
  await row1.getByRole('link', { name: '在第 2 页核对识别的结构' }).click();
  await expect(page).toHaveURL(new RegExp(`/pdf_viewer\\?docId=${docId}&page=2&bbox=[\\d.%C]+&structure=${aspirin.id}$`));
  const viewer = page.locator('csai-pdf-viewer');
  await expect(viewer.locator('[part~="structure-panel"]')).toBeVisible({ timeout: 60_000 });
  await expect(viewer.locator('[part~="structure-smiles"]')).toHaveText(canonical(CORRECTED));
});
