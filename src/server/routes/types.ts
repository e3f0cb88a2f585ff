import type { FastifyInstance, FastifyBaseLogger, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Cluster } from '../db/cluster';
import type { Db } from '../db/database';
import type { Notifier } from '../notify/notifier';
import type { Runtime } from '../runtime';
import type { SafeFetchOptions } from '../net/safe-fetch';

/** The Fastify instance routes are registered on, typed by the zod provider. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What every route module is given. */
export interface Services {
  config: Config;
  /** Whether this node is one of several over one database (decided once, in app.ts). */
  cluster: Cluster;
  db: Db;
  secret: Buffer;
  notifier: Notifier;
  version: string;
  /** What runs besides HTTP (parsing, embeddings, chemistry, tools, answering), started once in app.ts. */
  runtime: Runtime;
  /** Tests only: the address policy and name resolution of fetches users ask for; unset, public addresses only. */
  outbound?: OutboundOverrides;
}

/** What tests may change about the outbound client's public policy: which addresses count as allowed, and how names resolve. */
export type OutboundOverrides = Pick<SafeFetchOptions, 'isAllowedAddress' | 'resolve'>;

/** Wraps data in the success envelope (DESIGN §3). */
export const ok = <T>(data: T, message = '') => ({ success: true as const, data, message });
