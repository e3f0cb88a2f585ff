import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
// Signal reads in render are tracked by useSignals() (no compiler plugin), see README.
import { useSignals } from '@preact/signals-react/runtime';
import { $routeProgress, finishRouteProgress, PROGRESS_SPEED, startRouteProgress } from './route-progress';

/** SPEC §2: the bar and spinner at the top of the window on every route change. */
export function ProgressBar() {
  useSignals();
  const [location] = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    startRouteProgress(location);
  }, [location]);
  const n = $routeProgress.value;
  if (n === null) return null;
  return (
    <div className="route-progress" aria-hidden="true">
      <div className="route-progress__bar" style={{ transform: `translateX(${(n - 1) * 100}%)`, transitionDuration: `${PROGRESS_SPEED}ms` }} />
      <div className="route-progress__spinner" />
    </div>
  );
}

/** Rendered after a page inside the same Suspense boundary: it mounts once the page has loaded. */
export function RouteReady() {
  const [location] = useLocation();
  useEffect(() => finishRouteProgress(location), [location]);
  return null;
}
