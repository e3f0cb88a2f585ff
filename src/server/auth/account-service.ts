import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db, Executor } from '../db/database';
import { now } from '../db/database';
import { isUniqueViolation } from '../db/dialect';
import { DomainError } from '../errors';
import type { Notifier } from '../notify/notifier';
import { accountKey, authTokensRepo, parseAccount, usersRepo, type User } from './accounts';
import { hashPassword, needsRehash, otpCode, randomToken, verifyPassword } from './crypto';
import { createDirectory } from './directory';
import { syncDirectoryUser } from './directory-accounts';
import { otpRepo } from './otp';
import { sessionsRepo } from './sessions';
import { sharedCounter } from './shared-limits';

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

/** Sign-up is off (CSAI_LOCAL_SIGNUP=0); the sign-up page shows the same words. */
const SIGN_UP_OFF = '本站已关闭自助注册，请联系管理员开通账号';
const SIGN_UP_OFF_DIRECTORY = '本站已关闭自助注册，请直接使用单位统一账号（LDAP）登录';
/** The directory did not answer within LDAP_TIMEOUT_MS (or refused the connection). */
const DIRECTORY_DOWN = '单位目录服务（LDAP）暂时无法连接，请稍后再试或联系管理员';
export const DIRECTORY_PASSWORD_NOTE = '单位目录（LDAP）账号的密码由单位目录管理，请通过单位的密码服务或IT部门修改';

export interface SignUp {
  email?: string | undefined;
  phone?: string | undefined;
  name: string;
  password: string;
  department_id?: string | undefined;
}

type Log = Pick<FastifyBaseLogger, 'warn'>;

/**
 * Accounts of people who sign in here (SPEC §8): sign-up with its activation mail, activation,
 * password and one-time-code sign-in, password reset. Messages are queued in the outbox inside the
 * transaction that needs them (`flush` delivers them after commit). Refusals are DomainErrors; the
 * answers are the same whether or not an account exists, so nothing here tells who is registered.
 * HTTP sessions and rate limits stay with the routes.
 */
export function accountService({ config, db, secret, notifier }: { config: Config; db: Db; secret: Buffer; notifier: Notifier }) {
  const users = usersRepo(db);
  const tokens = authTokensRepo(db);
  const sessions = sessionsRepo(db);
  const otps = otpRepo(db, secret, OTP_MAX_ATTEMPTS);
  // The cooldown of code requests, counted in the database (one implementation on SQLite and on
  // several nodes over PostgreSQL): a restart or another node is no way round it.
  const cooldowns = sharedCounter(db);
  let codeRequests = 0;
  // Directory (LDAP) sign-in, so people use their organisation's account; only when LDAP_URL is set.
  const directory = createDirectory(config);
  // A hash to verify against when the account does not exist, so timing does not reveal it.
  const decoyHash = hashPassword('decoy-password-1', config.CSAI_PASSWORD_COST);
  const link = (fragment: string, token: string) => `${config.CSAI_PUBLIC_URL ?? `http://localhost:${config.PORT}`}/#${fragment}=${token}`;

  /** The activation mail (or SMS) of an account, queued in `trx`. */
  const sendActivation = async (trx: Executor, userId: string, channel: 'email' | 'sms', recipient: string) => {
    const token = await tokens.issue(userId, 'activate', ACTIVATION_TTL, trx);
    await notifier.enqueue(trx, {
      channel,
      recipient,
      kind: 'activate',
      subject: 'CSAI 账号激活',
      // No user-typed text (such as the name) in the mail: sign-up must not let anyone send
      // their own words to someone else's mailbox from this server.
      body: `您好，请在24小时内打开以下链接激活您的 CSAI 账号：\n${link('activate_transit', token)}\n如非本人操作，请忽略此邮件。`,
    });
  };

  return {
    /** Whether directory (LDAP) sign-in is configured. */
    hasDirectory: directory !== null,
    /** Delivers queued messages; call after the request's transaction committed. */
    flush: () => notifier.flush(),

    /** Creates an account and queues its activation link; a registered account's owner is told by mail instead. */
    async signUp(body: SignUp): Promise<void> {
      if (!config.CSAI_LOCAL_SIGNUP) throw new DomainError('signup_disabled', directory ? SIGN_UP_OFF_DIRECTORY : SIGN_UP_OFF);
      if (body.department_id) {
        const dept = await db.selectFrom('departments').select('id').where('id', '=', body.department_id).executeTakeFirst();
        if (!dept) throw new DomainError('invalid_input', '部门不存在', 'department_id');
      }
      const password_hash = await hashPassword(body.password, config.CSAI_PASSWORD_COST);
      const recipient = body.email ?? body.phone!;
      const channel = body.email ? 'email' : 'sms';
      try {
        // One transaction: the account, its activation token and the mail exist together or not at all.
        await db.transaction().execute(async (trx) => {
          const user = await users.create({ email: body.email ?? null, phone: body.phone ?? null, name: body.name, password_hash, department_id: body.department_id ?? null }, trx);
          await sendActivation(trx, user.id, channel, recipient);
        });
      } catch (err) {
        if (!isUniqueViolation(err, 'users', ['email', 'phone'])) throw err;
        // The answer is the same as for a new account, so sign-up does not tell anyone
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
          if (kind === 'activate') await sendActivation(trx, existing.id, channel, recipient);
          else await notifier.enqueue(trx, { channel, recipient, kind: 'account_exists', subject: 'CSAI 注册提醒', body: '有人使用您的账号申请注册 CSAI。您已注册，可直接登录；如忘记密码，请在登录页选择“忘记密码”。\n如非本人操作，请忽略此邮件。' });
        });
      }
    },

    /** Activates the account of an activation link. */
    async activate(token: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const result = await tokens.consume(token, 'activate', trx);
        if ('error' in result) throw tokenError(result.error, '激活');
        await users.activate(result.userId, trx);
      });
    },

    /**
     * The user an account and password sign in as: the directory first when configured (its
     * person synchronised), else a local account. Wrong passwords and unknown accounts are one answer.
     */
    async signIn(account: string, password: string, log: Log): Promise<User> {
      const invalid = () => new DomainError('invalid_credentials', '账号或密码错误');
      let directoryDown = false;
      if (directory) {
        // The directory first: search for the typed account, bind as the entry with the typed password.
        const result = await directory.authenticate(account, password);
        if (result.kind === 'ok') {
          const person = await syncDirectoryUser(db, result.person, log);
          assertCanSignIn(person.status);
          return person;
        }
        if (result.kind === 'wrong_password') {
          // The same answer, and about the same time, as a wrong local password: nothing to enumerate.
          await verifyPassword(password, await decoyHash);
          throw invalid();
        }
        if (result.kind === 'unavailable') {
          log.warn({ detail: result.detail }, 'directory sign-in failed: directory unavailable');
          directoryDown = true;
        }
      }
      // Local accounts; a directory account has no local password (its stored one matches nothing).
      const found = await users.byAccount(account);
      const user = found?.auth_source === 'local' ? found : undefined;
      // Unknown accounts cost the same hash as known ones: timing does not tell them apart.
      const valid = await verifyPassword(password, user?.password_hash ?? (await decoyHash));
      if (!user || !valid) {
        // A local account still signs in while the directory is down; anyone else is told why not.
        if (directoryDown) throw new DomainError('directory_unavailable', DIRECTORY_DOWN);
        throw invalid();
      }
      assertCanSignIn(user.status);
      // The cost was raised (or lowered) since this hash was made: bring it to the current one.
      if (needsRehash(user.password_hash, config.CSAI_PASSWORD_COST)) {
        await users.setPassword(user.id, await hashPassword(password, config.CSAI_PASSWORD_COST));
      }
      return user;
    },

    /**
     * Queues a one-time sign-in code. The same outcome (cooldown included) whether or not the
     * account exists: no enumeration. Beyond the daily limit nothing is sent, silently.
     */
    async sendOtp(account: string, log: Log): Promise<void> {
      if ((await cooldowns.hit(`otp-cooldown|${accountKey(account)}`, OTP_RESEND_MS)).current > 1) throw otpTooSoon();
      // Spent counters are swept by the node lease on several nodes; a single node sweeps them here, now and then.
      if (++codeRequests % 1000 === 0) await db.deleteFrom('rate_limits').where('reset_at', '<', Date.now()).execute();
      const user = await users.byAccount(account);
      if (!user || user.status === 'disabled') return;
      // A code sent before the cooldown counter was kept (or whose row was swept) still holds the account back.
      const last = await otps.lastCreatedAt(user.id);
      if (last && Date.parse(last) > Date.now() - OTP_RESEND_MS) throw otpTooSoon();
      if ((await otps.countSince(user.id, now(-24 * HOUR))) >= OTP_MAX_PER_DAY) {
        // Same answer as always (no enumeration), but no new code: guessing stays bounded.
        log.warn({ user: user.id }, 'daily one-time code limit reached');
        return;
      }
      const code = otpCode();
      await db.transaction().execute(async (trx) => {
        await otps.issue(user.id, code, OTP_TTL, trx);
        const key = parseAccount(account);
        await notifier.enqueue(trx, {
          channel: 'email' in key ? 'email' : 'sms',
          recipient: 'email' in key ? key.email : key.phone,
          kind: 'otp',
          subject: 'CSAI 登录验证码',
          body: `您的 CSAI 登录验证码是 ${code}，10分钟内有效。如非本人操作，请忽略。`,
        });
      });
    },

    /**
     * The user a one-time code signs in as (`activated`: the code activated a pending account). One
     * answer for unknown account, wrong, expired, used or burnt code: nothing to enumerate.
     */
    async verifyOtp(account: string, code: string): Promise<{ user: User; activated: boolean }> {
      const invalid = new DomainError('otp_invalid', '验证码错误或已失效，请重新获取');
      const user = await users.byAccount(account);
      if (!user) throw invalid;
      // A disabled account is told so only after a right code, like a right password.
      if (!(await otps.consume(user.id, code))) throw invalid;
      assertCanSignIn(user.status === 'pending' ? 'active' : user.status);
      if (user.status !== 'pending') return { user, activated: false };
      // The code proves the mailbox or phone is the user's, which is what activation asks. But the
      // password was chosen by whoever signed up, maybe not this owner (pre-registration hijack):
      // it is replaced by an unknown one; the owner can set a password through forgot-password.
      const scrubbed = await hashPassword(randomToken(24), config.CSAI_PASSWORD_COST);
      await db.transaction().execute(async (trx) => {
        await users.setPassword(user.id, scrubbed, trx);
        await users.activate(user.id, trx);
      });
      return { user: { ...user, status: 'active' }, activated: true };
    },

    /**
     * Queues a reset link (a directory account's owner gets a note that the directory manages the
     * password instead). Across all addresses, at most RESET_MAX_PER_HOUR an hour reach one
     * mailbox; beyond that nothing is sent, silently (no enumeration).
     */
    async forgotPassword(account: string, log: Log): Promise<void> {
      const user = await users.byAccount(account);
      if (!user || user.status === 'disabled') return;
      if ((await tokens.countSince(user.id, 'reset', now(-HOUR))) >= RESET_MAX_PER_HOUR) {
        log.warn({ user: user.id }, 'hourly reset link limit reached');
        return;
      }
      const channel = user.email ? 'email' : 'sms';
      const recipient = user.email ?? user.phone!;
      await db.transaction().execute(async (trx) => {
        if (user.auth_source !== 'ldap') {
          const token = await tokens.issue(user.id, 'reset', RESET_TTL, trx);
          await notifier.enqueue(trx, { channel, recipient, kind: 'reset', subject: 'CSAI 重置密码', body: `请在1小时内打开以下链接重置您的 CSAI 密码：\n${link('pswd_transit', token)}\n如非本人操作，请忽略。` });
          return;
        }
        // No reset link: the directory manages this password. The owner is told so, by mail only;
        // the hourly limit of reset links holds for these notes too.
        const sent = await trx.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('recipient', '=', recipient)
          .where('kind', '=', 'reset_directory').where('created_at', '>', now(-HOUR)).executeTakeFirstOrThrow();
        if (Number(sent.n) >= RESET_MAX_PER_HOUR) return;
        await notifier.enqueue(trx, {
          channel,
          recipient,
          kind: 'reset_directory',
          subject: 'CSAI 重置密码',
          body: `您的 CSAI 账号通过单位目录（LDAP）登录，${DIRECTORY_PASSWORD_NOTE}。修改后请使用新的单位密码登录 CSAI。\n如非本人操作，请忽略。`,
        });
      });
    },

    /** Sets a new password with a reset link: every session of the account ends, its other links and codes die. */
    async resetPassword(token: string, password: string): Promise<void> {
      const password_hash = await hashPassword(password, config.CSAI_PASSWORD_COST);
      await db.transaction().execute(async (trx) => {
        const result = await tokens.consume(token, 'reset', trx);
        if ('error' in result) throw tokenError(result.error, '重置密码');
        const owner = await users.byId(result.userId, trx);
        // A link sent before the account was linked to the directory: its password is not ours to set.
        if (owner?.auth_source === 'ldap') throw new DomainError('directory_password', '该账号通过单位目录（LDAP）登录，密码由单位目录管理，请通过单位的密码服务或IT部门修改');
        await users.setPassword(result.userId, password_hash, trx);
        // Whoever knew the old password is signed out everywhere, and other reset links die too.
        await sessions.revokeAllOf(result.userId, trx);
        await tokens.retireAll(result.userId, 'reset', trx);
        await otps.retireAll(result.userId, trx);
        // The reset link reached the user's mailbox or phone: the account is theirs.
        await users.activate(result.userId, trx);
      });
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;

const otpTooSoon = () => new DomainError('otp_too_soon', '验证码发送过于频繁，请60秒后再试');

function assertCanSignIn(status: 'pending' | 'active' | 'disabled') {
  if (status === 'pending') throw new DomainError('account_inactive', '账号尚未激活，请先打开激活链接');
  if (status === 'disabled') throw new DomainError('account_disabled', '账号已停用，请联系管理员');
}

function tokenError(error: 'invalid' | 'expired' | 'used', what: string) {
  if (error === 'expired') return new DomainError('token_expired', `${what}链接已过期，请重新获取`);
  if (error === 'used') return new DomainError('token_used', `${what}链接已使用过`);
  return new DomainError('token_invalid', `${what}链接无效`);
}
