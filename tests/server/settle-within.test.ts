import { afterEach, describe, expect, it, vi } from 'vitest';
import { settleWithin } from '../../src/server/settle-within';

describe('settleWithin', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says in time for work that resolves or rejects before the limit, and leaves no timer behind', async () => {
    // Each 60 s timer the waits set, and whether it was cleared. (Counting the process's timers
    // instead is at the mercy of the test runner's own, which come and go meanwhile.)
    const set = new Set<unknown>();
    const cleared = new Set<unknown>();
    const realSet = globalThis.setTimeout;
    const realClear = globalThis.clearTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
      const t = realSet(fn, ms);
      if (ms === 60_000) set.add(t);
      return t;
    }) as typeof setTimeout);
    vi.spyOn(globalThis, 'clearTimeout').mockImplementation(((t?: NodeJS.Timeout) => {
      cleared.add(t);
      realClear(t);
    }) as typeof clearTimeout);
    expect(await settleWithin(Promise.resolve('done'), 60_000)).toBe(true);
    expect(await settleWithin(Promise.reject(new Error('broke while stopping')), 60_000)).toBe(true);
    expect(await settleWithin(new Promise((resolve) => realSet(resolve, 20)), 60_000)).toBe(true);
    // The 60 s timers went with the waits, not 60 s later.
    expect(set.size).toBe(3);
    expect([...set].filter((t) => !cleared.has(t))).toEqual([]);
  });

  it('gives up on work still running at the limit, and returns then', async () => {
    expect(await settleWithin(new Promise(() => {}), 50)).toBe(false);
  });
});
