/** SPEC §9: the chemical editor's wait loop — every 100 ms, up to 3000 times. */
export const WAIT_INTERVAL_MS = 100;
export const WAIT_MAX_TRIES = 3000;

/**
 * Resolves `true` as soon as `ready()` holds, checking now and then every `interval` ms up to
 * `tries` times; `false` when it never does or `signal` aborts.
 */
export function waitUntil(ready: () => boolean, { interval = WAIT_INTERVAL_MS, tries = WAIT_MAX_TRIES, signal }: { interval?: number; tries?: number; signal?: AbortSignal } = {}): Promise<boolean> {
  return new Promise((resolve) => {
    if (ready()) return resolve(true);
    let count = 0;
    const timer = setInterval(() => {
      count++;
      if (signal?.aborted) {
        clearInterval(timer);
        resolve(false);
      } else if (ready()) {
        clearInterval(timer);
        resolve(true);
      } else if (count >= tries) {
        clearInterval(timer);
        resolve(false);
      }
    }, interval);
  });
}
