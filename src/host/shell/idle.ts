import { useEffect, useState } from 'react';

let held: Promise<void> | undefined;

/**
 * Holds every {@link whenIdle} task until `ready` settles (at most `limit` ms): the page's main
 * content, still loading after the first paint (home's question box), comes before them, since
 * the browser would otherwise run them in the idle time while its code downloads.
 */
export function holdIdleTasksUntil(ready: Promise<unknown>, limit = 3000): void {
  const settled = new Promise<void>((resolve) => {
    const timer = window.setTimeout(resolve, limit);
    const done = () => {
      window.clearTimeout(timer);
      resolve();
    };
    ready.then(done, done);
  });
  held = settled.then(() => {
    held = undefined;
  });
}

/**
 * Runs `task` after the next paint, once the browser is idle (requestIdleCallback, at most
 * `timeout` ms later). Work a page can live without for a moment — the banner, the ping, a
 * returning user's session check, the elements — waits here, so the code and calls it needs
 * stay off the critical path of the first render. A hidden tab (no frames) still runs it after
 * `timeout` ms. Returns a function that cancels the task if it has not run yet.
 */
export function whenIdle(task: () => void, timeout = 1000): () => void {
  if (held) {
    // The page's main content is still loading: the wait for idleness starts once it is there.
    let cancel: (() => void) | undefined;
    let cancelled = false;
    void held.then(() => {
      if (!cancelled) cancel = whenIdle(task, timeout);
    });
    return () => {
      cancelled = true;
      cancel?.();
    };
  }
  let state: 'waiting' | 'queued' | 'done' = 'waiting';
  let cancelIdle = () => {};
  const run = () => {
    if (state === 'done') return;
    state = 'done';
    task();
  };
  const afterPaint = () => {
    if (state !== 'waiting') return;
    state = 'queued';
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(run, { timeout });
      cancelIdle = () => window.cancelIdleCallback(id);
    } else window.setTimeout(run, 0);
  };
  // The frame is painted after its animation callbacks; the task after that one is past the paint.
  const frame = window.requestAnimationFrame(() => window.setTimeout(afterPaint, 0));
  const fallback = window.setTimeout(run, timeout);
  return () => {
    state = 'done';
    window.cancelAnimationFrame(frame);
    window.clearTimeout(fallback);
    cancelIdle();
  };
}

/**
 * Whether parts of a page that wait for its main content may render: `false` while
 * {@link holdIdleTasksUntil} holds (home's first load, until its question box is there) and then
 * until the browser is idle; `true` at once when nothing is held (every later render, other pages).
 */
export function useAfterMainContent(): boolean {
  const [ready, setReady] = useState(() => held === undefined);
  useEffect(() => (ready ? undefined : whenIdle(() => setReady(true))), [ready]);
  return ready;
}

/**
 * Renders as a page's first load does while its main content is held (the parts waiting for it
 * left out): home's server-rendered first paint (src/host/first-paint.tsx) is that frame.
 */
export function renderAsFirstLoad<T>(render: () => T): T {
  const saved = held;
  held = Promise.resolve();
  try {
    return render();
  } finally {
    held = saved;
  }
}
