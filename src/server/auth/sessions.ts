import type { Executor } from '../db/database';
import { now } from '../db/database';
import { randomToken, sha256 } from './crypto';

/** Server-side sessions. The cookie holds a random id; the table holds its hash. */
export function sessionsRepo(db: Executor) {
  return {
    async create(userId: string, ttlMs: number, userAgent: string | null, trx: Executor = db): Promise<string> {
      const id = randomToken(32);
      await trx
        .insertInto('sessions')
        .values({ id_hash: sha256(id), user_id: userId, created_at: now(), expires_at: now(ttlMs), user_agent: userAgent?.slice(0, 300) ?? null })
        .execute();
      return id;
    },

    /** Looks a session up by its cookie value. */
    find: (id: string) =>
      db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['sessions.id_hash', 'sessions.expires_at', 'sessions.user_id', 'users.status'])
        .where('sessions.id_hash', '=', sha256(id))
        .executeTakeFirst(),

    revoke: (id: string) => db.deleteFrom('sessions').where('id_hash', '=', sha256(id)).execute(),

    revokeAllOf: (userId: string, trx: Executor = db) => trx.deleteFrom('sessions').where('user_id', '=', userId).execute(),

    /** Drops sessions that expired more than a day ago (kept a day to answer "Signature has expired"). */
    purgeExpired: () => db.deleteFrom('sessions').where('expires_at', '<', now(-24 * 3600 * 1000)).execute(),
  };
}

/**
 * Deletes what the auth flows no longer need: sessions expired over a day ago, one-time codes
 * older than two days (the daily code cap looks back one), activation and reset tokens expired
 * over a week ago.
 */
export async function purgeStaleAuthRows(db: Executor) {
  const day = 24 * 3600 * 1000;
  await sessionsRepo(db).purgeExpired();
  await db.deleteFrom('otp_codes').where('created_at', '<', now(-2 * day)).execute();
  await db.deleteFrom('auth_tokens').where('expires_at', '<', now(-7 * day)).execute();
}
