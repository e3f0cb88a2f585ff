import fs from 'node:fs';
import path from 'node:path';
import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { csrfHeaders, expectAccessible, signInOnPage, signUpThroughOutbox, type TestUser } from './helpers';

// End to end: a chemist types a substructure on /molecules and finds the molecules of
// their own SDF file, never those of another user's file. Real files nobody here wrote (rdkit-data,
// `node scripts/fetch-test-docs.mjs`): cdk2.sdf is theirs, first_200.props.sdf (NCI) the other user's.
const DOCS = '.tmp/test-docs';
const stamp = Date.now().toString(36);
const chemist: TestUser = { email: `molsearch-${stamp}@example.com`, name: '钱药化', password: 'Purine-core-7' };
const other: TestUser = { email: `molsearch-other-${stamp}@example.com`, name: '孙同行', password: 'Indole-ring-9' };
/** The 2-aminopurine core of the cdk2.sdf inhibitors. */
const PURINE = 'Nc1nc(O)c2nc[nX3]c2n1';
/** A benzene ring: in both files. */
const BENZENE = 'c1ccccc1';

/** Signs in through the API and uploads one file, waiting until its molecules are searchable. */
async function uploadAs(baseURL: string, user: TestUser, file: string): Promise<{ api: APIRequestContext; docId: string }> {
  const api = await request.newContext({ baseURL });
  let headers = await csrfHeaders(api);
  const signIn = await api.post('/api/v1/auth/sign-in', { headers, data: { account: user.email, password: user.password } });
  expect(signIn.status(), await signIn.text()).toBe(200);
  headers = await csrfHeaders(api);
  const res = await api.post('/api/v1/knowledge_base/upload', { headers, multipart: { files: { name: file, mimeType: 'chemical/x-mdl-sdfile', buffer: fs.readFileSync(path.join(DOCS, file)) } } });
  expect(res.status(), await res.text()).toBe(200);
  const docId = ((await res.json()) as { data: { name_id: { docId: string }[] } }).data.name_id[0]!.docId;
  // Parsed, then indexed: an exact search for a benzene-bearing molecule of the file answers.
  await expect
    .poll(async () => {
      const search = await api.post('/api/v1/mol/search', { headers: await csrfHeaders(api), data: { query: BENZENE, mode: 'substructure', top_k: 1 } });
      return ((await search.json()) as { data?: { hits: { doc_id: string }[] } }).data?.hits.length ?? 0;
    }, { timeout: 120_000 })
    .toBe(1);
  return { api, docId };
}

test('a typed substructure finds the molecules of the chemist’s own SDF file and not another user’s', async ({ page, baseURL }) => {
  test.setTimeout(300_000);
  await signUpThroughOutbox(baseURL!, chemist);
  await signUpThroughOutbox(baseURL!, other);
  const mine = await uploadAs(baseURL!, chemist, 'cdk2.sdf');
  const theirs = await uploadAs(baseURL!, other, 'first_200.props.sdf');

  await signInOnPage(page, chemist);
  await page.getByRole('button', { name: '分子检索' }).click();
  await expect(page).toHaveURL(/\/molecules$/);
  await expect(page.getByRole('heading', { level: 1, name: '分子检索' })).toBeVisible();
  await page.getByLabel('查询结构').fill(BENZENE);
  await page.getByLabel('子结构').check();
  await page.getByLabel('最多返回').selectOption('500');
  await page.getByRole('button', { name: '检索', exact: true }).click();
  const links = page.locator('.molsearch__hit a');
  await expect(links.first()).toBeVisible({ timeout: 30_000 });
  // Every hit is in the chemist's file; the other user's NCI molecules (many with benzene) never show.
  const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  expect(hrefs.length).toBeGreaterThan(5);
  expect(hrefs.every((h) => h.includes(`docId=${mine.docId}`))).toBe(true);
  expect(hrefs.some((h) => h.includes(theirs.docId))).toBe(false);

  // The purine core, typed as SMARTS: the hits are drawn, and one opens its molecule in the viewer.
  await page.getByLabel('查询结构').fill(PURINE);
  await page.getByRole('button', { name: '检索', exact: true }).click();
  await expect(page.locator('.molsearch__summary')).toContainText('查询按 SMARTS 解析');
  await expect(page.locator('.molsearch__hit csai-molecule').first()).toBeVisible();
  await expectAccessible(page, '.molsearch');
  await links.first().click();
  await expect(page).toHaveURL(new RegExp(`/pdf_viewer\\?docId=${mine.docId}&type=5&mol=\\d+`));

  // The other user searching the same finds only their own molecules.
  const seen = await theirs.api.post('/api/v1/mol/search', { headers: await csrfHeaders(theirs.api), data: { query: PURINE, mode: 'substructure' } });
  expect(((await seen.json()) as { data: { hits: unknown[] } }).data.hits).toEqual([]);
  await mine.api.dispose();
  await theirs.api.dispose();
});
