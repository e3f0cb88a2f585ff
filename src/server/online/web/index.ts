import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { OnlineHit, OnlineSearch } from '../hit';
import { bochaAdapter, customAdapter, searxngAdapter, tavilyAdapter, WEB_SERVICE_IDS, type WebAdapter, type WebServiceId } from './adapters';
import { SearchServiceError } from './service-fetch';

export { SearchServiceError } from './service-fetch';
export type { WebAdapter, WebServiceId } from './adapters';

/** What to set to enable web search (the tool's reason, the question box's explanation). */
export const WEB_SEARCH_SETUP = '未配置联网搜索服务：请设置 SEARXNG_URL（自建 SearXNG）、TAVILY_API_KEY、BOCHA_API_KEY 或 WEB_SEARCH_CUSTOM_URL 中的至少一个，并重启服务。';

/** Every web search service failed: the message names each and why. */
export class WebSearchFailed extends Error {
  constructor(readonly failures: SearchServiceError[]) {
    super(`联网搜索失败：${failures.map((f) => f.message).join('；')}`);
    this.name = 'WebSearchFailed';
  }
}

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

/**
 * The services tried in order: the first that answers gives the hits (an empty list is an
 * answer); a failure (error status, 429, timeout, malformed response, no connection) moves on to
 * the next. When all fail, WebSearchFailed. A stop through the query's signal ends it at once.
 */
export function withFailover(adapters: readonly WebAdapter[], log?: Pick<FastifyBaseLogger, 'warn'>): OnlineSearch | undefined {
  if (!adapters.length) return undefined;
  return async (q): Promise<OnlineHit[]> => {
    const failures: SearchServiceError[] = [];
    for (const adapter of adapters) {
      if (q.signal.aborted) throw q.signal.reason;
      try {
        return await adapter.search(q);
      } catch (err) {
        if (q.signal.aborted) throw err;
        const failure = err instanceof SearchServiceError ? err : new SearchServiceError(adapter.label, 'network', `${adapter.label} 出错`);
        log?.warn({ service: adapter.id, failure: failure.failure, err: failure.message }, 'web search service failed, trying the next');
        failures.push(failure);
      }
    }
    throw new WebSearchFailed(failures);
  };
}

/** The web search of this server's configuration, or undefined when no service is configured. */
export const webSearchFromConfig = (config: Parameters<typeof webAdapters>[0], log?: Pick<FastifyBaseLogger, 'warn'>) => withFailover(webAdapters(config), log);
