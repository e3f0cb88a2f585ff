import type { SafeFetchOptions } from '../../net/safe-fetch';
import { serviceJson, serviceText } from '../../net/service';
import type { LiteratureHit, LiteratureSource } from '../../../contract/literature';

export type { LiteratureHit } from '../../../contract/literature';

/** The display names of the services (the `site` of their hits and the names in messages). */
export const SOURCE_NAMES: Record<LiteratureSource, string> = { pubmed: 'PubMed', europepmc: 'Europe PMC', openalex: 'OpenAlex' };

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
 * the intranet), size and time are capped; a failure is a ServiceError naming the service.
 */
export async function getService(source: LiteratureSource, url: URL, accept: string, q: LiteratureQuery, options: AdapterOptions): Promise<string> {
  const call = { service: SOURCE_NAMES[source], url, accept, signal: q.signal, timeoutMs: options.timeoutMs ?? 15_000, ...(options.fetch ? { fetch: options.fetch } : {}) };
  return (await serviceText(call)) ?? '';
}

/** GETs a service's JSON answer (one that is not JSON is the service's fault and says so). */
export async function getServiceJson(source: LiteratureSource, url: URL, q: LiteratureQuery, options: AdapterOptions): Promise<unknown> {
  return serviceJson({ service: SOURCE_NAMES[source], url, signal: q.signal, timeoutMs: options.timeoutMs ?? 15_000, ...(options.fetch ? { fetch: options.fetch } : {}) });
}
