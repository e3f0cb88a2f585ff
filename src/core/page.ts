import { createApiClient, type ApiClient } from './api';
import { i18n } from './i18n';
import { statusStore } from './status-store';
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

/** Moves the page to `path` the way the page was told to (the site's router, else a full navigation). */
export function navigate(path: string): void {
  navigateTo(path);
}

/** Sets the API base (an element's `api-base` attribute) before the first call. */
export function setApiBase(base: string): void {
  if (base !== apiBase) pageApi = undefined;
  apiBase = base;
}

/** The page's one API client, wired to the page's toasts, i18n, navigation and status store. */
export function api(): ApiClient {
  return (pageApi ??= createApiClient({
    apiBase,
    navigate: (path) => navigateTo(path),
    // SPEC §6: a 401 means the page no longer has a user (need_login).
    onUnauthorized: () => statusStore().session.signOut(true),
    toasts: toastStore(),
    i18n: i18n(),
  }));
}
