/** SPEC §7: the cookie holding the CSRF token the server expects back in X-CSRF-TOKEN. */
export const XSRF_COOKIE = 'XSRF-TOKEN';

/** Reads one cookie from a `document.cookie` string. */
export function readCookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** What {@link csrfToken} uses to reach the server and read cookies (tests pass their own). */
export interface CsrfSource {
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  cookies?: () => string;
}

/**
 * The CSRF token for a write to `apiRoot` (`{origin}/api/v1`).
 * On the API's own origin it is the XSRF-TOKEN cookie; when there is none yet, the ping sets it.
 * A page on another origin cannot read that cookie, so the token comes from `GET /auth/csrf`,
 * which the server lets only its CORS allow-listed origins read. It is asked for each write, so it
 * is never stale after a sign-in or sign-out in another tab. An empty string when unreachable: the
 * write then fails with the server's own 403 message.
 * @example headers['X-CSRF-TOKEN'] = await csrfToken(`${apiOrigin}/api/v1`)
 */
export async function csrfToken(apiRoot: string, source: CsrfSource = {}): Promise<string> {
  const doFetch = source.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const cookies = source.cookies ?? (() => (typeof document === 'undefined' ? '' : document.cookie));
  const headers = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
  const crossOrigin = typeof location !== 'undefined' && new URL(apiRoot, location.href).origin !== location.origin;
  try {
    if (crossOrigin) {
      const res = await doFetch(`${apiRoot}/auth/csrf`, { credentials: 'include', headers });
      const body = (await res.json().catch(() => undefined)) as { data?: { token?: unknown } } | undefined;
      return typeof body?.data?.token === 'string' ? body.data.token : '';
    }
    const have = readCookie(cookies(), XSRF_COOKIE);
    if (have) return have;
    await doFetch(`${apiRoot}/`, { credentials: 'same-origin', headers });
  } catch {
    // Unreachable: the write reports the network failure itself.
  }
  return readCookie(cookies(), XSRF_COOKIE) ?? '';
}
