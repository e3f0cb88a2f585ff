// How an element reaches the CSAI server and its pages, on the site and on a foreign page.
import { createApiClient, type ApiClient } from '../../core/api';
import { i18n } from '../../core/i18n';
import { api, navigate } from '../../core/page';
import { isCrossOrigin } from '../../core/request';
import { statusStore } from '../../core/status-store';
import { toastStore } from '../../core/toast';
import { emit, requestNavigation } from './events';

/** Whether `apiOrigin` ('' or an origin) is the page's own origin (the site itself). */
export const isSameOrigin = (apiOrigin: string): boolean => !isCrossOrigin(apiOrigin);

/**
 * Whether the element runs on CSAI's own site (no `api-base`): a 401 then goes to the site's
 * sign-in page. With an `api-base` (another origin, or a reverse-proxy prefix such as `/csai` on
 * a portal), the element is embedded in someone else's page and reports instead.
 */
export const isEmbedded = (apiOrigin: string) => apiOrigin !== '';

const clients = new WeakMap<HTMLElement, { key: string; client: ApiClient }>();

/**
 * The API client of one element at its `api-base`: the SPEC §7 headers and credentials, the one
 * SPEC §8 mapping (toasts; on the site a 401 goes to sign-in), and every failure dispatched on
 * the element as `csai-error` in the element's `lang`. An embedded element never moves the host
 * page on a 401.
 */
export function clientFor(host: HTMLElement, apiOrigin: string, lang?: string): ApiClient {
  const key = `${apiOrigin} ${lang ?? ''}`;
  const known = clients.get(host);
  if (known && known.key === key) return known.client;
  const embed = isEmbedded(apiOrigin);
  const client = createApiClient({
    apiBase: apiOrigin,
    embed,
    navigate: (path) => navigate(path),
    // SPEC §6: a 401 means the page no longer has a user (need_login).
    onUnauthorized: () => statusStore().session.signOut(true),
    onError: (detail) => emit(host, 'csai-error', detail),
    toasts: toastStore(),
    i18n: i18n(),
    lang,
  });
  clients.set(host, { key, client });
  return client;
}

const hostless = new Map<string, ApiClient>();

/**
 * An API client at `apiOrigin` not tied to one element (no `csai-error`): the page's own client
 * on the site. Elements use {@link clientFor} (`useApi()`).
 */
export function apiFor(apiOrigin: string): ApiClient {
  if (!isEmbedded(apiOrigin)) return api();
  let client = hostless.get(apiOrigin);
  if (!client) {
    client = createApiClient({ apiBase: apiOrigin, embed: true, navigate: () => undefined, onUnauthorized: () => statusStore().session.signOut(true), toasts: toastStore(), i18n: i18n() });
    hostless.set(apiOrigin, client);
  }
  return client;
}

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
