import type { Executor } from '../db/database';
import { now } from '../db/database';
import { randomToken, sha256 } from './crypto';

/** Every API token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'csai_';
/** How often a token's last use is written at most (a busy script would otherwise write every call). */
const LAST_USED_EVERY_MS = 5 * 60_000;

/** Personal API tokens (DESIGN §3): the token is shown once; only its SHA-256 is stored. */
export function apiTokensRepo(db: Executor) {
  return {
    async create(userId: string, name: string) {
      const token = `${API_TOKEN_PREFIX}${randomToken(32)}`;
      const row = { id: randomToken(12), user_id: userId, name, token_hash: sha256(token), prefix: token.slice(0, API_TOKEN_PREFIX.length + 4), created_at: now(), last_used_at: null };
      await db.insertInto('api_tokens').values(row).execute();
      return { token, row };
    },

    list: (userId: string) =>
      db.selectFrom('api_tokens').select(['id', 'name', 'prefix', 'created_at', 'last_used_at']).where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').execute(),

    count: async (userId: string) => Number((await db.selectFrom('api_tokens').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n),

    /** Deletes one of the user's tokens; false when the user has no token of that id. */
    revoke: async (userId: string, id: string) => {
      const res = await db.deleteFrom('api_tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },

    /** The token's row with its user's status, by the token as sent. */
    find: (token: string) =>
      db
        .selectFrom('api_tokens')
        .innerJoin('users', 'users.id', 'api_tokens.user_id')
        .select(['api_tokens.id', 'api_tokens.user_id', 'api_tokens.last_used_at', 'users.status'])
        .where('api_tokens.token_hash', '=', sha256(token))
        .executeTakeFirst(),

    /** Records a use, at most every few minutes per token. */
    async touch(id: string, lastUsed: string | null) {
      if (lastUsed && Date.parse(lastUsed) > Date.now() - LAST_USED_EVERY_MS) return;
      await db.updateTable('api_tokens').set({ last_used_at: now() }).where('id', '=', id).execute();
    },
  };
}
