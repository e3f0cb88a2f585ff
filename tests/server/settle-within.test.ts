import { describe, expect, it } from 'vitest';
import { settleWithin } from '../../src/server/settle-within';

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('settleWithin', () => {
  it('says in time for work that resolves or rejects before the limit, and leaves no timer behind', async () => {
    const before = timers();
    expect(await settleWithin(Promise.resolve('done'), 60_000)).toBe(true);
    expect(await settleWithin(Promise.reject(new Error('broke while stopping')), 60_000)).toBe(true);
    expect(await settleWithin(new Promise((resolve) => setTimeout(resolve, 20)), 60_000)).toBe(true);
    // The 60 s timers went with the waits, not 60 s later.
    expect(timers()).toBe(before);
  });

  it('gives up on work still running at the limit, and returns then', async () => {
    expect(await settleWithin(new Promise(() => {}), 50)).toBe(false);
  });
});
