// Shared by the browser tests of src/core and src/host: mocha's globals as @web/test-runner
// provides them, typed, chai's expect, and the fetch stand-in (../fake-fetch.ts).
export { expect } from 'chai';
export { fakeFetch, jsonResponse, realFetch, restoreFetch, type FetchCall, type FetchHandler } from '../fake-fetch';

type Done = () => void | Promise<void>;
declare global {
  function describe(name: string, fn: () => void): void;
  function it(name: string, fn: Done): void;
  function beforeEach(fn: Done): void;
  function afterEach(fn: Done): void;
  function before(fn: Done): void;
  function after(fn: Done): void;
}

/** Waits for the next animation frame (React renders asynchronously). */
export const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

/** Polls until the check passes or `timeoutMs` (3 s unless said) pass (no fixed sleeps). */
export async function waitFor<T>(check: () => T | undefined | null | false, what = 'condition', timeoutMs = 3000): Promise<T> {
  const started = performance.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await nextFrame();
  }
}
