import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError, forbidden, SESSION_EXPIRED, SESSION_INVALID } from '../errors';
import { hmac, randomToken, safeEqual } from './crypto';
import type { Executor } from '../db/database';
import { purgeStaleAuthRows, type sessionsRepo } from './sessions';
import { apiTokensRepo } from './api-tokens';

/** The token of an `Authorization: Bearer <token>` header; undefined without one. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = header?.match(/^Bearer[ \t]+(\S{1,200})[ \t]*$/i);
  return m?.[1];
}

export const SESSION_COOKIE = 'csai_session';
/** SPEC §7: the CSRF cookie the client reads and echoes in X-CSRF-TOKEN. */
export const XSRF_COOKIE = 'XSRF-TOKEN';

/** Who is asking: a signed-in user (by session cookie, or by API token with `sessionId` null), or why not. */
export type Auth =
  | { kind: 'user'; userId: string; sessionId: string | null; tokenId: string | null }
  | { kind: 'anonymous' }
  | { kind: 'invalid' }
  | { kind: 'expired' };

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolves the session cookie once per request (lazily, so public routes touch no table). */
    auth(): Promise<Auth>;
    /** The signed-in user's id, or a 401 with the SPEC §8 message. */
    requireUser(): Promise<{ userId: string; sessionId: string | null; tokenId: string | null }>;
    /** The CSRF token valid for this request's session cookie (the cookie's, or the one just issued). */
    csrfToken: string;
  }
  interface FastifyReply {
    /** Sets the session cookie (or clears it with null) and a CSRF token bound to it. */
    setSession(sessionId: string | null): void;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Session cookies and CSRF (DESIGN §3, §9). The CSRF token is `nonce.HMAC(secret, nonce|session
 * cookie)`, so a token minted for one session is worthless in another, and state-changing calls
 * need the cookie value echoed in X-CSRF-TOKEN plus an X-Requested-With header.
 */
export function installHttpSession(
  app: FastifyInstance,
  deps: {
    config: Config;
    secret: Buffer;
    sessions: ReturnType<typeof sessionsRepo>;
    db: Executor;
    /** Path prefixes (e.g. /mcp) that accept API tokens only: cookies are ignored there, so no CSRF check either. */
    tokenOnly?: string[];
  },
) {
  const { config, secret, sessions, db, tokenOnly = [] } = deps;
  const isTokenOnly = (url: string) => tokenOnly.some((p) => url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`));
  const apiTokens = apiTokensRepo(db);
  // Housekeeping: stale sessions, codes and tokens go at start and then hourly.
  let timer: NodeJS.Timeout | undefined;
  const purge = () => purgeStaleAuthRows(db).catch((err: unknown) => app.log.error({ err }, 'auth housekeeping failed'));
  app.addHook('onReady', async () => {
    await purge();
    timer = setInterval(() => void purge(), 3600_000);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
  const mintCsrf = (sessionCookie: string) => {
    const nonce = randomToken(16);
    return `${nonce}.${hmac(secret, `${nonce}|${sessionCookie}`)}`;
  };
  // Tokens verified for a session cookie, so a browser's every call does not pay for an HMAC.
  // Only valid pairs are kept, and the set is bounded.
  const verified = new Set<string>();
  const csrfValid = (token: string | undefined, sessionCookie: string) => {
    if (!token) return false;
    const key = `${token}|${sessionCookie}`;
    if (verified.has(key)) return true;
    const [nonce, mac] = token.split('.');
    const valid = !!nonce && !!mac && safeEqual(mac, hmac(secret, `${nonce}|${sessionCookie}`));
    if (valid) {
      if (verified.size >= 10_000) verified.clear();
      verified.add(key);
    }
    return valid;
  };
  const cookieBase = { path: '/', sameSite: 'lax' as const, secure: config.CSAI_COOKIE_SECURE };
  const setCsrfCookie = (reply: FastifyReply, sessionCookie: string) => {
    const token = mintCsrf(sessionCookie);
    reply.setCookie(XSRF_COOKIE, token, { ...cookieBase, httpOnly: false });
    reply.request.csrfToken = token;
  };

  app.decorateRequest('auth', function (this: FastifyRequest) {
    throw new Error('replaced per request');
  });
  app.decorateRequest('csrfToken', '');
  app.decorateRequest('requireUser', async function (this: FastifyRequest) {
    const auth = await this.auth();
    if (auth.kind === 'user') return auth;
    if (auth.kind === 'expired') throw new AppError(401, 'session_expired', SESSION_EXPIRED);
    if (auth.kind === 'invalid') throw new AppError(401, 'session_invalid', SESSION_INVALID);
    throw new AppError(401, 'unauthenticated', '请先登录');
  });
  app.decorateReply('setSession', function (this: FastifyReply, sessionId: string | null) {
    if (sessionId) {
      this.setCookie(SESSION_COOKIE, sessionId, {
        ...cookieBase,
        httpOnly: true,
        maxAge: config.CSAI_SESSION_TTL_HOURS * 3600,
      });
    } else {
      this.clearCookie(SESSION_COOKIE, { ...cookieBase, httpOnly: true });
    }
    setCsrfCookie(this, sessionId ?? '');
  });

  // A callback hook (not async): this runs on every request, and a promise per call is measurable.
  app.addHook('onRequest', (request, reply, done) => {
    const tokenOnlyPath = isTokenOnly(request.url);
    const sessionCookie = tokenOnlyPath ? '' : (request.cookies[SESSION_COOKIE] ?? '');
    const authorization = request.headers.authorization;
    const bearer = bearerToken(authorization);
    let resolved: Promise<Auth> | undefined;
    request.auth = () =>
      (resolved ??= (async (): Promise<Auth> => {
        // An API token (DESIGN §3) speaks for its user; a malformed Authorization header is no sign-in.
        if (authorization !== undefined) {
          if (!bearer) return { kind: 'invalid' };
          const row = await apiTokens.find(bearer);
          if (!row || row.status !== 'active') return { kind: 'invalid' };
          void apiTokens.touch(row.id, row.last_used_at).catch((err: unknown) => request.log.warn({ err }, 'api token use not recorded'));
          return { kind: 'user', userId: row.user_id, sessionId: null, tokenId: row.id };
        }
        if (!sessionCookie) return { kind: 'anonymous' };
        const row = await sessions.find(sessionCookie);
        if (!row || row.status !== 'active') return { kind: 'invalid' };
        if (row.expires_at < new Date().toISOString()) return { kind: 'expired' };
        return { kind: 'user', userId: row.user_id, sessionId: sessionCookie, tokenId: null };
      })());

    // A program with a token and no cookies: no browser sent this, so there is nothing to forge (no CSRF).
    if (tokenOnlyPath || (authorization !== undefined && request.headers.cookie === undefined)) return done();
    const csrfCookie = request.cookies[XSRF_COOKIE];
    const cookieOk = csrfValid(csrfCookie, sessionCookie);
    if (cookieOk) request.csrfToken = csrfCookie!;
    else setCsrfCookie(reply, sessionCookie);
    if (SAFE_METHODS.has(request.method)) return done();
    if (!request.headers['x-requested-with']) return done(forbidden('请求缺少 X-Requested-With 头', 'csrf_failed'));
    const header = request.headers['x-csrf-token'];
    if (!cookieOk || typeof header !== 'string' || !safeEqual(header, csrfCookie ?? '')) {
      return done(forbidden('CSRF 校验失败，请刷新页面后重试', 'csrf_failed'));
    }
    done();
  });
}
