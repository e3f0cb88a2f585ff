import fs from 'node:fs';
import path from 'node:path';
import { expect, request, type APIRequestContext, type Page } from '@playwright/test';
// @ts-expect-error plain ESM script shared with `npm run demo`
import { startDemoServer } from '../../scripts/demo-server.mjs';

/**
 * The demo pages (scripts/demo-server.mjs) run on another origin than CSAI: this port, or the next
 * ones for further parallel workers (`--workers=N`, up to DEMO_PORTS), all allowed by CORS in
 * playwright.config.ts.
 */
export const DEMO_PORT = Number(process.env.E2E_DEMO_PORT ?? 18932);
export const DEMO_PORTS = 4;

/** Starts the demo pages for the worker `parallelIndex`, loading the widgets from `csaiOrigin`. */
export function startDemo(csaiOrigin: string, parallelIndex: number): Promise<{ url: string; close: () => Promise<void> }> {
  if (parallelIndex >= DEMO_PORTS) throw new Error(`the embed specs run on at most ${DEMO_PORTS} workers (DEMO_PORTS in tests/e2e/helpers.ts)`);
  return startDemoServer({ port: DEMO_PORT + parallelIndex, csaiOrigin });
}

/** An account the e2e specs create. */
export interface TestUser {
  email: string;
  name: string;
  password: string;
}

/** Headers of a write through the API as the browser sends it (CSRF cookie echoed in the header). */
export async function csrfHeaders(api: APIRequestContext) {
  await api.get('/api/v1/');
  const cookie = (await api.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN');
  return { 'X-Requested-With': 'XMLHttpRequest', 'X-CSRF-TOKEN': decodeURIComponent(cookie?.value ?? '') };
}

/** Signs up and activates through the API, reading the activation link from the dev outbox. */
export async function signUpThroughOutbox(baseURL: string, user: TestUser) {
  const api = await request.newContext({ baseURL });
  const headers = await csrfHeaders(api);
  const up = await api.post('/api/v1/auth/sign-up', { headers, data: { email: user.email, password: user.password, name: user.name } });
  expect(up.status(), await up.text()).toBe(200);
  const outbox = (await (await api.get(`/api/v1/dev/outbox?recipient=${encodeURIComponent(user.email)}`)).json()) as { data: { body: string }[] };
  const token = /activate_transit=([\w-]+)/.exec(outbox.data.at(-1)?.body ?? '')?.[1];
  expect(token, 'activation link in the outbox').toBeTruthy();
  const act = await api.post('/api/v1/auth/activate', { headers, data: { token } });
  expect(act.status(), await act.text()).toBe(200);
  await api.dispose();
}

/** Signs in on the sign-in page (`origin` when the page under test is on another origin) and lands on home. */
export async function signInOnPage(page: Page, user: Pick<TestUser, 'email' | 'password'>, origin = '') {
  await page.goto(`${origin}/auth/sign-in`);
  await page.getByLabel('邮箱或手机号').fill(user.email);
  await page.getByLabel('密码', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
}

interface AxeResult { violations: { id: string; impact: string | null; help: string; nodes: { target: unknown }[] }[] }
declare global {
  interface Window { axe: { run: (ctx?: unknown) => Promise<AxeResult> } }
}

/** axe-core finds no serious or critical violation on the page, or inside one element. */
export async function expectAccessible(page: Page, selector?: string) {
  // Evaluated by the test driver, not added as an inline <script>: the site's CSP refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(fs.readFileSync('node_modules/axe-core/axe.min.js', 'utf8'));
  const result = await page.evaluate((sel) => (sel ? window.axe.run(document.querySelector(sel)) : window.axe.run()), selector);
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`)).toEqual([]);
}

/** The real documents the specs upload (scripts/fetch-test-docs.mjs). */
export const TEST_DOCS = '.tmp/test-docs';

/**
 * Uploads one file into the question folder with the page's session (a file of TEST_DOCS, or the
 * bytes given) and waits until it is parsed; its docId. `origin` is the CSAI server when the page
 * is another site's.
 */
export async function uploadParsed(
  page: Page,
  file: { name: string; mimeType: string; buffer?: Buffer },
  { origin = '', timeout = 90_000, intervals }: { origin?: string; timeout?: number; intervals?: number[] } = {},
): Promise<string> {
  const res = await page.request.post(`${origin}/api/v1/knowledge_base/upload`, {
    headers: await csrfHeaders(page.request),
    multipart: { files: { name: file.name, mimeType: file.mimeType, buffer: file.buffer ?? fs.readFileSync(path.join(TEST_DOCS, file.name)) } },
  });
  expect(res.status(), await res.text()).toBe(200);
  const docId = ((await res.json()) as { data: { name_id: { docId: string }[] } }).data.name_id[0]!.docId;
  await expect
    .poll(async () => ((await (await page.request.get(`${origin}/api/v1/knowledge_base/doc/${docId}`)).json()) as { data: { parseStatus: number } }).data.parseStatus, { timeout, ...(intervals ? { intervals } : {}) })
    .toBe(2);
  return docId;
}
