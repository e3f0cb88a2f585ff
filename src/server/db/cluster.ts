import type { Config } from '../config';

/**
 * Whether this process may be one node of several over one database (PostgreSQL through
 * DATABASE_URL), decided here once and handed to what depends on it: with several
 * nodes, what they must agree on (rate limits, the OTP cooldown, the answer event log and its
 * bus) lives in the database; one SQLite process keeps it in memory.
 */
export type Cluster = { several: false } | { several: true; databaseUrl: string };

export const clusterOf = (config: Pick<Config, 'DATABASE_URL'>): Cluster =>
  config.DATABASE_URL ? { several: true, databaseUrl: config.DATABASE_URL } : { several: false };
