// A fetch made with XMLHttpRequest, for the one thing fetch cannot do: report upload progress.
// The API client sends an upload with `onProgress` through it instead of fetch, so the
// upload goes through the same headers, envelope parsing and SPEC §8 mapping as every call.
// Loaded with the first such upload, not with the page.

/** What {@link xhrFetch} adds to fetch: the bytes of the body sent so far. */
export type ProgressListener = (loaded: number, total: number) => void;

/**
 * Returns a fetch-compatible function that sends with XHR and reports upload progress. Cookies
 * go along when `init.credentials` is `include` (another origin) or the request is same-origin.
 * A network failure rejects with a TypeError and an abort with an AbortError, as fetch does.
 */
export function xhrFetch(onProgress: ProgressListener) {
  return (url: string, init: RequestInit = {}): Promise<Response> =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', url);
      xhr.withCredentials = init.credentials === 'include';
      const headers = init.headers ?? {};
      const pairs = headers instanceof Headers ? [...headers.entries()] : Array.isArray(headers) ? headers : Object.entries(headers);
      for (const [name, value] of pairs) if (name && value !== undefined) xhr.setRequestHeader(name, value);
      xhr.upload.addEventListener('progress', (e) => {
        if (e.lengthComputable) onProgress(e.loaded, e.total);
      });
      xhr.addEventListener('load', () => {
        const answer = new Headers();
        for (const line of xhr.getAllResponseHeaders().trim().split(/[\r\n]+/)) {
          const colon = line.indexOf(':');
          if (colon > 0) answer.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
        }
        // A status 0 after load is not an answer (e.g. blocked by CORS).
        if (xhr.status === 0) reject(new TypeError('Network request failed'));
        // Upload answers are JSON envelopes: the text is all the client reads.
        else resolve(new Response(xhr.responseText, { status: xhr.status, headers: answer }));
      });
      xhr.addEventListener('error', () => reject(new TypeError('Network request failed')));
      xhr.addEventListener('abort', () => reject(new DOMException('The upload was aborted.', 'AbortError')));
      const signal = init.signal;
      if (signal?.aborted) {
        reject(new DOMException('The upload was aborted.', 'AbortError'));
        return;
      }
      signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(init.body instanceof FormData || typeof init.body === 'string' || init.body instanceof Blob ? init.body : null);
    });
}
