import { useLayoutEffect, useReducer, useRef } from 'react';
import type { ReadonlySignal } from '@preact/signals-core';

/**
 * The current value of a signal of the viewer model, re-rendering on change. Subscribed in a
 * layout effect that first compares the value rendered with the current one: a value written by
 * another layout effect of the same commit (the view's size, measured as the column mounts)
 * re-renders before the browser paints, where a subscription in a passive effect
 * (`useSyncExternalStore`) could lose a frame before the first page.
 */
export function useValue<T>($signal: ReadonlySignal<T>): T {
  const [, changed] = useReducer((n: number) => n + 1, 0);
  const value = $signal.peek();
  const shown = useRef(value);
  shown.current = value;
  useLayoutEffect(
    () =>
      $signal.subscribe((v) => {
        if (!Object.is(v, shown.current)) changed();
      }),
    [$signal],
  );
  return value;
}
