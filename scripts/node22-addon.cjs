// Preloaded (NODE_OPTIONS=--require) when the tests run on a second Node version beside the one
// node_modules was installed with (scripts/node22.mjs): better-sqlite3's addon is then loaded from
// CSAI_ADDON_DIR, built for that version's ABI, instead of node_modules' own build. Every process
// the tests start (server, parse processes, workers) inherits NODE_OPTIONS and so does the same.
'use strict';
// A preload given by --require must be CommonJS to run before any module (workers included).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const path = require('node:path');

const dir = process.env.CSAI_ADDON_DIR;
if (dir) {
  const dlopen = process.dlopen;
  process.dlopen = function (module, filename, ...rest) {
    const parts = String(filename).split(path.sep);
    const swap = parts.at(-1) === 'better_sqlite3.node' && parts.includes('better-sqlite3');
    return dlopen.call(this, module, swap ? path.join(dir, 'better_sqlite3.node') : filename, ...rest);
  };
}
