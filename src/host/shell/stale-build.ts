/** How long after one reload for a missing chunk another one is allowed (no reload loops). */
export const STALE_BUILD_RELOAD_GAP_MS = 10_000;
const KEY = 'csai:stale-build-reload';

/** What {@link reloadOnStaleBuild} needs of the window (tests pass a stand-in). */
export interface StaleBuildWindow {
  addEventListener(type: 'vite:preloadError', listener: (event: Event) => void): void;
  removeEventListener(type: 'vite:preloadError', listener: (event: Event) => void): void;
  sessionStorage: Pick<Storage, 'getItem' | 'setItem'>;
  location: Pick<Location, 'reload'>;
  navigator: Pick<Navigator, 'onLine'>;
}

/**
 * A page opened before a rebuild asks for code chunks the new build deleted (their names are
 * hashed); Vite reports that as `vite:preloadError`. Reload once to get the new build's page
 * (the server sends the new index.html) instead of leaving a blank screen. Offline, or again
 * within {@link STALE_BUILD_RELOAD_GAP_MS}, the error goes on to the page as usual.
 * Returns the function that removes the listener.
 */
export function reloadOnStaleBuild(win: StaleBuildWindow = window, now: () => number = Date.now): () => void {
  const onError = (event: Event) => {
    if (!win.navigator.onLine) return;
    let last = 0;
    try {
      last = Number(win.sessionStorage.getItem(KEY) ?? 0);
      win.sessionStorage.setItem(KEY, String(now()));
    } catch {
      return; // without storage a loop could not be told apart: let the error show
    }
    if (now() - last < STALE_BUILD_RELOAD_GAP_MS) return;
    event.preventDefault();
    win.location.reload();
  };
  win.addEventListener('vite:preloadError', onError);
  return () => win.removeEventListener('vite:preloadError', onError);
}
