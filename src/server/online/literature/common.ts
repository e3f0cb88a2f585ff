import { safeFetch, SafeFetchError, type SafeFetchOptions } from '../../net/safe-fetch';
import type { LiteratureHit, LiteratureSource } from '../../../contract/literature';

export type { LiteratureHit } from '../../../contract/literature';

/** The display names of the services (the `site` of their hits and the names in messages). */
export const SOURCE_NAMES: Record<LiteratureSource, string> = { pubmed: 'PubMed', europepmc: 'Europe PMC', openalex: 'OpenAlex' };

/** A service that failed (an error status, 429, a timeout, an answer of the wrong shape): the next one is asked. */
export class LiteratureServiceError extends Error {
  constructor(
    readonly source: LiteratureSource,
    message: string,
  ) {
    super(message);
    this.name = 'LiteratureServiceError';
  }
}

/** What an adapter is asked. */
export interface LiteratureQuery {
  query: string;
  limit: number;
  signal: AbortSignal;
}

export type LiteratureAdapter = (q: LiteratureQuery) => Promise<LiteratureHit[]>;

/** Options every adapter takes; `fetch` lets tests resolve the services' names. */
export interface AdapterOptions {
  timeoutMs?: number;
  fetch?: Pick<SafeFetchOptions, 'resolve' | 'isAllowedAddress'>;
}

const SNIPPET_CHARS = 300;

/** The first sentences of an abstract as a plain-text snippet. */
export function snippetOf(abstract: string | null, fallback: string): string {
  const text = (abstract ?? '').replace(/\s+/g, ' ').trim() || fallback;
  return text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS - 1)}…` : text;
}

/** A DOI without its resolver prefix ("https://doi.org/10.1/x" → "10.1/x"), or null. */
export function bareDoi(doi: string | null | undefined): string | null {
  const d = (doi ?? '').trim().replace(/^https?:\/\/(dx\.)?doi\.org\//i, '').replace(/^doi:\s*/i, '');
  return /^10\.\d{4,9}\/\S+$/.test(d) ? d : null;
}

/** Keeps only http(s) links: a service's answer is data, never a way to smuggle another scheme in. */
export function httpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/**
 * GETs a service URL: the operator's configured service is trusted like LLM_BASE_URL (it may be on
 * the intranet), so any address is allowed; size and time are capped. Non-2xx statuses and 429
 * become a LiteratureServiceError with a Chinese reason.
 */
export async function getService(source: LiteratureSource, url: URL, accept: string, q: LiteratureQuery, options: AdapterOptions): Promise<string> {
  const name = SOURCE_NAMES[source];
  let res;
  try {
    res = await safeFetch(url, {
      isAllowedAddress: () => true,
      ...options.fetch,
      timeoutMs: options.timeoutMs ?? 15_000,
      maxBytes: 8 * 1024 * 1024,
      signal: q.signal,
      headers: { accept },
    });
  } catch (err) {
    if (err instanceof SafeFetchError) {
      const why = err.code === 'timeout' ? '请求超时' : err.code === 'too_large' ? '返回内容过大' : err.message;
      throw new LiteratureServiceError(source, `${name} ${why}`);
    }
    throw err;
  }
  if (res.status === 429) throw new LiteratureServiceError(source, `${name} 请求过于频繁（429），请稍后再试`);
  if (res.status < 200 || res.status >= 300) throw new LiteratureServiceError(source, `${name} 返回错误状态 ${res.status}${serviceMessage(res.text())}`);
  return res.text();
}

/** A short reason from a service's error body, when it has one in a field we know. */
function serviceMessage(body: string): string {
  try {
    const json: unknown = JSON.parse(body);
    if (json && typeof json === 'object') {
      for (const key of ['error', 'message', 'errMsg', 'ERROR']) {
        const v = (json as Record<string, unknown>)[key];
        if (typeof v === 'string' && v.trim()) return `：${v.trim().slice(0, 200)}`;
      }
    }
  } catch {
    // not JSON: no reason given
  }
  return '';
}

/** Parses a JSON answer or fails as the service's fault. */
export function parseJson(source: LiteratureSource, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new LiteratureServiceError(source, `${SOURCE_NAMES[source]} 返回的内容不是有效的 JSON`);
  }
}
