// Injected into every browser test bundle (web-test-runner.config.mjs).
//
// A failed assertion whose actual or expected value is a DOM node stalled @web/test-runner: it
// serialises both values for the diff, a node's object graph does not finish, and the file's
// session timed out minutes later with no message. Such values are reported as their markup.
afterEach(function (this: { currentTest?: { err?: unknown } }) {
  const err = this.currentTest?.err as { actual?: unknown; expected?: unknown } | undefined;
  if (!err) return;
  for (const key of ['actual', 'expected'] as const) {
    const value = err[key];
    if (value instanceof Node) err[key] = value instanceof Element ? value.outerHTML.slice(0, 500) : `${value.nodeName} ${String(value.textContent).slice(0, 200)}`;
  }
});
