import { useSignals } from '@preact/signals-react/runtime';
import type { ReadonlySignal } from '@preact/signals-core';

/** `useSignals` usage "managed hook": tracks only the reads between the call and `f()`. */
const MANAGED_HOOK = 2;

/**
 * The current value of a `@preact/signals-core` signal, re-rendering on change: the read is
 * tracked by `@preact/signals-react`'s `useSignals()` (the same binding as the site's components,
 * without its compiler plugin), closed right after it so nothing else the component reads is.
 */
export function useSignalValue<T>($signal: ReadonlySignal<T>): T {
  const store = useSignals(MANAGED_HOOK);
  try {
    return $signal.value;
  } finally {
    store.f();
  }
}
