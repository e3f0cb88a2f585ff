import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Executor } from '../db/database';

/**
 * Rate limits and cooldowns counted in the database (table rate_limits, migration 0023), so that
 * several app nodes over one PostgreSQL count one client's requests together. A
 * fixed window per key, as @fastify/rate-limit's in-memory store counts; a single SQLite process
 * keeps the in-memory store (no write per request). Spent rows are swept by node-lease.ts.
 */
export function sharedCounter(db: Executor) {
  return {
    /** Counts one hit of `key` in its window of `windowMs`; returns the hits in the window so far and the milliseconds left. */
    async hit(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
      const t = Date.now();
      const { rows } = await sql<{ count: number; reset_at: number }>`
        insert into rate_limits (key, count, window_start, reset_at) values (${key}, 1, ${t}, ${t + windowMs})
        on conflict (key) do update set
          count = case when rate_limits.reset_at <= excluded.window_start then 1 else rate_limits.count + 1 end,
          window_start = case when rate_limits.reset_at <= excluded.window_start then excluded.window_start else rate_limits.window_start end,
          reset_at = case when rate_limits.reset_at <= excluded.window_start then excluded.reset_at else rate_limits.reset_at end
        returning count, reset_at`.execute(db);
      const row = rows[0]!;
      return { current: Number(row.count), ttl: Math.max(0, Number(row.reset_at) - t) };
    },
  };
}

/** What a route's limit is known by in the shared table: its method and URL, else the order it was made in (the same on every node). */
const routeInfo = z.object({ method: z.union([z.string(), z.array(z.string())]), url: z.string() });

/** A store class for @fastify/rate-limit's `store` option, counting in the database. */
export function databaseRateLimitStore(db: Executor): FastifyRateLimitStoreCtor {
  const counter = sharedCounter(db);
  let made = 0;
  class DatabaseStore implements FastifyRateLimitStore {
    /** The plugin makes the first with its options (the global limit); `child` names the others. */
    readonly prefix: string;
    constructor(options: object | string) {
      this.prefix = typeof options === 'string' ? options : 'global';
    }

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      counter.hit(`${this.prefix}|${key}`, timeWindow).then(
        (r) => callback(null, r),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    }

    child(routeOptions: object) {
      const info = routeInfo.safeParse(Reflect.get(routeOptions, 'routeInfo'));
      made++;
      return new DatabaseStore(info.success ? `${[info.data.method].flat().join(',')} ${info.data.url}` : `limit#${made}`);
    }
  }
  return DatabaseStore;
}
