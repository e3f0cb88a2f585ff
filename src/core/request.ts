// The two facts every request to the CSAI API shares, kept apart from the API client so the tiny
// chunks that start requests before the client loads (the pdf viewer's prefetch) ask the same way.

/** SPEC §7: the header every call carries (the server refuses writes without it). */
export const REQUESTED_WITH = { 'X-Requested-With': 'XMLHttpRequest' } as const;

/**
 * The Accept-Language header for a UI language ('en', 'en-GB', 'zh'): that language first, the
 * other after it, so the server writes its messages in the language the page shows.
 * @example acceptLanguage('en') // 'en, zh;q=0.5'
 */
export const acceptLanguage = (lang: string | undefined): string => (lang && /^en\b/i.test(lang) ? 'en, zh;q=0.5' : 'zh-CN, zh;q=0.9, en;q=0.5');

/**
 * Whether `apiBase` ('' or an origin or a path prefix) is another origin than the page's.
 * @example isCrossOrigin('https://csai.example.org') // true on https://eln.example.org
 */
export function isCrossOrigin(apiBase: string): boolean {
  if (apiBase === '' || typeof location === 'undefined') return false;
  return new URL(apiBase, location.href).origin !== location.origin;
}

/** Cookies go along to the page's own origin, and (`include`) to an allowed other origin. */
export const credentialsFor = (apiBase: string): RequestCredentials => (isCrossOrigin(apiBase) ? 'include' : 'same-origin');

/**
 * A GET of an API path as the API client makes it (the element's credentials, X-Requested-With,
 * Accept-Language of `lang`),
 * answered as the raw Response: for the chunks that must start a request before the client and
 * its schemas load (the pdf viewer's prefetch); the view then reads the answer through the client.
 */
export function rawGet(apiBase: string, path: string, accept: string, signal?: AbortSignal, lang?: string): Promise<Response> {
  const headers = { ...REQUESTED_WITH, Accept: accept, 'Accept-Language': acceptLanguage(lang) };
  return fetch(`${apiBase}${path}`, { credentials: credentialsFor(apiBase), headers, ...(signal ? { signal } : {}) });
}
