// How long each vitest file took in the last full run, for the order the files start in
// (scripts/vitest-sequencer.mjs: the longest first, so no long file starts last and runs alone
// while the other workers are done). `node scripts/test-durations.mjs` rewrites
// tests/durations.json from .artifacts/vitest.json and .artifacts/vitest-postgres.json (written
// by `npm test`); run it after a full run when files were added or got much faster or slower.
// A stale or missing entry only changes the order, never what runs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DURATIONS_FILE = path.join(ROOT, 'tests/durations.json');

/** Seconds per file of one run's JSON report, keyed `${engine}:${path}` (engine sqlite or postgres). */
function fromReport(file, engine) {
  if (!fs.existsSync(file)) return {};
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const out = {};
  for (const t of report.testResults) {
    // The path from tests/ on (a report written in another checkout names its own folder).
    const name = t.name.split(path.sep).join('/');
    const rel = name.slice(name.lastIndexOf('/tests/') + 1);
    out[`${engine}:${rel}`] = Math.max(0, Math.round((t.endTime - t.startTime) / 100) / 10);
  }
  return out;
}

/** The committed durations (seconds by `${engine}:${path}`), or none. */
export function readDurations() {
  try {
    return JSON.parse(fs.readFileSync(DURATIONS_FILE, 'utf8'));
  } catch {
    return {};
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const durations = {
    ...readDurations(),
    ...fromReport(path.join(ROOT, '.artifacts/vitest.json'), 'sqlite'),
    ...fromReport(path.join(ROOT, '.artifacts/vitest-postgres.json'), 'postgres'),
  };
  const sorted = Object.fromEntries(Object.entries(durations).filter(([k]) => fs.existsSync(path.join(ROOT, k.slice(k.indexOf(':') + 1)))).sort(([a], [b]) => (a < b ? -1 : 1)));
  fs.writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 1)}\n`);
  console.log(`${Object.keys(sorted).length} files' durations in ${path.relative(ROOT, DURATIONS_FILE)}`);
}
