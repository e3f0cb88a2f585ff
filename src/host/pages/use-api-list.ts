import { useCallback, useEffect, useState } from 'react';
import { ApiError, type CallOptions } from '../../core/api';

/** The message of a failed call, for a page to show beside its form or list. */
export const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * A list a page reads with `read` (a core API call, module-level so it stays the same) when it
 * mounts (cancelled when it unmounts) and again on `reload()`: `items` is null until the first
 * answer; `error` says why the last read failed. `quiet`: the page shows the error itself,
 * without the client's toast.
 */
export function useApiList<T>(read: (opts: CallOptions) => Promise<T[]>, { quiet = false } = {}) {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(
    (signal?: AbortSignal) => {
      read({ quiet, ...(signal ? { signal } : {}) })
        .then((list) => {
          setItems(list);
          setError(null);
        })
        .catch((err: unknown) => {
          if (err instanceof ApiError && err.code === 'aborted') return;
          setError(messageOf(err));
        });
    },
    [read, quiet],
  );
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);
  return { items, error, reload: useCallback(() => load(), [load]) };
}
