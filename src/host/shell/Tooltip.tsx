import { cloneElement, isValidElement, lazy, Suspense, useEffect, useId, useLayoutEffect, useRef, useState, type ReactElement, type Ref } from 'react';
import type { Placement } from '@floating-ui/react';

// Floating UI loads when a tooltip first opens, not with the page.
const FloatingLayer = lazy(() => import('./FloatingLayer'));

/** SPEC §9: a tooltip opens after 700 ms of hover or focus… */
export const TOOLTIP_OPEN_DELAY = 700;
/** …and at once when another one closed less than 300 ms ago (the skip delay). */
export const TOOLTIP_SKIP_DELAY = 300;

// One skip window for the page: moving along a row of icons shows each label without waiting again.
let lastClosedAt = Number.NEGATIVE_INFINITY;

/** Whether a tooltip asked to open at `now` skips its delay. */
export function skipsDelay(now: number): boolean {
  return now - lastClosedAt < TOOLTIP_SKIP_DELAY;
}

/** Records that a tooltip closed at `at` (starts the skip window). */
export function tooltipClosed(at: number): void {
  lastClosedAt = at;
}

type Trigger = ReactElement<{
  ref?: Ref<HTMLElement>;
  'aria-describedby'?: string;
  onPointerEnter?: () => void;
  onPointerLeave?: () => void;
  onFocus?: () => void;
  onBlur?: () => void;
}>;

/**
 * A tooltip on one focusable child, positioned by Floating UI. Hover or focus opens it after
 * {@link TOOLTIP_OPEN_DELAY} (or at once within the skip window); leaving, blur or Escape closes it.
 */
export function Tooltip({ label, children, placement = 'right', disabled = false }: {
  label: string;
  children: Trigger;
  placement?: Placement;
  disabled?: boolean;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const shown = open && !disabled;
  const anchor = useRef<HTMLElement | null>(null);
  const show = () => {
    clearTimeout(timer.current);
    if (skipsDelay(performance.now())) setOpen(true);
    else timer.current = setTimeout(() => setOpen(true), TOOLTIP_OPEN_DELAY);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setOpen((was) => {
      if (was) tooltipClosed(performance.now());
      return false;
    });
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  // A layout effect: Escape works from the moment the tooltip shows (plain effects may run after
  // the next frame).
  useLayoutEffect(() => {
    if (!shown) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && hide();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [shown]);
  if (!isValidElement(children) || disabled) return children;
  return (
    <>
      {cloneElement(children, {
        ref: anchor,
        'aria-describedby': shown ? id : undefined,
        onPointerEnter: show,
        onPointerLeave: hide,
        onFocus: show,
        onBlur: hide,
      })}
      {shown && (
        <Suspense fallback={null}>
          <FloatingLayer reference={anchor.current} placement={placement} gap={8} id={id} role="tooltip" className="tooltip">
            {label}
          </FloatingLayer>
        </Suspense>
      )}
    </>
  );
}
