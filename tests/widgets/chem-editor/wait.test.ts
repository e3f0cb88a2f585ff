// The SPEC §9 wait loop of the chemical editor.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WAIT_INTERVAL_MS, WAIT_MAX_TRIES, waitUntil } from '../../../src/widgets/chem-editor/wait';

describe('chemical editor wait loop', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('checks every 100 ms, up to 3000 times', () => {
    expect(WAIT_INTERVAL_MS).toBe(100);
    expect(WAIT_MAX_TRIES).toBe(3000);
  });

  it('resolves true on the check after the editor becomes ready', async () => {
    let ready = false;
    let checks = 0;
    const done = waitUntil(() => (checks++, ready));
    await vi.advanceTimersByTimeAsync(250);
    expect(checks).toBe(3); // now, 100 ms, 200 ms
    ready = true;
    await vi.advanceTimersByTimeAsync(100);
    await expect(done).resolves.toBe(true);
  });

  it('gives up after 3000 checks (300 s)', async () => {
    let checks = 0;
    const done = waitUntil(() => (checks++, false));
    await vi.advanceTimersByTimeAsync(3000 * 100 - 100);
    let settled = false;
    void done.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    await expect(done).resolves.toBe(false);
    expect(checks).toBe(3001); // the first check plus 3000 timed ones
  });

  it('stops when aborted', async () => {
    const abort = new AbortController();
    const done = waitUntil(() => false, { signal: abort.signal });
    abort.abort();
    await vi.advanceTimersByTimeAsync(100);
    await expect(done).resolves.toBe(false);
  });
});
