import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './helpers';

const SHOTS = 'test-results/screenshots';
fs.mkdirSync(SHOTS, { recursive: true });

const email = `shell${Date.now().toString(36)}@example.com`;
const password = 'Benzene-ring-6';

/** A still picture: the route progress bar gone, toasts dismissed, animations finished. */
async function screenshot(page: Page, name: string, fullPage = true) {
  await expect(page.locator('.route-progress')).toHaveCount(0);
  for (const close of await page.locator('.toast__close').all()) await close.click();
  await expect(page.locator('.toast')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage, animations: 'disabled' });
}

async function activationLink(page: Page): Promise<string> {
  const res = await page.request.get(`/api/v1/dev/outbox?recipient=${encodeURIComponent(email)}`);
  const body = (await res.json()) as { data: { body: string }[] };
  const link = /https?:\/\/\S+#activate_transit=[\w-]+/.exec(body.data[0]?.body ?? '')?.[0];
  if (!link) throw new Error('no activation link in the outbox');
  return link;
}

async function signIn(page: Page) {
  await page.goto('/auth/sign-in');
  await page.getByLabel('邮箱或手机号').fill(email);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('有什么可以帮您？');
}

const sidebarCookie = async (page: Page) => (await page.context().cookies()).find((c) => c.name === 'sidebar:state')?.value;

test.describe.configure({ mode: 'serial' });

test('sign up, activate from the outbox link, sign in, use the sidebar, sign out', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  // Signed out, an app route lands on sign-in.
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/sign-in$/);

  await page.goto('/auth/sign-up');
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await expect(page.getByText('请输入姓名')).toBeVisible();
  await page.getByLabel('姓名').fill('王化学');
  await page.getByLabel('邮箱').fill(email);
  await page.getByLabel('密码', { exact: true }).fill('short');
  await page.getByLabel('确认密码').fill('short');
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await expect(page.getByText('密码至少需要8个字符')).toBeVisible();
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('确认密码').fill(password);
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await expect(page.getByText('注册成功，激活链接已发送到您的邮箱')).toBeVisible();

  // Signing in before activation is refused with the server's message.
  await page.goto('/auth/sign-in');
  await page.getByLabel('邮箱或手机号').fill(email);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: '账号尚未激活' })).toBeVisible();

  const link = new URL(await activationLink(page));
  await page.goto(link.pathname + link.hash);
  await expect(page).toHaveURL(/\/auth\/activate-transit\?token=/);
  await expect(page.getByText('账号已激活，请登录')).toBeVisible();
  await page.getByRole('link', { name: '去登录' }).click();
  await expect(page).toHaveURL(/\/auth\/sign-in$/);

  await signIn(page);
  await expect(page.getByRole('button', { name: /阿司匹林/ })).toBeVisible();
  await expect(page.getByText('PDF 精准解析')).toBeVisible();
  await expect(page.locator('csai-ask')).toHaveCount(1);
  await screenshot(page, 'home-1440');
  await expectAccessible(page);

  // The sidebar collapses to icons, the cookie keeps it across a reload, Ctrl+B expands it.
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  await page.getByTestId('sidebar-toggle').click();
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
  expect(await sidebarCookie(page)).toBe('false');
  await page.reload();
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'collapsed');
  await page.keyboard.press('Control+b');
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'expanded');
  expect(await sidebarCookie(page)).toBe('true');

  // The side rail: history, knowledge bases, and back to a new conversation.
  await page.getByRole('button', { name: '历史会话' }).click();
  await expect(page).toHaveURL(/\/channels$/);
  await expect(page.locator('csai-channels')).toHaveCount(1);
  await page.getByRole('button', { name: '知识库' }).click();
  await expect(page).toHaveURL(/\/knowledges$/);
  await page.getByRole('button', { name: '新对话' }).click();
  await expect(page).toHaveURL(/\/$/);

  // The version history dialog shows this project's changelog.
  await page.getByRole('button', { name: /王化学|shell/ }).click();
  await expect(page.getByRole('menuitem', { name: /升级到 Pro/ })).toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('menuitem', { name: '版本历史' }).click();
  await expect(page.getByRole('dialog', { name: '版本历史' })).toBeVisible();
  await expect(page.getByRole('dialog').getByText('v0.1.0')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Sign out: the toast, then sign-in; an app route now lands on sign-in.
  await page.getByRole('button', { name: /王化学|shell/ }).click();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await expect(page.getByText('登出成功')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/sign-in$/);
  await page.goto('/channels');
  await expect(page).toHaveURL(/\/auth\/sign-in$/);
  await expect(page.getByRole('heading', { name: '登录', level: 1 })).toBeVisible();
  await screenshot(page, 'sign-in-1440');
  await expectAccessible(page);
});

test('an error page explains itself and leads back', async ({ page }) => {
  await page.goto('/errors/404');
  await expect(page.getByRole('heading', { name: '页面不存在' })).toBeVisible();
  await expect(page.getByRole('link', { name: '返回首页' })).toBeVisible();
  await expectAccessible(page);
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: '页面不存在' })).toBeVisible();
  await page.goto('/errors/503');
  await expect(page.getByRole('heading', { name: '服务暂时不可用' })).toBeVisible();
});

test('a 375px screen gets the sidebar as a drawer', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 780 });
  await page.goto('/auth/sign-in');
  await screenshot(page, 'sign-in-375');
  await expectAccessible(page);
  await signIn(page);
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  await screenshot(page, 'home-375');
  await page.getByRole('button', { name: '打开导航菜单' }).click();
  const drawer = page.getByTestId('sidebar-drawer');
  await expect(drawer).toBeVisible();
  await screenshot(page, 'drawer-375', false);
  await drawer.getByRole('button', { name: '知识库' }).click();
  await expect(page).toHaveURL(/\/knowledges$/);
  await expect(drawer).toHaveCount(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
});

test('signing in returns to the page asked for; the diagnostics and plan pages tell the truth', async ({ page }) => {
  await page.goto('/test');
  await expect(page).toHaveURL(/\/auth\/sign-in$/);
  await page.getByLabel('邮箱或手机号').fill(email);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/\/test$/);
  await expect(page.getByRole('heading', { name: '系统诊断' })).toBeVisible();
  await expect(page.getByText('本地检索（未配置大模型）')).toBeVisible();
  // The OCR engine in force (PP-OCR: its models come with the npm packages).
  await expect(page.getByText('PP-OCRv4（onnxruntime，CPU）')).toBeVisible();
  await page.goto('/billing');
  await expect(page.getByRole('heading', { name: '免费版' })).toBeVisible();
  await expect(page.getByRole('button', { name: '立即升级' })).toBeDisabled();
});
