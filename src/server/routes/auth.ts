import { z } from 'zod';
import {
  accountBody,
  activateBody,
  apiToken,
  apiTokenBody,
  apiTokenIdParams,
  createdApiToken,
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
import type { FastifyReply, FastifyRequest } from 'fastify';
import { accountKey, type User } from '../auth/accounts';
import { accountService, DIRECTORY_PASSWORD_NOTE } from '../auth/account-service';
import { sessionService } from '../auth/session-service';
import { tokenService } from '../auth/token-service';
import { AppError } from '../errors';
import { ok, type App, type Services } from './types';

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
  const sessions = sessionService({ db, ttlHours: config.CSAI_SESSION_TTL_HOURS });
  const apiTokens = tokenService(db);
  /** Delivers queued messages after commit; a failure is logged, never an unhandled rejection. */
  const deliver = (req: FastifyRequest) => {
    accounts.flush().catch((err: unknown) => req.log.error({ err }, 'message delivery failed'));
  };

  /** Signs a user in with a fresh session (and, through the cookie, a new CSRF token); returns their info. */
  const startSession = async (req: FastifyRequest, reply: FastifyReply, user: User) => {
    const started = await sessions.start(user, await req.auth(), req.headers['user-agent']);
    reply.setSession(started.sessionId);
    return started.user;
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
    return ok(await startSession(req, reply, user), '登录成功');
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
    return ok(await startSession(req, reply, user), activated ? '登录成功，账号已激活。如需使用密码登录，请通过“忘记密码”设置密码' : '登录成功');
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
    await sessions.end(await req.auth());
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
  }, async (req) => ok(await sessions.profile((await req.requireUser()).userId)));

  // The interface language chosen in the user menu, kept so the next visit opens in it.
  app.put('/me/language', {
    schema: { tags, summary: 'Remember the interface language (zh or en) of the signed-in user', body: languageBody, response: { 200: withUser, ...errorResponses } },
  }, async (req) => ok(await sessions.setLanguage((await req.requireUser()).userId, req.body.language), '修改成功'));

  // The site's page-load check: 200 for everyone, so a signed-out visitor's first load shows no
  // failed request (browsers log every 4xx in the console). /me keeps the 401 of DESIGN §3.
  app.get('/session', {
    schema: { tags, summary: 'Who this browser is: the signed-in user, or null and why (never 401)', response: { 200: okSchema(sessionInfo), ...errorResponses } },
  }, async (req) => ok(await sessions.state(await req.auth())));

  // ---------- personal API tokens (DESIGN §3) ----------
  app.get('/tokens', {
    schema: { tags, summary: 'Your API tokens (never the tokens themselves)', response: { 200: okSchema(z.array(apiToken)), ...errorResponses } },
  }, async (req) => ok(await apiTokens.list(await req.requireUser())));

  app.post('/tokens', {
    schema: {
      tags,
      summary: 'Create an API token for Authorization: Bearer; data.token is shown only in this answer',
      body: apiTokenBody,
      response: { 200: okSchema(createdApiToken), ...errorResponses },
    },
  }, async (req) => ok(await apiTokens.create(await req.requireUser(), req.body.name), '令牌已创建，请立即复制保存，它只显示这一次'));

  app.delete('/tokens/:id', {
    schema: { tags, summary: 'Revoke one of your API tokens', params: apiTokenIdParams, response: { 200: okSchema(z.object({ deleted: z.number().int() })), ...errorResponses } },
  }, async (req) => {
    await apiTokens.revoke(await req.requireUser(), req.params.id);
    return ok({ deleted: 1 }, '令牌已删除');
  });
}
