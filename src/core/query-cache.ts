/** SPEC §7: cached query results are fresh for 5 minutes. */
export const QUERY_STALE_TIME = 5 * 60_000;

interface Entry {
  value?: unknown;
  fetchedAt: number;
  pending?: Promise<unknown>;
}

/**
 * A small server-state cache: results keyed by a string, fresh for {@link QUERY_STALE_TIME},
 * concurrent asks for the same key share one request, invalidation by key prefix.
 * @example const folders = await cache.query('folders:1', () => api.get('/knowledge_base/folder?page=1&size=100', list));
 */
export function createQueryCache(opts: { staleTime?: number; now?: () => number } = {}) {
  const staleTime = opts.staleTime ?? QUERY_STALE_TIME;
  const now = opts.now ?? (() => Date.now());
  const entries = new Map<string, Entry>();

  return {
    /** The cached value when fresh, else fetches (once, however many callers wait). */
    query<T>(key: string, fetcher: () => Promise<T>): Promise<T> {
      const entry = entries.get(key);
      if (entry?.pending) return entry.pending as Promise<T>;
      if (entry && 'value' in entry && now() - entry.fetchedAt < staleTime) return Promise.resolve(entry.value as T);
      const pending = fetcher().then(
        (value) => {
          entries.set(key, { value, fetchedAt: now() });
          return value;
        },
        (error: unknown) => {
          entries.delete(key);
          throw error;
        },
      );
      entries.set(key, { ...entry, fetchedAt: entry?.fetchedAt ?? 0, pending });
      return pending;
    },
    /** Whether a fresh value is held for the key. */
    isFresh(key: string): boolean {
      const entry = entries.get(key);
      return !!entry && 'value' in entry && now() - entry.fetchedAt < staleTime;
    },
    /** Drops every entry whose key starts with the prefix (all entries without one). */
    invalidate(prefix = ''): void {
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
    },
  };
}
/** A query cache's methods. */
export type QueryCache = ReturnType<typeof createQueryCache>;

let pageCache: QueryCache | undefined;

/** The page's one query cache. */
export function queryCache(): QueryCache {
  return (pageCache ??= createQueryCache());
}
