import { z } from 'zod';
import { isPlainName } from './text';

/** True when a string has no control characters (NUL, newlines, escapes): none belong in a name, account or password. */
const printable = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);

/** A mainland-China mobile number, optionally with +86, normalised to 11 digits. */
export const phoneNumber = z
  .string()
  .trim()
  .max(32, '手机号格式不正确')
  .transform((s) => s.replace(/[\s-]/g, '').replace(/^(\+?86)(?=1\d{10}$)/, ''))
  .pipe(z.string().regex(/^1[3-9]\d{9}$/, '手机号格式不正确'));

/** An e-mail address, lower-cased. */
export const emailAddress = z
  .string()
  .trim()
  .max(254, '邮箱地址过长')
  .pipe(z.email('邮箱格式不正确'))
  .transform((s) => s.toLowerCase());

/** A new password: 8–128 characters with at least one letter and one digit. */
export const newPassword = z
  .string()
  .min(8, '密码至少需要8个字符')
  .max(128, '密码不能超过128个字符')
  .refine((s) => /[A-Za-z]/.test(s) && /\d/.test(s), '密码需同时包含字母和数字')
  .refine(printable, '密码不能包含控制字符');

/** A sign-in account: an e-mail address or a phone number, as typed. */
export const account = z.string().trim().min(1, '请输入邮箱或手机号').max(254, '账号过长').refine(printable, '账号包含非法字符');

/** A display name: 1–50 characters after trimming. */
export const personName = z.string().trim().min(1, '请输入姓名').max(50, '姓名不能超过50个字符').refine(isPlainName, '姓名包含非法字符');

const opaqueToken = z.string().trim().min(16, '链接无效').max(200, '链接无效').regex(/^[A-Za-z0-9_-]+$/, '链接无效');

/** POST /api/v1/auth/sign-up: exactly one of email or phone. */
export const signUpBody = z
  .object({
    email: emailAddress.optional(),
    phone: phoneNumber.optional(),
    password: newPassword,
    name: personName,
    department_id: z.string().trim().min(1, '部门不存在').max(64, '部门不存在').optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.email && !v.phone) ctx.addIssue({ code: 'custom', path: ['email'], message: '请填写邮箱或手机号' });
    if (v.email && v.phone) ctx.addIssue({ code: 'custom', path: ['phone'], message: '邮箱和手机号只能填写一个' });
  });
export type SignUpBody = z.infer<typeof signUpBody>;

/** POST /api/v1/auth/activate and the token of reset-password. */
export const activateBody = z.object({ token: opaqueToken }).strict();

/** POST /api/v1/auth/sign-in. */
export const signInBody = z
  .object({ account, password: z.string().min(1, '请输入密码').max(128, '密码不能超过128个字符').refine(printable, '密码不能包含控制字符') })
  .strict();

/** POST /api/v1/auth/otp/send and /auth/forgot-password. */
export const accountBody = z.object({ account }).strict();

/** POST /api/v1/auth/otp/verify. */
export const otpVerifyBody = z.object({ account, code: z.string().trim().max(32, '验证码为6位数字').regex(/^\d{6}$/, '验证码为6位数字') }).strict();

/** POST /api/v1/auth/reset-password. */
export const resetPasswordBody = z.object({ token: opaqueToken, password: newPassword }).strict();

/** User info of SPEC §3 as GET /api/v1/auth/me answers it. */
export const userInfo = z.object({
  id: z.string(),
  _id: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  telephone: z.string().nullable(),
  email: z.string().nullable(),
  department_name: z.string(),
  show_name: z.string(),
  is_admin: z.boolean(),
  /** The interface language the user chose; null when never chosen. */
  language: z.enum(['zh', 'en']).nullable().optional(),
});
export type UserInfo = z.infer<typeof userInfo>;

/** The interface languages of the site. */
export const INTERFACE_LANGUAGES = ['zh', 'en'] as const;

/** PUT /api/v1/auth/me/language: the user's interface language, remembered for their next visit. */
export const languageBody = z.object({ language: z.enum(INTERFACE_LANGUAGES, { error: '界面语言只能是 zh（中文）或 en（English）' }) }, { error: '请求体必须是 JSON 对象' }).strict();

/**
 * GET /api/v1/auth/session: who this browser is, answered 200 whether or not anyone is signed in
 * (a signed-out visitor's page load is not an error). `state` says why `user` is null: no session
 * cookie, an unknown or revoked one, or an expired one. GET /auth/me keeps its 401 for API clients.
 */
export const sessionInfo = z.object({
  user: userInfo.nullable(),
  state: z.enum(['signed_in', 'anonymous', 'invalid', 'expired']),
});
export type SessionInfo = z.infer<typeof sessionInfo>;

/** GET /api/v1/auth/options: whether sign-up with e-mail or phone is open, and whether directory (LDAP) sign-in is on. */
export const authOptions = z.object({ local_signup: z.boolean(), directory: z.boolean() });
export type AuthOptions = z.infer<typeof authOptions>;

/** The masked display name of SPEC §3: phone as 3 digits, four stars, digits 8–11; else the e-mail. */
export function displayName(user: { phone: string | null; email: string | null; name?: string }): string {
  if (user.phone && user.phone.length >= 11) return `${user.phone.slice(0, 3)}****${user.phone.slice(7, 11)}`;
  return user.email ?? user.phone ?? user.name ?? '';
}

/** SPEC-free addition (DESIGN §3): personal API tokens. At most this many per user. */
export const MAX_API_TOKENS = 20;

/** POST /auth/tokens: a name the owner recognises the token by. */
export const apiTokenBody = z
  .object({
    name: z
      .string({ error: '请输入令牌名称' })
      .trim()
      .min(1, '请输入令牌名称')
      .max(50, '令牌名称不能超过50个字符')
      .refine(isPlainName, '令牌名称不能包含控制字符或不可见的格式字符'),
  })
  .strict();

/** A token as listed: never the token itself. */
export const apiToken = z.object({
  id: z.string(),
  name: z.string(),
  /** The token's first characters (`csai_AbCd…`). */
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiToken>;

/** POST /auth/tokens answer: the token in full, shown this once (only its hash is stored). */
export const createdApiToken = apiToken.extend({ token: z.string() });

/** DELETE /auth/tokens/{id}. */
export const apiTokenIdParams = z.object({ id: z.string().trim().min(1, '请提供令牌编号').max(100, '令牌编号无效') });
