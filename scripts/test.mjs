// `npm test`: every check in order, each counted, ending with "N passed, N failed".
// Suites: typecheck, lint, vitest (unit + server), browser (wtr), build, end-to-end (Playwright),
// and a subset of the server and end-to-end tests again on Node 22 (scripts/node22.mjs).
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromiumPath } from './chromium.mjs';

const bin = (name) => `node_modules/.bin/${name}`;
/** The output of the suite running in a parallel lane (see `run`). */
const buffered = new AsyncLocalStorage();
const only = process.argv.slice(2);
// The Debian packages the tools and the tests need (scripts/setup.mjs; idempotent).
await run(process.execPath, ['scripts/setup.mjs', '--test']);
// The real documents the parsing and retrieval tests read (from Debian packages; idempotent), fetched
// once here rather than inside a timed test by whichever test file starts first.
await run(process.execPath, ['scripts/fetch-test-docs.mjs']);
fs.rmSync('.artifacts', { recursive: true, force: true });
fs.mkdirSync('.artifacts', { recursive: true });

/**
 * Runs a command with its output on this process's or, inside a parallel lane (`buffered`), kept
 * and printed whole when the lane's suite ends, so two lanes' logs do not interleave.
 */
function run(cmd, args, env = {}) {
  const kept = buffered.getStore();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: kept ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
    if (kept) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => kept.push(chunk));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
const readJson = (file) => { try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return undefined; } };
const hasFiles = (dir, pattern) => {
  const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).some((e) =>
    e.isDirectory() ? walk(path.join(d, e.name)) : pattern.test(e.name));
  return fs.existsSync(dir) && walk(dir);
};

/**
 * The first lines of a failure message (colours and stack frames left out), indented under its
 * test's name; for a failed comparison, the lines of its diff that differ (a rare failure on a
 * loaded CI machine is then explained by the log's tail alone).
 */
const firstLines = (message) => {
  const lines = message.replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter((l) => l.trim() && !l.trim().startsWith('at '));
  const diff = lines.findIndex((l) => l.trim() === '- Expected');
  const head = (diff < 0 ? lines : lines.slice(0, diff)).slice(0, 4).map((l) => l.trim());
  const changed = diff < 0 ? [] : lines.slice(diff + 2).filter((l) => /^[-+] /.test(l)).slice(0, 16);
  if (changed.length) head.push('- expected  + received:', ...changed);
  return head.map((l) => `\n      ${l.slice(0, 300)}`).join('');
};

function vitestCount(file) {
  const r = readJson(file);
  if (!r) return undefined;
  // A file that failed without a failing test (it did not load) counts once.
  const broken = r.testResults.filter((f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed'));
  // With the first lines of why, so the tail of a CI log is enough to tell what went wrong.
  const names = r.testResults.flatMap((f) => f.assertionResults.filter((a) => a.status === 'failed')
    .map((a) => `${path.relative(process.cwd(), f.name)} › ${a.fullName}${firstLines((a.failureMessages ?? []).join('\n'))}`));
  names.push(...broken.map((f) => `${path.relative(process.cwd(), f.name)} (did not load: ${f.message.split('\n')[0]})`));
  return { passed: r.numPassedTests, failed: r.numFailedTests + broken.length, names };
}


const suites = [
  { name: 'typecheck', run: () => run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']) },
  // ESLint, then no import circle in the front end (`npm run lint:cycles`, dpdm).
  { name: 'lint', run: async () => (await run(bin('eslint'), ['.', '--max-warnings=0'])) || run('npm', ['run', '--silent', 'lint:cycles']) },
  {
    name: 'vitest',
    run: () => run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', '--outputFile.json=.artifacts/vitest.json']),
    count: () => vitestCount('.artifacts/vitest.json'),
  },
  {
    // Server test files again on a real PostgreSQL, as few as together send every SQL statement all
    // files that reach the database send there (scripts/postgres-files.mjs, from the record in
    // tests/postgres-statements.json): the project `server-postgres` of vitest.config.ts;
    // tests/server/postgres-global.ts starts the server, each test gets its own database.
    name: 'vitest-postgres',
    skip: () => !fs.existsSync('/usr/lib/postgresql/15/bin/pg_ctl'),
    run: () => run(bin('vitest'), ['run', '--project', 'server-postgres*', '--reporter=default', '--reporter=json', '--outputFile.json=.artifacts/vitest-postgres.json'], { CSAI_TEST_POSTGRES_ALL: '1' }),
    count: () => vitestCount('.artifacts/vitest-postgres.json'),
  },
  {
    name: 'browser',
    skip: () => !hasFiles('tests', /\.browser\.test\.tsx?$/),
    run: () => run(bin('web-test-runner'), []),
    count: () => readJson('.artifacts/wtr.json'),
  },
  { name: 'build', run: () => run('npm', ['run', 'build']) },
  {
    name: 'e2e',
    skip: () => !hasFiles('tests/e2e', /\.spec\.ts$/),
    run: () => run(bin('playwright'), ['test'], { E2E_DATA_DIR: `.tmp/e2e-${process.pid}` }),
    count: () => {
      const r = readJson('.artifacts/playwright.json');
      if (!r) return undefined;
      const names = [];
      const walk = (suite, prefix) => {
        for (const spec of suite.specs ?? []) {
          const bad = spec.tests.find((t) => t.status === 'unexpected');
          if (!bad) continue;
          names.push(`${spec.file}:${spec.line} › ${prefix}${spec.title}${firstLines(bad.results?.at(-1)?.error?.message ?? '')}`);
        }
        for (const s of suite.suites ?? []) walk(s, suite.title && !suite.file ? `${prefix}${suite.title} › ` : prefix);
      };
      for (const s of r.suites ?? []) walk(s, '');
      return { passed: r.stats.expected + (r.stats.flaky ?? 0), failed: r.stats.unexpected, names };
    },
  },
  {
    // A subset again on Node 22 LTS: a few server files and two end-to-end specs, with
    // Node 22 from the npm registry and better-sqlite3 built for it (scripts/node22.mjs; cached in .cache/node22).
    name: 'node22',
    skip: () => process.platform !== 'linux' || process.arch !== 'x64' || process.versions.node.startsWith('22.'),
    run: () => run(process.execPath, ['scripts/node22.mjs']),
    count: () => {
      const server = vitestCount('.artifacts/vitest-node22.json');
      const r = readJson('.artifacts/playwright-node22.json');
      if (!server) return undefined;
      const e2e = r ? { passed: r.stats.expected + (r.stats.flaky ?? 0), failed: r.stats.unexpected } : { passed: 0, failed: 0 };
      return { passed: server.passed + e2e.passed, failed: server.failed + e2e.failed, names: [...server.names, ...(e2e.failed ? ['end-to-end on Node 22 (see .artifacts/playwright-node22.json)'] : [])] };
    },
  },
];

if (suites.some((s) => ['browser', 'e2e', 'node22'].includes(s.name) && !s.skip?.())) {
  process.env.CHROMIUM_PATH = chromiumPath({ install: true });
}

/** Runs one suite; its counts and failures go to `results` under its name. */
async function runSuite(suite) {
  if (suite.skip?.()) { results.set(suite.name, { line: `${suite.name}: no tests`, passed: 0, failed: 0, names: [] }); return; }
  const started = Date.now();
  const code = await suite.run();
  const counted = suite.count?.();
  const p = counted ? counted.passed : code === 0 ? 1 : 0;
  let f = counted ? counted.failed : code === 0 ? 0 : 1;
  if (code !== 0 && f === 0) f = 1; // a crashed runner counts as a failure
  const names = (counted?.names ?? []).map((name) => `${suite.name}: ${name}`);
  if (f > 0 && !counted?.names?.length) names.push(`${suite.name}: exited with code ${code}`);
  results.set(suite.name, { line: `${suite.name}: ${p} passed, ${f} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`, passed: p, failed: f, names });
}

/** Runs suites one after another with their output kept, printing each whole when it ends. */
async function lane(steps) {
  for (const step of steps) {
    const kept = [];
    await buffered.run(kept, () => (typeof step === 'function' ? step() : runSuite(step)));
    console.log(`\n━━ ${typeof step === 'function' ? 'node22 (preparing Node 22)' : step.name} ━━`);
    process.stdout.write(Buffer.concat(kept.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))));
  }
}

const results = new Map();
const selected = suites.filter((s) => !only.length || only.includes(s.name));
const byName = (name) => selected.find((s) => s.name === name);
// The checks that use one core each (the type checker, ESLint) run beside the ones that build
// (the bundles; better-sqlite3 for Node 22, compiled on a fresh machine): two lanes for two cores.
// Everything after them runs one suite at a time (each spreads over the cores itself).
const first = [['typecheck', 'lint'], ['build']].map((names) => names.map(byName).filter(Boolean));
const node22 = byName('node22');
if (node22 && !node22.skip?.()) first[1].push(() => run(process.execPath, ['scripts/node22.mjs', '--prepare']));
if (first.flat().length) {
  console.log(`\n━━ ${first.map((l) => l.filter((s) => typeof s !== 'function').map((s) => s.name).join(', ')).filter(Boolean).join('  ‖  ')} ━━ (side by side; each printed when it ends)`);
  await Promise.all(first.map(lane));
}
// CSAI_TEST_LANES=1: then two lanes again, the server suites (SQLite, then PostgreSQL) beside the
// browser suites (wtr, Playwright, then the Node 22 subset), for a machine with cores to spare
// while the server suites wait on child processes, HTTP servers and PostgreSQL. Off by default
// until measured on a quiet 2-core machine: there both lanes look mostly CPU-bound (a server file
// that parses took 1–1.6 CPU-seconds per second of its duration, the first twelve end-to-end specs
// about 1.8, measured on a loaded machine), so side by side they would mostly share the cores, and
// an end-to-end page that waits over 10 s for the server fails. Otherwise one suite at a time, each
// spreading over the cores itself.
const rest = selected.filter((s) => !results.has(s.name));
const serverLane = rest.filter((s) => ['vitest', 'vitest-postgres'].includes(s.name));
const otherLane = rest.filter((s) => !serverLane.includes(s));
if (process.env.CSAI_TEST_LANES !== '1' || !serverLane.length || !otherLane.length) {
  for (const suite of rest) {
    console.log(`\n━━ ${suite.name} ━━`);
    await runSuite(suite);
  }
} else {
  console.log(`\n━━ ${serverLane.map((s) => s.name).join(', ')}  ‖  ${otherLane.map((s) => s.name).join(', ')} ━━ (side by side; each printed when it ends)`);
  await Promise.all([serverLane, otherLane].map(lane));
}

const ran = suites.filter((s) => results.has(s.name)).map((s) => results.get(s.name));
const passed = ran.reduce((n, r) => n + r.passed, 0);
const failed = ran.reduce((n, r) => n + r.failed, 0);
// Named again just above the totals, so the tail of a long log says what failed.
const failures = ran.flatMap((r) => r.names);
if (failures.length) console.log(`\nFailed:\n${failures.map((n) => `  ✗ ${n}`).join('\n')}`);
console.log(`\n${ran.map((r) => r.line).join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
