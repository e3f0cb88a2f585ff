import { safeFetch, SafeFetchError } from '../../net/safe-fetch';

/** Why one search service did not answer: the next one in WEB_SEARCH_ORDER is tried. */
export type ServiceFailure = 'unauthorized' | 'rate_limited' | 'http' | 'timeout' | 'network' | 'malformed';

/** A search service that failed, with a Chinese message naming it and what happened. */
export class SearchServiceError extends Error {
  constructor(
    readonly service: string,
    readonly failure: ServiceFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SearchServiceError';
  }
}

/** Largest response read from a search service. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export interface ServiceRequest {
  /** The service's name as the messages show it ("SearXNG"). */
  service: string;
  url: string;
  method?: 'GET' | 'POST';
  /** Sent as JSON. */
  json?: unknown;
  headers?: Record<string, string>;
  signal: AbortSignal;
  timeoutMs: number;
}

/**
 * One call of a search service's JSON API through the SSRF-safe client. The address is the
 * operator's own configuration (like LLM_BASE_URL), so it may be on the intranet or this machine:
 * every address is allowed, and no redirect is followed. A 401/403, a 429, another non-2xx status,
 * a timeout, a connection failure and a body that is not JSON each throw a SearchServiceError.
 */
export async function serviceJson({ service, url, method = 'GET', json, headers = {}, signal, timeoutMs }: ServiceRequest): Promise<unknown> {
  let res;
  try {
    res = await safeFetch(url, {
      method,
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
      headers: { accept: 'application/json', ...(json !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      isAllowedAddress: () => true,
      maxRedirects: 0,
      maxBytes: MAX_RESPONSE_BYTES,
      timeoutMs,
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw err;
    if (err instanceof SafeFetchError && err.code === 'timeout') throw new SearchServiceError(service, 'timeout', `${service} 超时未响应`);
    if (err instanceof SafeFetchError && err.code === 'too_many_redirects') throw new SearchServiceError(service, 'http', `${service} 返回了重定向，请检查服务地址`);
    throw new SearchServiceError(service, 'network', `无法连接 ${service}：${err instanceof Error ? err.message : String(err)}`);
  }
  const detail = () => res.text().replace(/\s+/g, ' ').trim().slice(0, 200);
  if (res.status === 401 || res.status === 403) throw new SearchServiceError(service, 'unauthorized', `${service} 拒绝了请求（${res.status}），请检查 API 密钥或服务设置${detail() ? `：${detail()}` : ''}`);
  if (res.status === 429) throw new SearchServiceError(service, 'rate_limited', `${service} 请求过于频繁或额度已用完（429）`);
  if (res.status >= 300 && res.status < 400) throw new SearchServiceError(service, 'http', `${service} 返回了重定向（${res.status}），请检查服务地址`);
  if (res.status < 200 || res.status >= 300) throw new SearchServiceError(service, 'http', `${service} 返回错误（${res.status}）${detail() ? `：${detail()}` : ''}`);
  try {
    return JSON.parse(res.text());
  } catch {
    throw new SearchServiceError(service, 'malformed', `${service} 的响应不是合法的 JSON`);
  }
}

/** The site's name of a URL: its host without "www.". */
export function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./i, '');
  } catch {
    return '';
  }
}

/** Plain text of a snippet some services send with HTML marks (<b>, &amp;), spaces collapsed. */
export function plainText(text: string, max = 500): string {
  const plain = text
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...plain];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : plain;
}

/** Whether a URL is one a citation may link to (http or https). */
export const isHttpUrl = (url: string) => {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};
