// The auth pages a returning chemist uses besides sign-up: sign-in mistakes, sign-in by one-time
// code, and the forgotten-password round trip — each page's own checks and the server's messages,
// on the real server with the dev outbox standing in for mail.
import { expect, test, type Page } from '@playwright/test';
import { signUpThroughOutbox, type TestUser } from './helpers';

const user: TestUser = { email: `auth${Date.now().toString(36)}@example.com`, name: '李药化', password: 'Pyridine-ring-5' };

test.describe.configure({ mode: 'serial' });
test.beforeAll(async ({ baseURL }) => signUpThroughOutbox(baseURL!, user));

/** The newest mail to the test account whose body matches. */
async function mailMatching(page: Page, pattern: RegExp): Promise<RegExpExecArray> {
  let found: RegExpExecArray | null = null;
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/v1/dev/outbox?recipient=${encodeURIComponent(user.email)}`);
      const mails = ((await res.json()) as { data: { body: string }[] }).data;
      found = mails.map((m) => pattern.exec(m.body)).filter((m) => m !== null).at(-1) ?? null;
      return found !== null;
    })
    .toBe(true);
  return found!;
}

test('sign-in: empty and malformed input, then a wrong password, each with its message', async ({ page }) => {
  await page.goto('/auth/sign-in');
  const submit = page.getByRole('button', { name: '登录', exact: true });
  await submit.click();
  // Nothing was sent: both fields explain themselves.
  await expect(page.locator('.field__error')).toHaveCount(2);
  await page.getByLabel('邮箱或手机号').fill(user.email);
  await page.getByLabel('密码', { exact: true }).fill('Not-the-password-1');
  await submit.click();
  await expect(page.getByRole('alert').filter({ hasText: '账号或密码错误' })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/sign-in$/);
  await expect(submit).toBeEnabled();
});

test('one-time code: a malformed code is refused on the page, a wrong one by the server, the mailed one signs in', async ({ page }) => {
  await page.goto('/auth/sign-in');
  await page.getByRole('link', { name: '使用验证码登录' }).click();
  await expect(page).toHaveURL(/\/auth\/otp$/);

  await page.getByLabel('邮箱或手机号').fill(user.email);
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByRole('status').filter({ hasText: '如果该账号已注册，验证码已发送，10分钟内有效' })).toBeVisible();
  // The resend button counts down instead of letting the user flood the mailbox.
  await expect(page.getByRole('button', { name: /秒后可重发/ })).toBeDisabled();
  const [, code] = await mailMatching(page, /验证码是 (\d{6})/);

  const codeField = page.getByLabel('验证码');
  await codeField.fill('12ab');
  // Letters never reach the field; four digits are not a code.
  await expect(codeField).toHaveValue('12');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page.getByText('验证码为6位数字')).toBeVisible();

  const wrong = code === '000000' ? '111111' : '000000';
  await codeField.fill(wrong);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page.getByText('验证码错误或已失效，请重新获取')).toBeVisible();

  await codeField.fill(code!);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('登录成功')).toBeVisible();
});

test('forgot password: the link from the mail sets a new password; mismatches and a spent link are explained', async ({ page }) => {
  await page.goto('/auth/forgot-password');
  await page.getByRole('button', { name: '发送重置链接' }).click();
  await expect(page.locator('.field__error')).toHaveCount(1);
  await page.getByLabel('邮箱或手机号').fill(user.email);
  await page.getByRole('button', { name: '发送重置链接' }).click();
  await expect(page.getByRole('status').filter({ hasText: '如果该账号已注册，重置密码链接已发送' })).toBeVisible();
  const [link] = await mailMatching(page, /https?:\/\/\S+#pswd_transit=[\w-]+/);

  const url = new URL(link);
  await page.goto(url.pathname + url.hash);
  await expect(page).toHaveURL(/\/auth\/reset-password\?token=/);
  const resetUrl = page.url();
  const newPassword = 'Quinoline-ring-9';
  await page.getByLabel('新密码').fill(newPassword);
  await page.getByLabel('确认密码').fill(`${newPassword}x`);
  await page.getByRole('button', { name: '重置密码' }).click();
  await expect(page.getByText('两次输入的密码不一致')).toBeVisible();

  await page.getByLabel('确认密码').fill(newPassword);
  await page.getByRole('button', { name: '重置密码' }).click();
  await expect(page).toHaveURL(/\/auth\/sign-in$/);
  await expect(page.getByText('密码已重置，请使用新密码登录')).toBeVisible();

  // The same link a second time: the server's reason, shown on the form.
  await page.goto(resetUrl);
  await page.getByLabel('新密码').fill('Another-ring-7');
  await page.getByLabel('确认密码').fill('Another-ring-7');
  await page.getByRole('button', { name: '重置密码' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '重置密码链接已使用过' })).toBeVisible();

  // A link without its token cannot be used at all.
  await page.goto('/auth/reset-password');
  await expect(page.getByText('链接无效或不完整，请重新获取')).toBeVisible();

  // The old password is gone, the new one works.
  await page.goto('/auth/sign-in');
  await page.getByLabel('邮箱或手机号').fill(user.email);
  await page.getByLabel('密码', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: '账号或密码错误' })).toBeVisible();
  await page.getByLabel('密码', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
});
