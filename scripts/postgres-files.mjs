// Which server test files run a second time on PostgreSQL, derived, never listed
// by hand: every file under tests/server and tests/scripts whose imports reach the code that
// opens the database (src/server/db/database.ts), unless the file says why it cannot run there
// with a line `// postgres: sqlite-only — <reason>`, or says that it runs on PostgreSQL already in
// the SQLite suite (it starts its own server and compares, say) with `// postgres: itself — <reason>`
// — running it again would repeat the same work on the same server program. A file that does not reach the database
// cannot store anything, so running it again would test nothing new; each file left out is
// listed with its reason (`node scripts/postgres-files.mjs` prints them).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDurations } from './test-durations.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATABASE = path.join(ROOT, 'src/server/db/database.ts');
const TEST_DIRS = ['tests/server', 'tests/scripts'];

// Static imports, `export … from` and dynamic import(); `import type` / `export type` are left
// out (they vanish at run time and open nothing).
const IMPORT = /(?:^|[;\s])(?:import|export)\s+(type\s+)?(?:[^'";]*?\bfrom\s*)?['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
/** The marker of a file that must stay on SQLite or runs on PostgreSQL by itself, with its reason. */
const MARKER = /^\s*\/\/\s*postgres:\s*(sqlite-only|itself)\s*[—–-]\s*(.+)$/m;

export function resolveImport(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, base.replace(/\.(m?js)$/, '.ts'), `${base}.ts`, `${base}.tsx`, `${base}.mts`, path.join(base, 'index.ts')];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
}

/** The run-time relative imports of a source file, resolved to files. */
export function importsOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  const out = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[3] ?? m[2];
    if (!spec || m[1] || !spec.startsWith('.')) continue;
    const resolved = resolveImport(file, spec);
    if (resolved) out.push(resolved);
  }
  return out;
}

/**
 * A memoised test of whether a source file, or any file its run-time imports lead to, is a `hit`.
 * Only positive answers are kept: a negative one may be cut short by an import cycle.
 */
export function reachesAny(hit) {
  const known = new Set();
  const reaches = (file, seen = new Set()) => {
    if (known.has(file)) return true;
    if (seen.has(file)) return false;
    seen.add(file);
    const result = hit(file) || importsOf(file).some((f) => reaches(f, seen));
    if (result) known.add(file);
    return result;
  };
  return reaches;
}

/** Whether a source file's run-time imports lead to database.ts. */
const reachesDatabase = reachesAny((file) => file === DATABASE);

export function testFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(p));
    else if (entry.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** The server test files that run on PostgreSQL too, and those that do not with why (paths relative to the repository). */
export function postgresTestFiles() {
  const included = [];
  const excluded = [];
  const rel = (p) => path.relative(ROOT, p).split(path.sep).join('/');
  for (const file of TEST_DIRS.flatMap((d) => testFiles(path.join(ROOT, d))).sort()) {
    const marker = MARKER.exec(fs.readFileSync(file, 'utf8'));
    if (marker) excluded.push({ file: rel(file), reason: `${marker[1]}: ${marker[2].trim()}` });
    else if (!reachesDatabase(file)) excluded.push({ file: rel(file), reason: 'opens no database (its imports do not reach src/server/db/database.ts)' });
    else included.push(rel(file));
  }
  return { included, excluded };
}

// Of the files that reach the database, `npm test` runs on PostgreSQL only as many as it takes to
// send every SQL statement that all of them send there: the repeat of every such file took about
// 14 minutes on a 2-core machine, most of it parsing, OCR, docking and sandboxes whose storage is
// the same few statements many other files send. Which statements each file sends is recorded by
// a full traced run on PostgreSQL (`node scripts/postgres-files.mjs --record`: every statement's
// shape, how it ended — ok or its SQLSTATE — as a hash, per file; src/server/db/sql-trace.ts) in
// tests/postgres-statements.json. The choice is a weighted set cover: the file that sends the
// most statements not yet covered per second of its last duration on PostgreSQL
// (tests/durations.json), until every recorded statement is covered, then without the chosen
// files whose every statement other chosen files send too. A file with no record, or
// changed since it was recorded (its text's hash), always runs. CSAI_TEST_POSTGRES_FULL=1 runs
// them all (and `--record` does).
export const STATEMENTS_FILE = path.join(ROOT, 'tests/postgres-statements.json');
const TRACE_DIR = path.join(ROOT, '.tmp/sql-trace');

const textHash = (file) => createHash('sha1').update(fs.readFileSync(path.join(ROOT, file))).digest('hex').slice(0, 12);

function readRecord() {
  try {
    return JSON.parse(fs.readFileSync(STATEMENTS_FILE, 'utf8')).files ?? {};
  } catch {
    return {};
  }
}

/**
 * The files of `included` to run on PostgreSQL, and why each runs: it covers statements no cheaper
 * choice covered, it has no record, or it changed since recorded. `seconds` is each file's expected
 * duration there.
 */
export function coveringFiles(included, record, seconds, hashOf = textHash) {
  const chosen = new Map();
  const pool = [];
  for (const file of included) {
    const r = record[file];
    if (!r) chosen.set(file, 'no record of its statements');
    else if (r.sha !== hashOf(file)) chosen.set(file, 'changed since its statements were recorded');
    else pool.push({ file, statements: new Set(r.statements), cost: Math.max(1, seconds(file)) });
  }
  const covered = new Set([...chosen.keys()].flatMap((f) => record[f]?.statements ?? []));
  for (;;) {
    let best;
    let bestScore = 0;
    for (const c of pool) {
      if (chosen.has(c.file)) continue;
      let fresh = 0;
      for (const s of c.statements) if (!covered.has(s)) fresh++;
      const score = fresh / c.cost;
      if (fresh > 0 && (score > bestScore || (score === bestScore && c.file < best.file))) [best, bestScore] = [c, score];
    }
    if (!best) break;
    const fresh = [...best.statements].filter((s) => !covered.has(s));
    fresh.forEach((s) => covered.add(s));
    chosen.set(best.file, `${fresh.length} statement(s) no file chosen before sends`);
  }
  // A file chosen early whose statements the later choices all send after all is left out again,
  // the longest such first.
  const senders = new Map();
  for (const c of pool) if (chosen.has(c.file)) for (const st of c.statements) senders.set(st, (senders.get(st) ?? 0) + 1);
  for (const c of pool.filter((p) => chosen.has(p.file)).sort((a, b) => b.cost - a.cost)) {
    if (![...c.statements].every((st) => senders.get(st) > 1)) continue;
    chosen.delete(c.file);
    for (const st of c.statements) senders.set(st, senders.get(st) - 1);
  }
  return chosen;
}

/** The files `npm test` runs on PostgreSQL (all of `included` with CSAI_TEST_POSTGRES_FULL=1), with why. */
export function postgresSelection() {
  const { included } = postgresTestFiles();
  if (process.env.CSAI_TEST_POSTGRES_FULL === '1') return new Map(included.map((f) => [f, 'CSAI_TEST_POSTGRES_FULL=1']));
  const durations = readDurations();
  return coveringFiles(included, readRecord(), (f) => durations[`postgres:${f}`] ?? 5);
}

/**
 * Writes tests/postgres-statements.json from a traced run: the files that passed in its JSON
 * report, each with the statements of its trace file in TRACE_DIR (none if it sent none).
 */
function writeRecord(included, report) {
  const passed = new Set(JSON.parse(fs.readFileSync(report, 'utf8')).testResults
    .filter((t) => t.status === 'passed')
    .map((t) => path.relative(ROOT, t.name).split(path.sep).join('/')));
  const files = {};
  for (const file of included.filter((f) => passed.has(f))) {
    const trace = path.join(TRACE_DIR, `${file.replaceAll('/', '__')}.txt`);
    const lines = fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8').split('\n').filter(Boolean) : [];
    files[file] = { sha: textHash(file), statements: [...new Set(lines.map((l) => l.split('\t')[0]))].sort() };
  }
  const about = 'The SQL statements (hashes of their shapes; src/server/db/sql-trace.ts) each server test file sent on PostgreSQL in a full traced run; written by `node scripts/postgres-files.mjs --record`.';
  fs.writeFileSync(STATEMENTS_FILE, `${JSON.stringify({ about, files }, null, 0).replace(/,"(tests\/)/g, ',\n"$1')}\n`);
  return Object.keys(files).length;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { included, excluded } = postgresTestFiles();
  // --record: a full traced run, then the record; --write: the record from the last traced run's files.
  if (process.argv.includes('--record') || process.argv.includes('--write')) {
    const report = path.join(ROOT, '.artifacts/vitest-postgres.json');
    let status = 0;
    if (process.argv.includes('--record')) {
      fs.rmSync(TRACE_DIR, { recursive: true, force: true });
      fs.mkdirSync(TRACE_DIR, { recursive: true });
      const env = { ...process.env, CSAI_SQL_TRACE_DIR: TRACE_DIR, CSAI_TEST_POSTGRES_ALL: '1', CSAI_TEST_POSTGRES_FULL: '1' };
      const args = ['run', '--project', 'server-postgres*', '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`];
      status = spawnSync(path.join(ROOT, 'node_modules/.bin/vitest'), args, { cwd: ROOT, env, stdio: 'inherit' }).status ?? 1;
    }
    console.log(`recorded the statements of ${writeRecord(included, report)} of ${included.length} files in ${path.relative(ROOT, STATEMENTS_FILE)}`);
    process.exit(status);
  }
  const selected = postgresSelection();
  console.log(`On PostgreSQL too (${selected.size} of the ${included.length} that reach the database):\n${[...selected].map(([f, why]) => `  ${f} — ${why}`).join('\n')}`);
  console.log(`Reach the database, not repeated there (their statements are sent by the files above):\n${included.filter((f) => !selected.has(f)).map((f) => `  ${f}`).join('\n')}`);
  console.log(`SQLite only (${excluded.length}):\n${excluded.map((e) => `  ${e.file} — ${e.reason}`).join('\n')}`);
}
