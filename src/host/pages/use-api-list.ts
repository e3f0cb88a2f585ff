import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { ApiError } from '../../core/api';
import { api } from '../../core/page';

/** The message of a failed call, for a page to show beside its form or list. */
export const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * A list a page reads from `path` when it mounts (cancelled when it unmounts) and again on
 * `reload()`: `items` is null until the first answer; `error` says why the last read failed.
 * `quiet`: the page shows the error itself, without the client's toast.
 */
export function useApiList<T>(path: string, schema: z.ZodType<T[]>, { quiet = false } = {}) {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(
    (signal?: AbortSignal) => {
      api()
        .get(path, schema, { quiet, ...(signal ? { signal } : {}) })
        .then((list) => {
          setItems(list);
          setError(null);
        })
        .catch((err: unknown) => {
          if (err instanceof ApiError && err.code === 'aborted') return;
          setError(messageOf(err));
        });
    },
    [path, schema, quiet],
  );
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);
  return { items, error, reload: useCallback(() => load(), [load]) };
}
