import { sql } from 'kysely';
import type { Executor } from '../db/database';
import { now } from '../db/database';
import { hmac, safeEqual } from './crypto';

/**
 * One-time sign-in codes. Only an HMAC of (user, code) under the server secret is stored; a
 * user has at most one live code (a new one retires the others), and each code allows
 * `maxAttempts` wrong guesses before it burns.
 */
export function otpRepo(db: Executor, secret: Buffer, maxAttempts: number) {
  const hash = (userId: string, code: string) => hmac(secret, `otp|${userId}|${code}`);
  return {
    /** When the newest code of a user was made, if any. */
    lastCreatedAt: async (userId: string) =>
      (await db.selectFrom('otp_codes').select('created_at').where('user_id', '=', userId).orderBy('id', 'desc').executeTakeFirst())?.created_at,

    /** How many codes a user was sent since a moment (ISO time). */
    async countSince(userId: string, since: string): Promise<number> {
      const row = await db
        .selectFrom('otp_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Stores a new code (retiring earlier ones) inside the caller's transaction. */
    async issue(userId: string, code: string, ttlMs: number, trx: Executor = db) {
      await this.retireAll(userId, trx);
      await trx
        .insertInto('otp_codes')
        .values({ user_id: userId, code_hash: hash(userId, code), created_at: now(), expires_at: now(ttlMs), used_at: null, attempts: 0 })
        .execute();
    },

    /**
     * Checks a code against the user's live one and uses it up when right. Wrong guesses are
     * counted in SQL (not from the row read first), so parallel guesses cannot share a count.
     */
    async consume(userId: string, code: string): Promise<boolean> {
      const otp = await db
        .selectFrom('otp_codes')
        .selectAll()
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      if (!otp || otp.expires_at < now()) return false;
      if (!safeEqual(otp.code_hash, hash(userId, code))) {
        await db
          .updateTable('otp_codes')
          .set({
            attempts: sql<number>`attempts + 1`,
            used_at: sql<string | null>`case when attempts + 1 >= ${maxAttempts} then ${now()} else used_at end`,
          })
          .where('id', '=', otp.id)
          .execute();
        return false;
      }
      const used = await db
        .updateTable('otp_codes')
        .set({ used_at: now() })
        .where('id', '=', otp.id)
        .where('used_at', 'is', null)
        .where('attempts', '<', maxAttempts)
        .executeTakeFirst();
      return Number(used.numUpdatedRows) === 1;
    },

    /** Retires every live code of a user. */
    retireAll: (userId: string, trx: Executor = db) =>
      trx.updateTable('otp_codes').set({ used_at: now() }).where('user_id', '=', userId).where('used_at', 'is', null).execute(),
  };
}
