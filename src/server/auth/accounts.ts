import type { Selectable } from 'kysely';
import type { Executor } from '../db/database';
import { now } from '../db/database';
import type { UserTable } from '../db/schema';
import { displayName, type UserInfo } from '../../contract/auth';
import { randomToken, sha256 } from './crypto';

export type User = Selectable<UserTable>;

/** How a typed account identifies a user: an e-mail has an @, anything else is a phone number. */
export function parseAccount(account: string): { email: string } | { phone: string } {
  const a = account.trim();
  if (a.includes('@')) return { email: a.toLowerCase() };
  return { phone: a.replace(/[\s-]/g, '').replace(/^(\+?86)(?=1\d{10}$)/, '') };
}

/** The normalised account as one string (lower-case e-mail or 11-digit phone), for rate limits and cooldowns. */
export function accountKey(account: string): string {
  const key = parseAccount(account);
  return 'email' in key ? `e:${key.email}` : `p:${key.phone}`;
}

/** Users: lookups and the writes the auth flows need. */
export function usersRepo(db: Executor) {
  return {
    byId: (id: string, trx: Executor = db) => trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),

    byAccount(account: string, trx: Executor = db) {
      const key = parseAccount(account);
      const q = trx.selectFrom('users').selectAll();
      return ('email' in key ? q.where('email', '=', key.email) : q.where('phone', '=', key.phone)).executeTakeFirst();
    },

    async create(
      values: Pick<User, 'email' | 'phone' | 'name' | 'password_hash' | 'department_id'> & {
        is_admin?: boolean;
        status?: User['status'];
        directory_account?: string;
      },
      trx: Executor = db,
    ): Promise<User> {
      const status = values.status ?? 'pending';
      const user: User = {
        id: randomToken(12),
        language: null,
        email: values.email,
        phone: values.phone,
        name: values.name,
        password_hash: values.password_hash,
        department_id: values.department_id,
        is_admin: values.is_admin ? 1 : 0,
        status,
        created_at: now(),
        activated_at: status === 'active' ? now() : null,
        auth_source: values.directory_account ? 'ldap' : 'local',
        directory_account: values.directory_account ?? null,
      };
      await trx.insertInto('users').values(user).execute();
      return user;
    },

    activate: (id: string, trx: Executor = db) =>
      trx.updateTable('users').set({ status: 'active', activated_at: now() }).where('id', '=', id).where('status', '=', 'pending').execute(),

    setLanguage: (id: string, language: 'zh' | 'en', trx: Executor = db) => trx.updateTable('users').set({ language }).where('id', '=', id).execute(),

    setPassword: (id: string, password_hash: string, trx: Executor = db) =>
      trx.updateTable('users').set({ password_hash }).where('id', '=', id).execute(),

    /** The user-info shape of SPEC §3; department_name defaults to "none". */
    async info(user: User, trx: Executor = db): Promise<UserInfo> {
      const dept = user.department_id
        ? await trx.selectFrom('departments').select('name').where('id', '=', user.department_id).executeTakeFirst()
        : undefined;
      return {
        id: user.id,
        _id: user.id,
        name: user.name,
        phone: user.phone,
        telephone: user.phone,
        email: user.email,
        department_name: dept?.name ?? 'none',
        show_name: displayName(user),
        is_admin: user.is_admin === 1,
        language: user.language === 'en' || user.language === 'zh' ? user.language : null,
      };
    },
  };
}

/** Single-use tokens for activation and password reset; only their hashes are stored. */
export function authTokensRepo(db: Executor) {
  return {
    async issue(userId: string, purpose: 'activate' | 'reset', ttlMs: number, trx: Executor = db): Promise<string> {
      const token = randomToken(32);
      await trx
        .insertInto('auth_tokens')
        .values({ token_hash: sha256(token), user_id: userId, purpose, created_at: now(), expires_at: now(ttlMs), used_at: null })
        .execute();
      return token;
    },

    /** Marks the token used and returns its user id; 'invalid' | 'expired' | 'used' otherwise. */
    async consume(
      token: string,
      purpose: 'activate' | 'reset',
      trx: Executor = db,
    ): Promise<{ userId: string } | { error: 'invalid' | 'expired' | 'used' }> {
      const row = await trx
        .selectFrom('auth_tokens')
        .selectAll()
        .where('token_hash', '=', sha256(token))
        .where('purpose', '=', purpose)
        .executeTakeFirst();
      if (!row) return { error: 'invalid' };
      if (row.used_at) return { error: 'used' };
      if (row.expires_at < now()) return { error: 'expired' };
      const res = await trx
        .updateTable('auth_tokens')
        .set({ used_at: now() })
        .where('token_hash', '=', row.token_hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return { error: 'used' };
      return { userId: row.user_id };
    },

    /** How many tokens of a purpose a user was sent since a moment (ISO time). */
    async countSince(userId: string, purpose: 'activate' | 'reset', since: string): Promise<number> {
      const row = await db
        .selectFrom('auth_tokens')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('purpose', '=', purpose)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Marks every unused token of a purpose used (e.g. other reset links after a reset). */
    retireAll: (userId: string, purpose: 'activate' | 'reset', trx: Executor = db) =>
      trx.updateTable('auth_tokens').set({ used_at: now() }).where('user_id', '=', userId).where('purpose', '=', purpose).where('used_at', 'is', null).execute(),
  };
}
