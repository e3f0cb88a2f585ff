// Which server test files run a second time on PostgreSQL, derived, never listed
// by hand: every file under tests/server and tests/scripts whose imports reach the code that
// opens the database (src/server/db/database.ts), unless the file says why it cannot run there
// with a line `// postgres: sqlite-only — <reason>`, or says that it runs on PostgreSQL already in
// the SQLite suite (it starts its own server and compares, say) with `// postgres: itself — <reason>`
// — running it again would repeat the same work on the same server program. A file that does not reach the database
// cannot store anything, so running it again would test nothing new; each file left out is
// listed with its reason (`node scripts/postgres-files.mjs` prints them).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { included, excluded } = postgresTestFiles();
  console.log(`On PostgreSQL too (${included.length}):\n${included.map((f) => `  ${f}`).join('\n')}`);
  console.log(`SQLite only (${excluded.length}):\n${excluded.map((e) => `  ${e.file} — ${e.reason}`).join('\n')}`);
}
