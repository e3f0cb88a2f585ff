// How an element reaches the CSAI server and its pages, on the site and on a foreign page.
import type { ApiClient } from '../../core/api';
import { api, navigate, setApiBase, setNavigate } from '../../core/page';
import { requestNavigation } from './events';

/** Whether `apiOrigin` ('' or an origin) is the page's own origin (the site itself). */
export function isSameOrigin(apiOrigin: string): boolean {
  return apiOrigin === '' || new URL(apiOrigin, location.href).origin === location.origin;
}

/** The page's API client pointed at the element's `api-base` (SPEC §7 headers, §8 catalogue). */
export function apiFor(apiOrigin: string): ApiClient {
  setApiBase(apiOrigin);
  // On a foreign page the client's own navigation (a 401 → sign-in) must reach the CSAI server,
  // not the page's origin. The site ('' api-base) keeps its router.
  if (apiOrigin !== '') setNavigate((path) => location.assign(new URL(`${apiOrigin}${path}`, location.href).href));
  return api();
}

/** The API prefix (`…/api/v1`) for calls the client does not make (uploads with progress, SSE). */
export const apiRoot = (apiOrigin: string) => `${apiOrigin}/api/v1`;

/**
 * Opens a product page (`/channels?…`, `/pdf_viewer?…`): `csai-navigate` first (a page may route
 * itself); otherwise the site's router on the CSAI site, or a full navigation to the CSAI
 * server (its origin or reverse-proxy prefix) from a foreign page.
 */
export function openProductPage(host: HTMLElement, apiOrigin: string, path: string): void {
  // '' is the site itself; anything else (an origin, or a reverse-proxy prefix such as `/csai`) is prefixed.
  const url = new URL(`${apiOrigin}${path}`, location.href).href;
  requestNavigation(host, { path, url }, () => {
    if (apiOrigin === '') navigate(path);
    else location.assign(url);
  });
}
