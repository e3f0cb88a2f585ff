import { useSyncExternalStore } from 'react';
import type { ReadonlySignal } from '@preact/signals-core';

/**
 * The current value of a `@preact/signals-core` signal, re-rendering on change. A few lines over
 * React's `useSyncExternalStore` instead of `@preact/signals-react`, to keep elements light.
 */
export function useSignalValue<T>($signal: ReadonlySignal<T>): T {
  return useSyncExternalStore(
    (changed) => $signal.subscribe(() => changed()),
    () => $signal.peek(),
  );
}
