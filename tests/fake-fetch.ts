// The tests' one fetch stand-in, for the browser tests (tests/core/harness.ts re-exports it) and
// the unit tests under vitest alike: nothing here needs more than fetch, Request and Response.

export interface FetchCall {
  /** The URL as the page passed it. */
  url: string;
  /** Upper case; GET when the request named none. */
  method: string;
  init: RequestInit;
  headers: Headers;
}
/**
 * Answers one request. `real` is the fetch the fake replaced, for a request the test lets through
 * (the page's own files, a real PDF from the test documents).
 */
export type FetchHandler = (url: string, init: RequestInit, real: typeof fetch) => Response | Promise<Response>;

/** The fetch the page (or the test environment) came with. */
const pageFetch = globalThis.fetch;
/** The page's own fetch, whatever fakes are installed: for the test's real files (documents, fixtures). */
export const realFetch: typeof fetch = (input, init) => pageFetch.call(globalThis, input, init);

/**
 * The tests' one fetch stand-in: replaces the global fetch (until `restore()`), records
 * each request (URL, init, headers) and answers from the handler. The returned `fetch` is the same
 * function, for code that takes its fetch as an argument.
 */
export function fakeFetch(handler: FetchHandler) {
  const replaced = globalThis.fetch;
  const real: typeof fetch = (input, init) => replaced.call(globalThis, input, init);
  const calls: FetchCall[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const sent: RequestInit = input instanceof Request ? { method: input.method, headers: input.headers, signal: input.signal, ...init } : init;
    calls.push({ url, method: (sent.method ?? 'GET').toUpperCase(), init: sent, headers: new Headers(sent.headers) });
    return handler(url, sent, real);
  };
  globalThis.fetch = fetch;
  return {
    fetch,
    calls,
    /** The URLs asked for, in order. */
    urls: () => calls.map((c) => c.url),
    /** Puts back the fetch this fake replaced. */
    restore: () => void (globalThis.fetch = replaced),
  };
}

/** Puts back the page's own fetch, whatever fakes were installed since. */
export function restoreFetch() {
  globalThis.fetch = pageFetch;
}

/** A JSON response with the given status. */
export const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
