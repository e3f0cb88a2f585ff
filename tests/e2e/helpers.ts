import fs from 'node:fs';
import { expect, request, type APIRequestContext, type Page } from '@playwright/test';

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
