import type { UserInfo } from '../../contract/auth';
import type { Db } from '../db/database';
import { DomainError, SESSION_INVALID } from '../errors';
import { usersRepo, type User } from './accounts';
import type { Auth } from './http-session';
import { sessionsRepo } from './sessions';

const HOUR = 3600_000;

/** Who a browser is, as the page-load check answers it: the user, or null and why. */
export type SessionState =
  | { user: UserInfo; state: 'signed_in' }
  | { user: null; state: 'anonymous' | 'invalid' | 'expired' };

/**
 * Signed-in sessions and the person behind them: starting and ending a session, the signed-in
 * user's profile and interface language. The cookie itself stays with the routes.
 */
export function sessionService({ db, ttlHours }: { db: Db; ttlHours: number }) {
  const users = usersRepo(db);
  const sessions = sessionsRepo(db);

  /** The user of a valid session or token; gone meanwhile (deleted), the session is invalid. */
  const signedInUser = async (userId: string) => {
    const user = await users.byId(userId);
    if (!user) throw new DomainError('session_invalid', SESSION_INVALID);
    return user;
  };

  return {
    /**
     * Signs a user in: the session this browser held before (if any) is ended and a fresh random
     * id is issued, so no id known before sign-in survives it (no fixation). Returns the new
     * session id and the user's info.
     */
    async start(user: User, prior: Auth, userAgent: string | undefined): Promise<{ sessionId: string; user: UserInfo }> {
      if (prior.kind === 'user' && prior.sessionId) await sessions.revoke(prior.sessionId);
      const sessionId = await sessions.create(user.id, ttlHours * HOUR, userAgent ?? null);
      return { sessionId, user: await users.info(user) };
    },

    /** Ends the browser session of `auth`; a token or no session is left as it is. */
    async end(auth: Auth): Promise<void> {
      if (auth.kind === 'user' && auth.sessionId) await sessions.revoke(auth.sessionId);
    },

    /** The signed-in user's info (SPEC §3). */
    profile: async (userId: string): Promise<UserInfo> => users.info(await signedInUser(userId)),

    /** Remembers the interface language the user chose, for their next visit; returns their info. */
    async setLanguage(userId: string, language: 'zh' | 'en'): Promise<UserInfo> {
      await users.setLanguage(userId, language);
      return users.info(await signedInUser(userId));
    },

    /** Who this browser is: the signed-in user, or null and why (never a refusal). */
    async state(auth: Auth): Promise<SessionState> {
      if (auth.kind !== 'user') return { user: null, state: auth.kind };
      const user = await users.byId(auth.userId);
      if (!user) return { user: null, state: 'invalid' };
      return { user: await users.info(user), state: 'signed_in' };
    },
  };
}

export type SessionService = ReturnType<typeof sessionService>;
