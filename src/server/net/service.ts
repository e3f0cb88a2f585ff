import type { z } from 'zod';
import { safeFetch, SafeFetchError, type OutboundPolicy, type SafeFetchOptions } from './safe-fetch';

/**
 * Calling an outside service's API (web search, literature, patents): one JSON call, one error
 * type, one failover loop. The messages are Chinese, name the service and say what went wrong;
 * the server's i18n says them in English at the edge for a user who chose English.
 */

/** What went wrong with one service (the message says it in words). */
export type ServiceFailure =
  | 'unauthorized'
  | 'rate_limited'
  | 'unavailable'
  | 'redirect'
  | 'http'
  | 'timeout'
  | 'too_large'
  | 'network'
  | 'malformed'
  | 'reported'
  | 'all_failed';

/** A service that failed; `failures` holds each service's error when several were tried. */
export class ServiceError extends Error {
  constructor(
    readonly service: string,
    readonly failure: ServiceFailure,
    message: string,
    readonly failures: readonly ServiceError[] = [],
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** The Chinese messages, one per failure (`service` is the service's display name). */
export const serviceFailed = {
  unauthorized: (service: string, status: number, detail = '') => new ServiceError(service, 'unauthorized', `${service} 拒绝了请求（${status}），请检查 API 密钥或服务设置${detail && `：${detail}`}`),
  rateLimited: (service: string, detail = '') => new ServiceError(service, 'rate_limited', `${service} 请求过于频繁或额度已用完（429），请稍后再试${detail && `：${detail}`}`),
  unavailable: (service: string, status: number) => new ServiceError(service, 'unavailable', `${service} 暂时不可用（${status}），请稍后再试`),
  redirect: (service: string, status?: number) => new ServiceError(service, 'redirect', `${service} 返回了重定向${status ? `（${status}）` : ''}，请检查配置的服务地址`),
  http: (service: string, status: number | string, detail = '') => new ServiceError(service, 'http', `${service} 返回错误（${status}）${detail && `：${detail}`}`),
  timeout: (service: string, ms: number) => new ServiceError(service, 'timeout', `${service} 请求超时（超过 ${Math.round(ms / 1000)} 秒）`),
  tooLarge: (service: string) => new ServiceError(service, 'too_large', `${service} 返回的数据过大，已放弃`),
  network: (service: string, reason: string) => new ServiceError(service, 'network', `无法连接 ${service}：${reason}`),
  notJson: (service: string) => new ServiceError(service, 'malformed', `${service} 返回的数据不是有效的 JSON`),
  shape: (service: string) => new ServiceError(service, 'malformed', `${service} 返回的数据格式无法识别`),
  /** The service answered, and its answer says it failed (an error field, an error status in the body). */
  reported: (service: string, reason: string) => new ServiceError(service, 'reported', `${service} 报告错误：${reason.replace(/\s+/g, ' ').trim().slice(0, 200)}`),
  /** Every service of a kind failed (`what`: 联网搜索, 文献检索, 专利检索): each one's reason, in the order asked. */
  all: (what: string, failures: readonly ServiceError[]) => new ServiceError(what, 'all_failed', `${what}失败：${failures.map((f) => f.message).join('；')}`, failures),
};

/** A short reason from a service's error body: a message field of its JSON, else its plain text (not an HTML page). */
function detailOf(body: string): string {
  const text = body.trim();
  try {
    const json: unknown = JSON.parse(text);
    if (typeof json === 'string') return json.replace(/\s+/g, ' ').trim().slice(0, 200);
    if (json && typeof json === 'object') {
      for (const key of ['error', 'message', 'errMsg', 'ERROR', 'detail', 'error_message']) {
        let v = (json as Record<string, unknown>)[key];
        if (v && typeof v === 'object') v = (v as Record<string, unknown>).error ?? (v as Record<string, unknown>).message;
        if (typeof v === 'string' && v.trim()) return v.replace(/\s+/g, ' ').trim().slice(0, 200);
      }
    }
    return '';
  } catch {
    return /^</.test(text) ? '' : text.replace(/\s+/g, ' ').slice(0, 200);
  }
}

export interface ServiceCall {
  /** The service's name as the messages show it ("SearXNG", "PubMed"). */
  service: string;
  url: string | URL;
  method?: 'GET' | 'POST';
  /** Sent as JSON. */
  json?: unknown;
  headers?: Record<string, string>;
  /** What the response may be (default JSON). */
  accept?: string;
  signal: AbortSignal;
  timeoutMs: number;
  /** Bytes of the answer at most (default 8 MiB). */
  maxBytes?: number;
  /** Statuses that mean "nothing found" rather than an error (PubChem answers a miss with 404): the call gives undefined. */
  emptyOn?: readonly number[];
  /**
   * Whose address this is: a service the operator configured (the default: trusted like
   * LLM_BASE_URL, it may be on the intranet) or one from elsewhere (public addresses only).
   */
  policy?: OutboundPolicy;
  /** Tests: name resolution and address checks of the outbound client. */
  fetch?: Pick<SafeFetchOptions, 'resolve' | 'isAllowedAddress'>;
}

/**
 * One call of a service's API through the outbound client, no redirect followed: the body as
 * text, or undefined for an `emptyOn` status. Every failure (401/403, 429, 503, a redirect,
 * another non-2xx status, a timeout, a refused or failed connection, an answer too large) throws
 * a ServiceError naming the service. A stop through `signal` throws the signal's reason.
 */
export async function serviceText(call: ServiceCall): Promise<string | undefined> {
  const { service, method = 'GET', json, headers = {}, signal, timeoutMs, emptyOn = [] } = call;
  let res;
  try {
    res = await safeFetch(call.url, {
      policy: call.policy ?? 'operator',
      ...call.fetch,
      method,
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
      headers: { accept: call.accept ?? 'application/json', ...(json !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      maxRedirects: 0,
      maxBytes: call.maxBytes ?? 8 * 1024 * 1024,
      timeoutMs,
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : err;
    if (!(err instanceof SafeFetchError)) throw serviceFailed.network(service, err instanceof Error ? err.message : String(err));
    if (err.code === 'timeout') throw serviceFailed.timeout(service, timeoutMs);
    if (err.code === 'too_large') throw serviceFailed.tooLarge(service);
    if (err.code === 'too_many_redirects') throw serviceFailed.redirect(service);
    throw serviceFailed.network(service, err.message);
  }
  const status = res.status;
  if (emptyOn.includes(status)) return undefined;
  if (status === 401 || status === 403) throw serviceFailed.unauthorized(service, status, detailOf(res.text()));
  if (status === 429) throw serviceFailed.rateLimited(service);
  if (status === 503) throw serviceFailed.unavailable(service, status);
  if (status >= 300 && status < 400) throw serviceFailed.redirect(service, status);
  if (status < 200 || status >= 300) throw serviceFailed.http(service, status, detailOf(res.text()));
  return res.text();
}

/** serviceText, its answer parsed as JSON (an answer that is not JSON is the service's fault and says so). */
export async function serviceJson(call: ServiceCall): Promise<unknown> {
  const text = await serviceText(call);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw serviceFailed.notJson(call.service);
  }
}

/** A service's answer read with `schema`; a shape it does not have is the service's fault. */
export function serviceShape<T>(service: string, schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw serviceFailed.shape(service);
  return parsed.data;
}

/** One service of a failover list: its name and how to ask it. */
export interface Candidate<T> {
  service: string;
  ask(signal: AbortSignal): Promise<T>;
}

/**
 * The services asked in order until one answers (an empty answer is an answer); a failure moves
 * on to the next, and is told to `onFailure` (for the log). When all fail, one ServiceError naming
 * `what` and each service's reason. A stop through `signal` ends it at once.
 */
export async function failover<T>(what: string, candidates: readonly Candidate<T>[], signal: AbortSignal, onFailure?: (failure: ServiceError) => void): Promise<{ service: string; index: number; value: T }> {
  const failures: ServiceError[] = [];
  for (const [index, { service, ask }] of candidates.entries()) {
    if (signal.aborted) throw signal.reason;
    try {
      return { service, index, value: await ask(signal) };
    } catch (err) {
      if (signal.aborted) throw err;
      const failure = asServiceError(service, err);
      onFailure?.(failure);
      failures.push(failure);
    }
  }
  throw serviceFailed.all(what, failures);
}

/** An error of a service's adapter as a ServiceError (one that is not is said with its message). */
export const asServiceError = (service: string, err: unknown): ServiceError =>
  err instanceof ServiceError ? err : new ServiceError(service, 'reported', `${service} 出错：${err instanceof Error ? err.message : String(err)}`);
