import { z } from 'zod';
import { failure, ok } from '../../contract/envelope';

const envelope = ok(z.unknown());

/** A failed call, with the server's envelope code when there was one. */
export class WidgetFetchError extends Error {
  constructor(
    readonly code: 'network_error' | 'unexpected_response' | string,
    readonly status: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'WidgetFetchError';
  }
}

/**
 * GET `{apiOrigin}{path}` and parse the success envelope's data with `schema`. Cookies go along
 * only to the same origin unless `credentials` says otherwise (cross-origin needs the server's
 * CORS allow-list). Throws {@link WidgetFetchError}; an abort rejects with the AbortError as is.
 */
export async function getJson<T extends z.ZodType>(
  apiOrigin: string,
  path: string,
  schema: T,
  { signal, credentials = 'same-origin' }: { signal?: AbortSignal; credentials?: RequestCredentials } = {},
): Promise<z.infer<T>> {
  let res: Response;
  try {
    res = await fetch(`${apiOrigin}${path}`, { signal, credentials, headers: { Accept: 'application/json' } });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new WidgetFetchError('network_error', undefined, String(error));
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new WidgetFetchError('unexpected_response', res.status, `${path}: not JSON`);
  }
  if (!res.ok) {
    const fail = failure.safeParse(body);
    throw new WidgetFetchError(fail.success ? fail.data.code : 'unexpected_response', res.status, fail.success ? fail.data.message : `${path}: HTTP ${res.status}`);
  }
  const wrapped = envelope.safeParse(body);
  const parsed = wrapped.success ? schema.safeParse(wrapped.data.data) : wrapped;
  if (!parsed.success) throw new WidgetFetchError('unexpected_response', res.status, `${path}: ${parsed.error.message}`);
  return parsed.data;
}
