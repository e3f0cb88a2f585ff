import { serviceJson } from '../../net/service';

/** Longest answer read from a patent service. */
const MAX_BYTES = 4 * 1024 * 1024;
/** Longest one request may take. */
export const PATENT_REQUEST_TIMEOUT_MS = 20_000;

export interface JsonRequest {
  method?: 'GET' | 'POST';
  body?: unknown;
  signal: AbortSignal;
  /** Statuses that mean “nothing found” rather than an error (PubChem answers a miss with 404). */
  emptyOn?: number[];
}

/**
 * One JSON request to a patent service the operator configured (it may be a mirror on the
 * intranet): a failure is a ServiceError naming `site`; `emptyOn` statuses give `undefined`.
 */
export function requestJson(site: string, url: string, { method = 'GET', body, signal, emptyOn = [] }: JsonRequest): Promise<unknown> {
  return serviceJson({ service: site, url, method, json: body, signal, emptyOn, timeoutMs: PATENT_REQUEST_TIMEOUT_MS, maxBytes: MAX_BYTES });
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
