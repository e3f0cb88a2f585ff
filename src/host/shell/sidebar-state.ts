import { signal } from '@preact/signals-react';
import { statusStore } from '../../core/status-store';
import { SIDEBAR_COOKIE } from '../../contract/first-paint';

export { SIDEBAR_COOKIE };
/** SPEC §9: 7 days, in seconds. */
export const SIDEBAR_COOKIE_MAX_AGE = 7 * 24 * 60 * 60;
/** SPEC §9: below this width the sidebar is a slide-in drawer. */
export const MOBILE_BREAKPOINT = 770;
/** SPEC §9: widths of the sidebar. */
export const SIDEBAR_WIDTH = '16rem';
export const SIDEBAR_WIDTH_MOBILE = '18rem';
export const SIDEBAR_WIDTH_ICON = '3rem';
/** SPEC §9: Ctrl or Cmd plus this key toggles the sidebar. */
export const SIDEBAR_SHORTCUT = 'b';

/** The saved open state from `document.cookie`, or undefined when none was saved. */
export function readSidebarCookie(cookies: string = typeof document === 'undefined' ? '' : document.cookie): boolean | undefined {
  for (const part of cookies.split(';')) {
    const [name, value] = part.split('=').map((s) => s.trim());
    if (name === SIDEBAR_COOKIE) return value === 'true' ? true : value === 'false' ? false : undefined;
  }
  return undefined;
}

/** Saves the open state for 7 days. */
export function writeSidebarCookie(open: boolean): void {
  document.cookie = `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax`;
}

/** The drawer's open state on narrow screens (not persisted, SPEC §4 "separate open state on mobile"). */
export const $openMobile = signal(false);

let seeded = false;
/** Reads the cookie into the store the first time the shell renders. */
export function seedSidebarFromCookie(): void {
  if (seeded) return;
  seeded = true;
  const saved = readSidebarCookie();
  if (saved !== undefined) statusStore().layout.$isSidebarOpen.value = saved;
}

/** Expands or collapses the sidebar and saves the state in the cookie. */
export function setSidebarOpen(open: boolean): void {
  statusStore().layout.$isSidebarOpen.value = open;
  writeSidebarCookie(open);
}

/** SPEC §2: Ctrl/Cmd+B toggles the drawer on narrow screens, the sidebar otherwise. */
export function toggleSidebar(isMobile: boolean): void {
  if (isMobile) $openMobile.value = !$openMobile.value;
  else setSidebarOpen(!statusStore().layout.$isSidebarOpen.value);
}

/** Whether a key event is the sidebar shortcut. */
export function isSidebarShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
  return event.key.toLowerCase() === SIDEBAR_SHORTCUT && (event.ctrlKey || event.metaKey) && !event.altKey;
}
