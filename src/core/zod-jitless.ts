// The browser bundles resolve 'zod' to this module (vite.config.ts, web-test-runner.config.mjs).
// When zod builds an object schema it probes whether `new Function` works, to compile a faster
// parser; on a page whose Content-Security-Policy has no 'unsafe-eval' (the site's own, or a
// portal embedding the elements) the browser reports that probe as a policy violation. jitless
// parsing is set before any schema is built: this module's body runs before its importers'.
import { config } from 'zod/v4/core';

config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';
