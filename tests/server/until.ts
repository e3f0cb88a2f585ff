/** Polls until the condition holds or the time is up. Real time, and a generous limit: a loaded CI
 *  machine is slow, while a passing check returns at once. The caller asserts afterwards. */
export async function until(condition: () => boolean, timeoutMs = 20_000) {
  for (const end = Date.now() + timeoutMs; !condition() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
}

/**
 * Polls an asynchronous check until it gives a value (anything but undefined) and returns it;
 * throws naming `what` when the time is up.
 */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 200): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
