import { MAX_API_TOKENS } from '../../contract/auth';
import type { Db } from '../db/database';
import { DomainError } from '../errors';
import { apiTokensRepo } from './api-tokens';

/** The identity asking: a browser session or an API token. */
export interface TokenOwner {
  userId: string;
  tokenId: string | null;
}

/**
 * Personal API tokens (DESIGN §3) as their owner manages them: listed without the token, created
 * with the token shown once, revoked. Tokens are managed by a signed-in person, never by another
 * token, so a leaked token cannot mint more.
 */
export function tokenService(db: Db) {
  const tokens = apiTokensRepo(db);
  const owner = (me: TokenOwner) => {
    if (me.tokenId) throw new DomainError('token_not_allowed', 'API 令牌不能用来管理令牌，请在网页中登录后操作');
    return me.userId;
  };

  return {
    list: (me: TokenOwner) => tokens.list(owner(me)),

    /** A new token; `token` is the only time it is seen. At most MAX_API_TOKENS per person. */
    async create(me: TokenOwner, name: string) {
      const userId = owner(me);
      if ((await tokens.count(userId)) >= MAX_API_TOKENS) throw new DomainError('too_many_tokens', `每人最多${MAX_API_TOKENS}个令牌，请先删除不用的令牌`, 'name');
      const { token, row } = await tokens.create(userId, name);
      return { id: row.id, name: row.name, prefix: row.prefix, created_at: row.created_at, last_used_at: row.last_used_at, token };
    },

    /** Revokes one of the owner's tokens; another person's token is as unknown as a missing one. */
    async revoke(me: TokenOwner, id: string): Promise<void> {
      if (!(await tokens.revoke(owner(me), id))) throw new DomainError('not_found', '令牌不存在');
    },
  };
}
