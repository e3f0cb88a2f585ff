import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { OnlineHit, OnlineQuery } from '../hit';
import { bochaAdapter, customAdapter, searxngAdapter, tavilyAdapter, WEB_SERVICE_IDS, type WebAdapter, type WebServiceId } from './adapters';
import { failover } from '../../net/service';

export type { WebAdapter, WebServiceId } from './adapters';

/** The configured web search services, in WEB_SEARCH_ORDER (services left out of the order are not used). */
export function webAdapters(config: Pick<Config, 'SEARXNG_URL' | 'TAVILY_API_KEY' | 'TAVILY_BASE_URL' | 'BOCHA_API_KEY' | 'BOCHA_BASE_URL' | 'WEB_SEARCH_CUSTOM_URL' | 'WEB_SEARCH_CUSTOM_KEY' | 'WEB_SEARCH_ORDER' | 'WEB_SEARCH_TIMEOUT_MS'>): WebAdapter[] {
  const ms = config.WEB_SEARCH_TIMEOUT_MS;
  const make: Record<WebServiceId, () => WebAdapter | undefined> = {
    searxng: () => (config.SEARXNG_URL ? searxngAdapter(config.SEARXNG_URL, ms) : undefined),
    tavily: () => (config.TAVILY_API_KEY ? tavilyAdapter(config.TAVILY_BASE_URL, config.TAVILY_API_KEY, ms) : undefined),
    bocha: () => (config.BOCHA_API_KEY ? bochaAdapter(config.BOCHA_BASE_URL, config.BOCHA_API_KEY, ms) : undefined),
    custom: () => (config.WEB_SEARCH_CUSTOM_URL ? customAdapter(config.WEB_SEARCH_CUSTOM_URL, config.WEB_SEARCH_CUSTOM_KEY, ms) : undefined),
  };
  const order = [...new Set(config.WEB_SEARCH_ORDER)].filter((id): id is WebServiceId => (WEB_SERVICE_IDS as readonly string[]).includes(id));
  return order.flatMap((id) => make[id]() ?? []);
}

/** The configured web search: its services in WEB_SEARCH_ORDER, asked with failover. */
export interface WebSearch {
  (q: OnlineQuery): Promise<OnlineHit[]>;
  readonly adapters: readonly WebAdapter[];
}

/**
 * The services tried in order: the first that answers gives the hits (an empty list is an
 * answer); a failure (error status, 429, timeout, malformed response, no connection) moves on to
 * the next. When all fail, a ServiceError saying 联网搜索失败 and why each failed. A stop through
 * the query's signal ends it at once. Undefined when no service is configured.
 */
export function withFailover(adapters: readonly WebAdapter[], log?: Pick<FastifyBaseLogger, 'warn'>): WebSearch | undefined {
  if (!adapters.length) return undefined;
  const search = async (q: OnlineQuery): Promise<OnlineHit[]> => {
    const found = await failover(
      '联网搜索',
      adapters.map((adapter) => ({ service: adapter.label, ask: (signal: AbortSignal) => adapter.search({ ...q, signal }) })),
      q.signal,
      (failure) => log?.warn({ service: failure.service, failure: failure.failure, err: failure.message }, 'web search service failed, trying the next'),
    );
    return found.value;
  };
  return Object.assign(search, { adapters });
}

/** The web search of this server's configuration, or undefined when no service is configured. */
export const webSearchFromConfig = (config: Parameters<typeof webAdapters>[0], log?: Pick<FastifyBaseLogger, 'warn'>) => withFailover(webAdapters(config), log);
