// Which server test files run each in a fresh module graph and process (vitest.config.ts, projects
// `server-isolated` and `server-postgres-isolated`); the others share a worker's module graph
// (isolate: false), which saves importing the whole server again for every file. Derived, never
// listed by hand:
// - every file whose run-time imports load pdf.js into the test's own thread: pdf.js's legacy
//   build installs core-js polyfills in the thread that loads it (parsing/pdfjs.ts puts back the
//   engine's JSON and Array.push, but core-js's global state stays), so files run after it in the
//   same worker would no longer run on the built-ins the server runs on, and
//   tests/server/online/crawl.test.ts (no core-js in the server's thread) would fail there;
// - every file with a line `// vitest: isolate — <reason>`.
// `node scripts/isolated-files.mjs` prints them with their reasons.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reachesAny, testFiles } from './postgres-files.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TEST_DIRS = ['tests/server', 'tests/scripts'];
const PDFJS = /(?:^|[;\s])(?:import\s*(?:[^'";]*?\bfrom\s*)?|import\s*\(\s*)['"]pdfjs-dist[/'"]/m;
const PDFJS_LOADER = path.join(ROOT, 'src/server/parsing/pdfjs.ts');
const MARKER = /^\s*\/\/\s*vitest:\s*isolate\s*[—–-]\s*(.+)$/m;

/** Whether a source file's run-time imports load pdf.js into the importing thread. */
const loadsPdfjs = reachesAny((file) => file === PDFJS_LOADER || PDFJS.test(fs.readFileSync(file, 'utf8')));

/** The server test files that need a module graph of their own, with why (paths relative to the repository). */
export function isolatedTestFiles() {
  const rel = (p) => path.relative(ROOT, p).split(path.sep).join('/');
  const out = [];
  for (const file of TEST_DIRS.flatMap((d) => testFiles(path.join(ROOT, d))).sort()) {
    const marker = MARKER.exec(fs.readFileSync(file, 'utf8'));
    if (marker) out.push({ file: rel(file), reason: marker[1].trim() });
    else if (loadsPdfjs(file)) out.push({ file: rel(file), reason: 'loads pdf.js (and its core-js polyfills) into its own thread' });
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = isolatedTestFiles();
  console.log(`Each in a module graph of its own (${files.length}):\n${files.map((e) => `  ${e.file} — ${e.reason}`).join('\n')}`);
}
