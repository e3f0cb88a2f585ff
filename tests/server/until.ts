/** Polls until the condition holds or the time is up. Real time, and a generous limit: a loaded CI
 *  machine is slow, while a passing check returns at once. The caller asserts afterwards. */
export async function until(condition: () => boolean, timeoutMs = 20_000) {
  for (const end = Date.now() + timeoutMs; !condition() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
}
