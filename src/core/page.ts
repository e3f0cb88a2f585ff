import { createApiClient, type ApiClient } from './api';
import { i18n } from './i18n';
import { toastStore } from './toast';

let navigateTo: (path: string) => void = (path) => window.location.assign(path);
let apiBase = '';
let pageApi: ApiClient | undefined;

/**
 * Sets how the page's API client moves to another page (the site passes its router's navigate;
 * an element on a foreign page keeps the default full-page navigation).
 */
export function setNavigate(navigate: (path: string) => void): void {
  navigateTo = navigate;
}

/** Sets the API base (an element's `api-base` attribute) before the first call. */
export function setApiBase(base: string): void {
  if (base !== apiBase) pageApi = undefined;
  apiBase = base;
}

/** The page's one API client, wired to the page's toasts, i18n and navigation. */
export function api(): ApiClient {
  return (pageApi ??= createApiClient({ apiBase, navigate: (path) => navigateTo(path), toasts: toastStore(), i18n: i18n() }));
}
