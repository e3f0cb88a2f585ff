import { z } from 'zod';
import { guardedFetch, type GuardedFetch } from '../../net/guarded-fetch';
import { SafeFetchError } from '../../net/safe-fetch';

/** A source failed in a way the reader should be told about (Chinese, names the source). */
export class PatentSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatentSourceError';
  }
}

/** Longest answer read from a patent service. */
const MAX_BYTES = 4 * 1024 * 1024;
/** Longest one request may take. */
export const PATENT_REQUEST_TIMEOUT_MS = 20_000;

/**
 * The operator's configured patent services are trusted like `LLM_BASE_URL` (they may be a mirror
 * on the intranet): any address, but no redirect is followed and bodies are capped.
 */
export const trustedFetch: GuardedFetch = guardedFetch({ isAllowed: () => true, maxBytes: MAX_BYTES, headersTimeoutMs: PATENT_REQUEST_TIMEOUT_MS });

export interface JsonRequest {
  method?: 'GET' | 'POST';
  body?: unknown;
  signal: AbortSignal;
  /** Statuses that mean “nothing found” rather than an error (PubChem answers a miss with 404). */
  emptyOn?: number[];
}

/**
 * One JSON request to a patent service: HTTP errors, 429/503, timeouts and bodies that are not
 * JSON become a `PatentSourceError` naming `site`; `emptyOn` statuses give `undefined`.
 */
export async function requestJson(site: string, url: string, { method = 'GET', body, signal, emptyOn = [] }: JsonRequest, fetcher: GuardedFetch = trustedFetch): Promise<unknown> {
  const limit = AbortSignal.any([signal, AbortSignal.timeout(PATENT_REQUEST_TIMEOUT_MS)]);
  let res: Response;
  let text: string;
  try {
    res = await fetcher(url, {
      method,
      headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: limit,
    });
    text = await res.text();
  } catch (err) {
    if (signal.aborted) throw err;
    if (limit.aborted || (err instanceof SafeFetchError && err.code === 'timeout')) throw new PatentSourceError(`${site} 响应超时（超过 ${PATENT_REQUEST_TIMEOUT_MS / 1000} 秒）`);
    if (err instanceof SafeFetchError && err.code === 'too_large') throw new PatentSourceError(`${site} 返回的数据过大，已放弃`);
    throw new PatentSourceError(`无法连接 ${site}：${err instanceof Error ? err.message : String(err)}`);
  }
  if (emptyOn.includes(res.status)) return undefined;
  if (res.status === 429) throw new PatentSourceError(`${site} 请求过于频繁（HTTP 429），请稍后再试`);
  if (res.status === 503) throw new PatentSourceError(`${site} 暂时不可用（HTTP 503），请稍后再试`);
  if (res.status >= 300 && res.status < 400) throw new PatentSourceError(`${site} 返回了重定向（HTTP ${res.status}），请检查配置的服务地址`);
  if (res.status !== 200) throw new PatentSourceError(`${site} 返回错误（HTTP ${res.status}）`);
  try {
    return JSON.parse(text);
  } catch {
    throw new PatentSourceError(`${site} 返回的数据不是 JSON，无法识别`);
  }
}

/** Parses a service's JSON with `schema`; a mismatch is the service's fault and says so. */
export function parseAnswer<T>(site: string, schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new PatentSourceError(`${site} 返回的数据格式无法识别`);
  return parsed.data;
}

/** `YYYY-MM-DD` from the date forms the services use (`2016-09-15`, `20160915`, ISO with time), else null. */
export function isoDate(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const s = String(value).trim();
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (compact) return `${compact[1]}-${compact[2]}-${compact[3]}`;
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(s);
  return iso ? iso[1]! : null;
}
