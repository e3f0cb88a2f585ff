import { isUniqueViolation } from '../db/dialect';
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
import { accountKey, authTokensRepo, parseAccount, usersRepo } from '../auth/accounts';
import { createDirectory } from '../auth/directory';
import { syncDirectoryUser } from '../auth/directory-accounts';
import { hashPassword, needsRehash, otpCode, randomToken, verifyPassword } from '../auth/crypto';
import { otpRepo } from '../auth/otp';
import { sessionsRepo } from '../auth/sessions';
import { now } from '../db/database';
import { AppError, badRequest, forbidden, notFound } from '../errors';
import { apiTokensRepo } from '../auth/api-tokens';
import { sharedCounter } from '../auth/shared-limits';
import { ok, type App, type Services } from './types';

const HOUR = 3600_000;
const ACTIVATION_TTL = 24 * HOUR;
const RESET_TTL = 1 * HOUR;
const OTP_TTL = 10 * 60_000;
const OTP_RESEND_MS = 60_000;
/** A sign-up with a registered account mails its owner at most this often. */
const SIGN_UP_NOTICE_COOLDOWN_MS = 60_000;
const OTP_MAX_ATTEMPTS = 5;
/** Codes per account per day: with 5 guesses each, at most 50 guesses a day at a 1-in-a-million code. */
const OTP_MAX_PER_DAY = 10;
/** Reset links per account per hour, whoever asks: no mailbox bombing from many addresses. */
const RESET_MAX_PER_HOUR = 5;

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
export default async function authRoutes(app: App, { config, cluster, db, secret, notifier }: Services) {
  const users = usersRepo(db);
  const tokens = authTokensRepo(db);
  const sessions = sessionsRepo(db);
  const ttlMs = config.CSAI_SESSION_TTL_HOURS * HOUR;
  // A hash to verify against when the account does not exist, so timing does not reveal it.
  const decoyHash = hashPassword('decoy-password-1', config.CSAI_PASSWORD_COST);
  const link = (fragment: string, token: string) => `${config.CSAI_PUBLIC_URL ?? `http://localhost:${config.PORT}`}/#${fragment}=${token}`;
  const otps = otpRepo(db, secret, OTP_MAX_ATTEMPTS);
  // Directory sign-in (issue 14 §4), when LDAP_URL is set.
  const directory = createDirectory(config);
  const directoryPasswordNote = '单位目录（LDAP）账号的密码由单位目录管理，请通过单位的密码服务或IT部门修改';
  /** Delivers queued messages after commit; a failure is logged, never an unhandled rejection. */
  const deliver = (req: FastifyRequest) => {
    notifier.flush().catch((err: unknown) => req.log.error({ err }, 'message delivery failed'));
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

  /** When each normalised account last asked for a code, known or not (so the cooldown reveals nothing). */
  const otpRequested = new Map<string, number>();
  // Several nodes over PostgreSQL: the cooldown is counted in the database, so asking another node is no way round it.
  const sharedCooldown = cluster.several ? sharedCounter(db) : undefined;
  const otpCooldown = async (account: string) => {
    const key = accountKey(account);
    if (sharedCooldown) {
      if ((await sharedCooldown.hit(`otp-cooldown|${key}`, OTP_RESEND_MS)).current > 1) throw new AppError(429, 'otp_too_soon', '验证码发送过于频繁，请60秒后再试');
      return;
    }
    const t = Date.now();
    const last = otpRequested.get(key);
    if (last !== undefined && t - last < OTP_RESEND_MS) throw new AppError(429, 'otp_too_soon', '验证码发送过于频繁，请60秒后再试');
    if (otpRequested.size > 10_000) {
      for (const [k, v] of otpRequested) if (t - v >= OTP_RESEND_MS) otpRequested.delete(k);
    }
    otpRequested.set(key, t);
  };

  app.get('/options', {
    schema: { tags, summary: 'How people sign in here: local sign-up on or off, directory (LDAP) sign-in or not', response: { 200: okSchema(authOptions), ...errorResponses } },
  }, async () => ok({ local_signup: config.CSAI_LOCAL_SIGNUP, directory: directory !== null }));

  app.post('/sign-up', {
    schema: { tags, summary: 'Create an account and send its activation link', body: signUpBody, response: { 200: empty, ...errorResponses } },
    config: limit(30, 10),
  }, async (req) => {
    if (!config.CSAI_LOCAL_SIGNUP) {
      throw new AppError(403, 'signup_disabled', directory ? SIGN_UP_OFF_DIRECTORY : SIGN_UP_OFF);
    }
    const body = req.body;
    if (body.department_id) {
      const dept = await db.selectFrom('departments').select('id').where('id', '=', body.department_id).executeTakeFirst();
      if (!dept) throw badRequest('部门不存在', 'department_id');
    }
    const password_hash = await hashPassword(body.password, config.CSAI_PASSWORD_COST);
    const recipient = body.email ?? body.phone!;
    try {
      // One transaction: the account, its activation token and the mail exist together or not at all.
      await db.transaction().execute(async (trx) => {
        const user = await users.create(
          { email: body.email ?? null, phone: body.phone ?? null, name: body.name, password_hash, department_id: body.department_id ?? null },
          trx,
        );
        const token = await tokens.issue(user.id, 'activate', ACTIVATION_TTL, trx);
        await notifier.enqueue(trx, {
          channel: body.email ? 'email' : 'sms',
          recipient,
          kind: 'activate',
          subject: 'CSAI 账号激活',
          // No user-typed text (such as the name) in the mail: sign-up must not let anyone send
          // their own words to someone else's mailbox from this server.
          body: `您好，请在24小时内打开以下链接激活您的 CSAI 账号：\n${link('activate_transit', token)}\n如非本人操作，请忽略此邮件。`,
        });
      });
    } catch (err) {
      if (!isUniqueViolation(err, 'users', ['email', 'phone'])) throw err;
      // Issue 16 #8: the answer is the same as for a new account, so sign-up does not tell anyone
      // which addresses are registered; the owner is told by mail instead (a pending account gets
      // a fresh activation link).
      await db.transaction().execute(async (trx) => {
        const existing = await users.byAccount(recipient, trx);
        if (!existing) return;
        const kind = existing.status === 'pending' ? 'activate' : 'account_exists';
        // One such message a minute at most: repeated sign-ups must not flood the owner's mailbox.
        const recent = await trx.selectFrom('outbox').select('id').where('recipient', '=', recipient)
          .where('kind', '=', kind).where('created_at', '>', now(-SIGN_UP_NOTICE_COOLDOWN_MS)).executeTakeFirst();
        if (recent) return;
        const channel = body.email ? 'email' : 'sms';
        if (kind === 'activate') {
          const token = await tokens.issue(existing.id, 'activate', ACTIVATION_TTL, trx);
          await notifier.enqueue(trx, { channel, recipient, kind: 'activate', subject: 'CSAI 账号激活', body: `您好，请在24小时内打开以下链接激活您的 CSAI 账号：\n${link('activate_transit', token)}\n如非本人操作，请忽略此邮件。` });
        } else {
          await notifier.enqueue(trx, { channel, recipient, kind: 'account_exists', subject: 'CSAI 注册提醒', body: '有人使用您的账号申请注册 CSAI。您已注册，可直接登录；如忘记密码，请在登录页选择“忘记密码”。\n如非本人操作，请忽略此邮件。' });
        }
      });
    }
    deliver(req);
    return ok(null, body.email ? '注册成功，激活链接已发送到您的邮箱' : '注册成功，激活链接已发送到您的手机');
  });

  app.post('/activate', {
    schema: { tags, summary: 'Activate an account with the token from its link', body: activateBody, response: { 200: empty, ...errorResponses } },
    config: limit(30, 10),
  }, async (req) => {
    await db.transaction().execute(async (trx) => {
      const result = await tokens.consume(req.body.token, 'activate', trx);
      if ('error' in result) throw tokenError(result.error, '激活');
      await users.activate(result.userId, trx);
    });
    return ok(null, '账号已激活，请登录');
  });

  app.post('/sign-in', {
    schema: { tags, summary: 'Sign in with account and password', body: signInBody, response: { 200: withUser, ...errorResponses } },
    config: limit(10, 15),
    preHandler: perAddress(200, 15),
  }, async (req, reply) => {
    const invalid = () => new AppError(400, 'invalid_credentials', '账号或密码错误');
    let directoryDown = false;
    if (directory) {
      // The directory first: search for the typed account, bind as the entry with the typed password.
      const result = await directory.authenticate(req.body.account, req.body.password);
      if (result.kind === 'ok') {
        const person = await syncDirectoryUser(db, result.person, req.log);
        assertCanSignIn(person.status);
        reply.setSession(await startSession(req, person.id));
        return ok(await users.info(person), '登录成功');
      }
      if (result.kind === 'wrong_password') {
        // The same answer, and about the same time, as a wrong local password: nothing to enumerate.
        await verifyPassword(req.body.password, await decoyHash);
        throw invalid();
      }
      if (result.kind === 'unavailable') {
        req.log.warn({ detail: result.detail }, 'directory sign-in failed: directory unavailable');
        directoryDown = true;
      }
    }
    // Local accounts; a directory account has no local password (its stored one matches nothing).
    const found = await users.byAccount(req.body.account);
    const user = found?.auth_source === 'local' ? found : undefined;
    // Unknown accounts cost the same hash as known ones: timing does not tell them apart.
    const valid = await verifyPassword(req.body.password, user?.password_hash ?? (await decoyHash));
    if (!user || !valid) {
      // A local account still signs in while the directory is down; anyone else is told why not.
      if (directoryDown) throw new AppError(503, 'directory_unavailable', DIRECTORY_DOWN);
      throw invalid();
    }
    assertCanSignIn(user.status);
    // The cost was raised (or lowered) since this hash was made: bring it to the current one.
    if (needsRehash(user.password_hash, config.CSAI_PASSWORD_COST)) {
      await users.setPassword(user.id, await hashPassword(req.body.password, config.CSAI_PASSWORD_COST));
    }
    reply.setSession(await startSession(req, user.id));
    return ok(await users.info(user), '登录成功');
  });

  app.post('/otp/send', {
    schema: { tags, summary: 'Send a one-time sign-in code', body: accountBody, response: { 200: empty, ...errorResponses } },
    config: limit(10, 60),
    preHandler: perAddress(100, 60),
  }, async (req) => {
    // The same answers (cooldown included) whether or not the account exists: no enumeration.
    await otpCooldown(req.body.account);
    const user = await users.byAccount(req.body.account);
    const answer = ok(null, '如果该账号已注册，验证码已发送，10分钟内有效');
    if (!user || user.status === 'disabled') return answer;
    // The in-memory cooldown is lost on restart; the newest stored code keeps it.
    const last = await otps.lastCreatedAt(user.id);
    if (last && Date.parse(last) > Date.now() - OTP_RESEND_MS) {
      throw new AppError(429, 'otp_too_soon', '验证码发送过于频繁，请60秒后再试');
    }
    if ((await otps.countSince(user.id, now(-24 * HOUR))) >= OTP_MAX_PER_DAY) {
      // Same answer as always (no enumeration), but no new code: guessing stays bounded.
      req.log.warn({ user: user.id }, 'daily one-time code limit reached');
      return answer;
    }
    const code = otpCode();
    await db.transaction().execute(async (trx) => {
      await otps.issue(user.id, code, OTP_TTL, trx);
      const key = parseAccount(req.body.account);
      await notifier.enqueue(trx, {
        channel: 'email' in key ? 'email' : 'sms',
        recipient: 'email' in key ? key.email : key.phone,
        kind: 'otp',
        subject: 'CSAI 登录验证码',
        body: `您的 CSAI 登录验证码是 ${code}，10分钟内有效。如非本人操作，请忽略。`,
      });
    });
    deliver(req);
    return answer;
  });

  app.post('/otp/verify', {
    schema: { tags, summary: 'Sign in with a one-time code', body: otpVerifyBody, response: { 200: withUser, ...errorResponses } },
    config: limit(10, 10),
    preHandler: perAddress(200, 10),
  }, async (req, reply) => {
    // One answer for unknown account, wrong, expired, used or burnt code: nothing to enumerate.
    const invalid = new AppError(400, 'otp_invalid', '验证码错误或已失效，请重新获取');
    const user = await users.byAccount(req.body.account);
    if (!user) throw invalid;
    // A disabled account is told so only after a right code, like a right password.
    if (!(await otps.consume(user.id, req.body.code))) throw invalid;
    assertCanSignIn(user.status === 'pending' ? 'active' : user.status);
    if (user.status === 'pending') {
      // The code proves the mailbox or phone is the user's, which is what activation asks. But the
      // password was chosen by whoever signed up, maybe not this owner (pre-registration hijack):
      // it is replaced by an unknown one; the owner can set a password through forgot-password.
      const scrubbed = await hashPassword(randomToken(24), config.CSAI_PASSWORD_COST);
      await db.transaction().execute(async (trx) => {
        await users.setPassword(user.id, scrubbed, trx);
        await users.activate(user.id, trx);
      });
    }
    reply.setSession(await startSession(req, user.id));
    const message = user.status === 'pending' ? '登录成功，账号已激活。如需使用密码登录，请通过“忘记密码”设置密码' : '登录成功';
    return ok(await users.info({ ...user, status: 'active' }), message);
  });

  app.post('/forgot-password', {
    schema: { tags, summary: 'Send a password reset link', body: accountBody, response: { 200: empty, ...errorResponses } },
    config: limit(5, 60),
    preHandler: perAddress(50, 60),
  }, async (req) => {
    const user = await users.byAccount(req.body.account);
    // Across all addresses, at most RESET_MAX_PER_HOUR links an hour reach one mailbox; beyond
    // that the answer stays the same (no enumeration) but nothing is sent.
    if (user && (await tokens.countSince(user.id, 'reset', now(-HOUR))) >= RESET_MAX_PER_HOUR) req.log.warn({ user: user.id }, 'hourly reset link limit reached');
    else if (user && user.status !== 'disabled' && user.auth_source === 'ldap') {
      // No reset link: the directory manages this password. The owner is told so, by mail only.
      const recipient = user.email ?? user.phone!;
      await db.transaction().execute(async (trx) => {
        // The hourly limit of reset links holds for these notes too: no mailbox bombing.
        const sent = await trx.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('recipient', '=', recipient)
          .where('kind', '=', 'reset_directory').where('created_at', '>', now(-HOUR)).executeTakeFirstOrThrow();
        if (Number(sent.n) >= RESET_MAX_PER_HOUR) return;
        await notifier.enqueue(trx, {
          channel: user.email ? 'email' : 'sms',
          recipient,
          kind: 'reset_directory',
          subject: 'CSAI 重置密码',
          body: `您的 CSAI 账号通过单位目录（LDAP）登录，${directoryPasswordNote}。修改后请使用新的单位密码登录 CSAI。\n如非本人操作，请忽略。`,
        });
      });
      deliver(req);
    } else if (user && user.status !== 'disabled') {
      await db.transaction().execute(async (trx) => {
        const token = await tokens.issue(user.id, 'reset', RESET_TTL, trx);
        await notifier.enqueue(trx, {
          channel: user.email ? 'email' : 'sms',
          recipient: user.email ?? user.phone!,
          kind: 'reset',
          subject: 'CSAI 重置密码',
          body: `请在1小时内打开以下链接重置您的 CSAI 密码：\n${link('pswd_transit', token)}\n如非本人操作，请忽略。`,
        });
      });
      deliver(req);
    }
    return ok(null, directory ? `如果该账号已注册，重置密码链接已发送。${directoryPasswordNote}` : '如果该账号已注册，重置密码链接已发送');
  });

  app.post('/reset-password', {
    schema: { tags, summary: 'Set a new password with a reset token; ends every session', body: resetPasswordBody, response: { 200: empty, ...errorResponses } },
    config: limit(30, 10),
  }, async (req, reply) => {
    const password_hash = await hashPassword(req.body.password, config.CSAI_PASSWORD_COST);
    await db.transaction().execute(async (trx) => {
      const result = await tokens.consume(req.body.token, 'reset', trx);
      if ('error' in result) throw tokenError(result.error, '重置密码');
      const owner = await users.byId(result.userId, trx);
      // A link sent before the account was linked to the directory: its password is not ours to set.
      if (owner?.auth_source === 'ldap') throw new AppError(400, 'directory_password', '该账号通过单位目录（LDAP）登录，密码由单位目录管理，请通过单位的密码服务或IT部门修改');
      await users.setPassword(result.userId, password_hash, trx);
      // Whoever knew the old password is signed out everywhere, and other reset links die too.
      await sessions.revokeAllOf(result.userId, trx);
      await tokens.retireAll(result.userId, 'reset', trx);
      await otps.retireAll(result.userId, trx);
      // The reset link reached the user's mailbox or phone: the account is theirs.
      await users.activate(result.userId, trx);
    });
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

/** Sign-up is off (CSAI_LOCAL_SIGNUP=0); the sign-up page shows the same words. */
const SIGN_UP_OFF = '本站已关闭自助注册，请联系管理员开通账号';
const SIGN_UP_OFF_DIRECTORY = '本站已关闭自助注册，请直接使用单位统一账号（LDAP）登录';
/** The directory did not answer within LDAP_TIMEOUT_MS (or refused the connection). */
const DIRECTORY_DOWN = '单位目录服务（LDAP）暂时无法连接，请稍后再试或联系管理员';

function assertCanSignIn(status: 'pending' | 'active' | 'disabled') {
  if (status === 'pending') throw new AppError(403, 'account_inactive', '账号尚未激活，请先打开激活链接');
  if (status === 'disabled') throw new AppError(403, 'account_disabled', '账号已停用，请联系管理员');
}

function tokenError(error: 'invalid' | 'expired' | 'used', what: string) {
  if (error === 'expired') return new AppError(400, 'token_expired', `${what}链接已过期，请重新获取`);
  if (error === 'used') return new AppError(400, 'token_used', `${what}链接已使用过`);
  return new AppError(400, 'token_invalid', `${what}链接无效`);
}
