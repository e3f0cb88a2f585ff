import { api } from '../core/page';
import { statusStore } from '../core/status-store';
import { ApiError } from '../core/api';
import { userInfo, displayName, type UserInfo } from '../contract/auth';

/** What the store keeps of a user (SPEC §3 user_info), from the server's answer. */
export function toStoredUser(user: UserInfo) {
  return { show_name: user.show_name || displayName(user), username: user.name, id: user.id, department_name: user.department_name };
}

let check: Promise<boolean> | undefined;

/**
 * Confirms the session with GET /auth/me once per page load. A 401 marks need_login and the
 * API client sends the page to sign-in (SPEC §6); other failures go to the 500/503 pages.
 */
export function confirmSession(navigate: (path: string) => void): Promise<boolean> {
  check ??= api()
    .get('/auth/me', userInfo, { quiet: true })
    .then((user) => {
      statusStore().session.signIn(toStoredUser(user));
      return true;
    })
    .catch((err: unknown) => {
      check = undefined;
      if (err instanceof ApiError && err.status === 401) {
        statusStore().session.signOut(true);
        return false;
      }
      const status = err instanceof ApiError ? err.status : 0;
      navigate(status === 500 ? '/errors/500' : status === 403 ? '/errors/403' : '/errors/503');
      return false;
    });
  return check;
}

/** Records a fresh sign-in (the sign-in and code pages call it). */
export function sessionStarted(user: UserInfo): void {
  statusStore().session.signIn(toStoredUser(user));
  check = Promise.resolve(true);
}

/** Forgets the session after sign-out. */
export function sessionEnded(): void {
  statusStore().session.signOut(false);
  check = undefined;
}
