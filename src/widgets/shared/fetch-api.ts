// Writes and binary reads for the elements, next to getJson (fetch-json.ts): POST with the CSRF
// headers the server wants (SPEC §7), and file bytes with the server's message on failure.
import { z } from 'zod';
import { failure, ok } from '../../contract/envelope';
import { csrfToken } from '../../core/csrf';
import { WidgetFetchError } from './fetch-json';

const envelope = ok(z.unknown());

const credentialsFor = (apiOrigin: string): RequestCredentials => (apiOrigin && new URL(apiOrigin, location.href).origin !== location.origin ? 'include' : 'same-origin');

async function send(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new WidgetFetchError('network_error', undefined, String(error));
  }
}

async function failed(res: Response, path: string): Promise<WidgetFetchError> {
  const body: unknown = await res.json().catch(() => undefined);
  const fail = failure.safeParse(body);
  return new WidgetFetchError(fail.success ? fail.data.code : 'unexpected_response', res.status, fail.success ? fail.data.message : `${path}: HTTP ${res.status}`);
}

/**
 * POST JSON to `{apiOrigin}{path}` and parse the success envelope's data with `schema`. Sends
 * X-Requested-With and X-CSRF-TOKEN ({@link csrfToken}: the cookie on the API's origin, the
 * server's answer on another). Throws {@link WidgetFetchError}.
 */
export async function postJson<T extends z.ZodType>(
  apiOrigin: string,
  path: string,
  body: unknown,
  schema: T,
  { signal }: { signal?: AbortSignal } = {},
): Promise<z.infer<T>> {
  const credentials = credentialsFor(apiOrigin);
  const token = await csrfToken(`${apiOrigin}/api/v1`);
  const res = await send(
    `${apiOrigin}${path}`,
    {
      method: 'POST',
      credentials,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest', 'X-CSRF-TOKEN': token },
      body: JSON.stringify(body),
    },
    signal,
  );
  if (!res.ok) throw await failed(res, path);
  const payload: unknown = await res.json().catch(() => undefined);
  const wrapped = envelope.safeParse(payload);
  const parsed = wrapped.success ? schema.safeParse(wrapped.data.data) : wrapped;
  if (!parsed.success) throw new WidgetFetchError('unexpected_response', res.status, `${path}: ${parsed.error.message}`);
  return parsed.data;
}

/** GET a file's bytes (a download route); the server's envelope message when it fails. */
export async function fetchBlob(apiOrigin: string, path: string, { signal }: { signal?: AbortSignal } = {}): Promise<Blob> {
  const res = await send(`${apiOrigin}${path}`, { credentials: credentialsFor(apiOrigin), headers: { 'X-Requested-With': 'XMLHttpRequest' } }, signal);
  if (!res.ok) throw await failed(res, path);
  return res.blob();
}
