// The two facts every request to the CSAI API shares, kept apart from the API client so the tiny
// chunks that start requests before the client loads (the pdf viewer's prefetch) ask the same way.

/** SPEC §7: the header every call carries (the server refuses writes without it). */
export const REQUESTED_WITH = { 'X-Requested-With': 'XMLHttpRequest' } as const;

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
