import { z } from 'zod';
import {
  accountBody,
  activateBody,
  apiToken,
  apiTokenBody,
  apiTokenIdParams,
  createdApiToken,
  MAX_API_TOKENS,
  languageBody,
  otpVerifyBody,
  resetPasswordBody,
  authOptions,
  sessionInfo,
  signInBody,
  signUpBody,
  userInfo,
} from '../../contract/auth';
import { errorResponses, ok as okSchema } from '../../contract/envelope';
import type { FastifyRequest } from 'fastify';
import { accountKey, usersRepo } from '../auth/accounts';
import { accountService, DIRECTORY_PASSWORD_NOTE } from '../auth/account-service';
import { sessionsRepo } from '../auth/sessions';
import { AppError, badRequest, forbidden, notFound } from '../errors';
import { apiTokensRepo } from '../auth/api-tokens';
import { ok, type App, type Services } from './types';

const HOUR = 3600_000;

const empty = okSchema(z.null());
const withUser = okSchema(userInfo);
const tags = ['auth'];

/**
 * Limits per client address and account (DESIGN §9): brute force and mail bombing stop here.
 * The account is normalised (case, +86, spaces) so spelling variants share one counter.
 */
const limit = (max: number, minutes: number) => ({
  rateLimit: {
    max,
    timeWindow: minutes * 60_000,
    keyGenerator: (req: { ip: string; body?: unknown }) => {
      const body = req.body as { account?: unknown } | undefined;
      return `${req.ip}|${typeof body?.account === 'string' ? accountKey(body.account) : ''}`;
    },
  },
});

/** The answer when a limit is reached (the same envelope as the route limits). */
const tooMany = () => new AppError(429, 'rate_limited', '请求过于频繁，请稍后再试');

/** Sign-up, activation, password and code sign-in, reset, sign-out and the current user. */
export default async function authRoutes(app: App, { config, db, secret, notifier }: Services) {
  const accounts = accountService({ config, db, secret, notifier });
  const users = usersRepo(db);
  const sessions = sessionsRepo(db);
  const ttlMs = config.CSAI_SESSION_TTL_HOURS * HOUR;
  /** Delivers queued messages after commit; a failure is logged, never an unhandled rejection. */
  const deliver = (req: FastifyRequest) => {
    accounts.flush().catch((err: unknown) => req.log.error({ err }, 'message delivery failed'));
  };

  /**
   * Signs a user in: the session this browser held before (if any) is ended and a fresh random
   * id is issued with a new CSRF token, so no id known before sign-in survives it (no fixation).
   */
  const startSession = async (req: FastifyRequest, userId: string) => {
    const prior = await req.auth();
    if (prior.kind === 'user' && prior.sessionId) await sessions.revoke(prior.sessionId);
    return sessions.create(userId, ttlMs, req.headers['user-agent'] ?? null);
  };

  /**
   * A second, per-address limit on top of the per-account one: without it an address could try
   * one password against many accounts, or ask codes for many accounts, unchecked. Generous,
   * because a whole office may reach the server from one NAT or proxy address.
   */
  const perAddress = (max: number, minutes: number) => {
    const check = app.createRateLimit({ max, timeWindow: minutes * 60_000, keyGenerator: (req) => req.ip });
    return async (req: FastifyRequest) => {
      const r = await check(req);
      if (!r.isAllowed && r.isExceeded) throw tooMany();
    };
  };

  app.get('/options', {
    schema: { tags, summary: 'How people sign in here: local sign-up on or off, directory (LDAP) sign-in or not', response: { 200: okSchema(authOptions), ...errorResponses } },
  }, async () => ok({ local_signup: config.CSAI_LOCAL_SIGNUP, directory: accounts.hasDirectory }));

  app.post('/sign-up', {
    schema: { tags, summary: 'Create an account and send its activation link', body: signUpBody, response: { 200: empty, ...errorResponses } },
    config: limit(30, 10),
  }, async (req) => {
    await accounts.signUp(req.body);
    deliver(req);
    return ok(null, req.body.email ? '注册成功，激活链接已发送到您的邮箱' : '注册成功，激活链接已发送到您的手机');
  });

  app.post('/activate', {
    schema: { tags, summary: 'Activate an account with the token from its link', body: activateBody, response: { 200: empty, ...errorResponses } },
    config: limit(30, 10),
  }, async (req) => {
    await accounts.activate(req.body.token);
    return ok(null, '账号已激活，请登录');
  });

  app.post('/sign-in', {
    schema: { tags, summary: 'Sign in with account and password', body: signInBody, response: { 200: withUser, ...errorResponses } },
    config: limit(10, 15),
    preHandler: perAddress(200, 15),
  }, async (req, reply) => {
    const user = await accounts.signIn(req.body.account, req.body.password, req.log);
    reply.setSession(await startSession(req, user.id));
    return ok(await users.info(user), '登录成功');
  });

  app.post('/otp/send', {
    schema: { tags, summary: 'Send a one-time sign-in code', body: accountBody, response: { 200: empty, ...errorResponses } },
    config: limit(10, 60),
    preHandler: perAddress(100, 60),
  }, async (req) => {
    // The same answer whether or not the account exists: no enumeration.
    await accounts.sendOtp(req.body.account, req.log);
    deliver(req);
    return ok(null, '如果该账号已注册，验证码已发送，10分钟内有效');
  });

  app.post('/otp/verify', {
    schema: { tags, summary: 'Sign in with a one-time code', body: otpVerifyBody, response: { 200: withUser, ...errorResponses } },
    config: limit(10, 10),
    preHandler: perAddress(200, 10),
  }, async (req, reply) => {
    const { user, activated } = await accounts.verifyOtp(req.body.account, req.body.code);
    reply.setSession(await startSession(req, user.id));
    return ok(await users.info(user), activated ? '登录成功，账号已激活。如需使用密码登录，请通过“忘记密码”设置密码' : '登录成功');
  });

  app.post('/forgot-password', {
    schema: { tags, summary: 'Send a password reset link', body: accountBody, response: { 200: empty, ...errorResponses } },
    config: limit(5, 60),
    preHandler: perAddress(50, 60),
  }, async (req) => {
    await accounts.forgotPassword(req.body.account, req.log);
    deliver(req);
    return ok(null, accounts.hasDirectory ? `如果该账号已注册，重置密码链接已发送。${DIRECTORY_PASSWORD_NOTE}` : '如果该账号已注册，重置密码链接已发送');
  });

  app.post('/reset-password', {
    schema: { tags, summary: 'Set a new password with a reset token; ends every session', body: resetPasswordBody, response: { 200: empty, ...errorResponses } },
    config: limit(30, 10),
  }, async (req, reply) => {
    await accounts.resetPassword(req.body.token, req.body.password);
    reply.setSession(null);
    return ok(null, '密码已重置，请使用新密码登录');
  });

  app.post('/sign-out', {
    schema: { tags, summary: 'End this session', response: { 200: empty, ...errorResponses } },
  }, async (req, reply) => {
    const auth = await req.auth();
    if (auth.kind === 'user' && auth.sessionId) await sessions.revoke(auth.sessionId);
    reply.setSession(null);
    return ok(null, '登出成功');
  });

  app.get('/csrf', {
    schema: {
      tags,
      summary: 'The CSRF token for this session, for pages on an allowed other origin that cannot read the XSRF-TOKEN cookie',
      response: { 200: okSchema(z.object({ token: z.string() })), ...errorResponses },
    },
  }, async (req) => ok({ token: req.csrfToken }));

  app.get('/me', {
    schema: { tags, summary: 'The signed-in user (SPEC §3 user info)', response: { 200: withUser, ...errorResponses } },
  }, async (req) => {
    const { userId } = await req.requireUser();
    const user = await users.byId(userId);
    if (!user) throw new AppError(401, 'session_invalid', 'Signature verification failed');
    return ok(await users.info(user));
  });

  // Issue 32 §2: the interface language chosen in the user menu, kept for the user's next visit.
  app.put('/me/language', {
    schema: { tags, summary: 'Remember the interface language (zh or en) of the signed-in user', body: languageBody, response: { 200: withUser, ...errorResponses } },
  }, async (req) => {
    const { userId } = await req.requireUser();
    await users.setLanguage(userId, req.body.language);
    const user = await users.byId(userId);
    if (!user) throw new AppError(401, 'session_invalid', 'Signature verification failed');
    return ok(await users.info(user), '修改成功');
  });

  // The site's page-load check: 200 for everyone, so a signed-out visitor's first load shows no
  // failed request (browsers log every 4xx in the console). /me keeps the 401 of DESIGN §3.
  app.get('/session', {
    schema: { tags, summary: 'Who this browser is: the signed-in user, or null and why (never 401)', response: { 200: okSchema(sessionInfo), ...errorResponses } },
  }, async (req) => {
    const auth = await req.auth();
    if (auth.kind !== 'user') return ok({ user: null, state: auth.kind });
    const user = await users.byId(auth.userId);
    if (!user) return ok({ user: null, state: 'invalid' as const });
    return ok({ user: await users.info(user), state: 'signed_in' as const });
  });

  // ---------- personal API tokens (DESIGN §3) ----------
  const apiTokens = apiTokensRepo(db);
  /** Tokens are managed by a signed-in person, not by another token (a leaked token cannot mint more). */
  const tokenOwner = async (req: FastifyRequest) => {
    const me = await req.requireUser();
    if (me.tokenId) throw forbidden('API 令牌不能用来管理令牌，请在网页中登录后操作', 'token_not_allowed');
    return me.userId;
  };
  const tokenTags = ['auth'];

  app.get('/tokens', {
    schema: { tags: tokenTags, summary: 'Your API tokens (never the tokens themselves)', response: { 200: okSchema(z.array(apiToken)), ...errorResponses } },
  }, async (req) => ok(await apiTokens.list(await tokenOwner(req))));

  app.post('/tokens', {
    schema: {
      tags: tokenTags,
      summary: 'Create an API token for Authorization: Bearer; data.token is shown only in this answer',
      body: apiTokenBody,
      response: { 200: okSchema(createdApiToken), ...errorResponses },
    },
  }, async (req) => {
    const userId = await tokenOwner(req);
    if ((await apiTokens.count(userId)) >= MAX_API_TOKENS) throw badRequest(`每人最多${MAX_API_TOKENS}个令牌，请先删除不用的令牌`, 'name', 'too_many_tokens');
    const { token, row } = await apiTokens.create(userId, req.body.name);
    return ok({ id: row.id, name: row.name, prefix: row.prefix, created_at: row.created_at, last_used_at: row.last_used_at, token }, '令牌已创建，请立即复制保存，它只显示这一次');
  });

  app.delete('/tokens/:id', {
    schema: { tags: tokenTags, summary: 'Revoke one of your API tokens', params: apiTokenIdParams, response: { 200: okSchema(z.object({ deleted: z.number().int() })), ...errorResponses } },
  }, async (req) => {
    const userId = await tokenOwner(req);
    if (!(await apiTokens.revoke(userId, req.params.id))) throw notFound('令牌不存在');
    return ok({ deleted: 1 }, '令牌已删除');
  });
}
