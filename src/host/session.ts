import { api, navigate as pageNavigate } from '../core/page';
import { statusStore } from '../core/status-store';
import { ApiError, SIGN_IN_PATH } from '../core/api';
import { createAuthApi } from '../core/auth-api';
import type { UserInfo } from '../contract/auth';

// The auth contract (zod schemas) loads with the session check, not with the page.
const authContract = () => import('../contract/auth');

/** What the store keeps of a user (SPEC §3 user_info), from the server's answer. */
async function toStoredUser(user: UserInfo) {
  const { displayName } = await authContract();
  return { show_name: user.show_name || displayName(user), username: user.name, id: user.id, department_name: user.department_name, ...(user.is_admin ? { is_admin: true } : {}) };
}

let check: Promise<boolean> | undefined;

// A returning user's hint (localStorage outlives the tab's sessionStorage): render app pages at
// once while GET /auth/session confirms the session, instead of showing a loading page first.
const HINT_KEY = 'csai:signed-in';
const hint = {
  get: () => {
    try {
      return window.localStorage.getItem(HINT_KEY) === '1';
    } catch {
      return false;
    }
  },
  set: (on: boolean) => {
    try {
      if (on) window.localStorage.setItem(HINT_KEY, '1');
      else window.localStorage.removeItem(HINT_KEY);
    } catch {
      // Storage blocked: the page just waits for the session check.
    }
  },
};

// Any 401 anywhere on the page (need_login) ends what this module believes about the session.
statusStore().session.$need_login.subscribe((needLogin) => {
  if (!needLogin) return;
  check = undefined;
  hint.set(false);
});

/** Whether this browser was signed in when last seen (the session check still decides). */
export function probablySignedIn(): boolean {
  return hint.get();
}

/**
 * Confirms the session once per page load with GET /auth/session, which answers 200 with no user
 * for a signed-out visitor (GET /auth/me would answer 401, and the browser prints every failed
 * request as a console error on the visitor's first load). No user marks need_login and sends
 * the page to sign-in (SPEC §6); failures of the call go to the 500/503 pages.
 */
export function confirmSession(navigate: (path: string) => void): Promise<boolean> {
  check ??= createAuthApi(api())
    .session({ quiet: true })
    .then(async ({ user }) => {
      if (!user) {
        check = undefined;
        statusStore().session.signOut(true);
        hint.set(false);
        // The page's navigate (not the router's): it remembers where the visitor was headed.
        pageNavigate(SIGN_IN_PATH);
        return false;
      }
      statusStore().session.signIn(await toStoredUser(user));
      // The user's own choice of language follows them to this browser.
      if (user.language) void import('./i18n').then((m) => m.applyLanguage(user.language!));
      hint.set(true);
      return true;
    })
    .catch((err: unknown) => {
      check = undefined;
      // A 401 here (a proxy in front, an older server) still means "not signed in"; the API
      // client has already marked need_login and gone to sign-in.
      if (err instanceof ApiError && err.status === 401) {
        statusStore().session.signOut(true);
        hint.set(false);
        return false;
      }
      const status = err instanceof ApiError ? err.status : 0;
      navigate(status === 500 ? '/errors/500' : status === 403 ? '/errors/403' : '/errors/503');
      return false;
    });
  return check;
}

/** Records a fresh sign-in (the sign-in and code pages call it). */
export async function sessionStarted(user: UserInfo): Promise<void> {
  statusStore().session.signIn(await toStoredUser(user));
  if (user.language) void import('./i18n').then((m) => m.applyLanguage(user.language!));
  hint.set(true);
  check = Promise.resolve(true);
}

/** Forgets the session after sign-out. */
export function sessionEnded(): void {
  statusStore().session.signOut(false);
  hint.set(false);
  check = undefined;
}

const RETURN_KEY = 'csai:return_to';

/**
 * A path on this site, and nothing a browser would read as another origin: `//evil.example`,
 * `/\\evil.example` (a backslash counts as a slash) and `/<tab>/evil.example` (tabs and line breaks are
 * dropped) all would. Checked by resolving it the way the browser will (no open redirect).
 */
function isSitePath(path: string): boolean {
  if (!path.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(path)) return false;
  try {
    return new URL(path, window.location.origin).origin === window.location.origin && !path.startsWith('//');
  } catch {
    return false;
  }
}

/** Remembers the page a signed-out visitor asked for, so sign-in can bring them back to it. */
export function rememberReturnPath(path: string): void {
  if (!isSitePath(path) || path.startsWith('/auth/') || path.startsWith('/errors/')) return;
  try {
    window.sessionStorage.setItem(RETURN_KEY, path);
  } catch {
    // Without storage the user lands on home after signing in.
  }
}

/** The page to open after signing in (the remembered one, once), else home. */
export function takeReturnPath(): string {
  try {
    const path = window.sessionStorage.getItem(RETURN_KEY);
    window.sessionStorage.removeItem(RETURN_KEY);
    if (path && isSitePath(path) && !path.startsWith('/auth/')) return path;
  } catch {
    // fall through
  }
  return '/';
}
