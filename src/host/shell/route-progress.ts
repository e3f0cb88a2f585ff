import { signal } from '@preact/signals-react';

/** SPEC §9: the route progress bar's animation speed (ms) and trickle interval (ms). */
export const PROGRESS_SPEED = 300;
export const PROGRESS_TRICKLE = 200;

/** Progress from 0 to 1 while a route loads, null when idle. */
export const $routeProgress = signal<number | null>(null);

let trickle: ReturnType<typeof setInterval> | undefined;
let hide: ReturnType<typeof setTimeout> | undefined;

// NProgress's trickle curve: big steps first, ever smaller near the end, never reaching 1.
const step = (n: number) => (n < 0.2 ? 0.1 : n < 0.5 ? 0.04 : n < 0.8 ? 0.02 : n < 0.99 ? 0.005 : 0);

// The location whose page last finished rendering. The bar's start and the page's finish run in
// effects of different components, whose order is not promised: a page can report first.
let finishedFor: string | undefined;

/** Starts the bar on a route change (to `location`, unless that page has rendered already). */
export function startRouteProgress(location?: string): void {
  if (location !== undefined && location === finishedFor) return;
  clearTimeout(hide);
  if ($routeProgress.value === null) $routeProgress.value = 0.08;
  clearInterval(trickle);
  trickle = setInterval(() => {
    const n = $routeProgress.value;
    if (n !== null) $routeProgress.value = Math.min(0.994, n + step(n));
  }, PROGRESS_TRICKLE);
}

/** Completes the bar once the new page (at `location`) has rendered. */
export function finishRouteProgress(location?: string): void {
  finishedFor = location;
  clearInterval(trickle);
  if ($routeProgress.value === null) return;
  $routeProgress.value = 1;
  clearTimeout(hide);
  hide = setTimeout(() => {
    $routeProgress.value = null;
  }, PROGRESS_SPEED * 2);
}
