// Shared by the browser tests of src/core and src/host: mocha's globals as @web/test-runner
// provides them, typed, and chai's expect.
export { expect } from 'chai';

type Done = () => void | Promise<void>;
declare global {
  function describe(name: string, fn: () => void): void;
  function it(name: string, fn: Done): void;
  function beforeEach(fn: Done): void;
  function afterEach(fn: Done): void;
  function before(fn: Done): void;
  function after(fn: Done): void;
}

/** A fake fetch that records each request and answers from a handler. */
export function fakeFetch(handler: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit; headers: Headers }[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    calls.push({ url, init, headers: new Headers(init.headers) });
    return handler(url, init);
  };
  return { fetch, calls };
}

/** A JSON response with the given status. */
export const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** Waits for the next animation frame (React renders asynchronously). */
export const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

/** Polls until the check passes or 3 s pass (no fixed sleeps). */
export async function waitFor<T>(check: () => T | undefined | null | false, what = 'condition'): Promise<T> {
  const started = performance.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (performance.now() - started > 3000) throw new Error(`timed out waiting for ${what}`);
    await nextFrame();
  }
}
