// Writes tests/durations.json — how long each vitest file took, in seconds, per database engine —
// from the reports of a full `npm test` (.artifacts/vitest.json, .artifacts/vitest-postgres.json;
// or the reports given as arguments: a CI run's). tests/sequencer.ts starts the longest first.
// Run: node scripts/test-durations.mjs [vitest.json vitest-postgres.json]
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [sqlite = '.artifacts/vitest.json', postgres = '.artifacts/vitest-postgres.json'] = process.argv.slice(2);
const durations = {};
for (const [engine, file] of [['sqlite', sqlite], ['postgres', postgres]]) {
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const reportRoot = commonRoot(report.testResults.map((t) => t.name));
  durations[engine] = Object.fromEntries(
    report.testResults
      .map((t) => [path.relative(reportRoot, t.name), Math.round((t.endTime - t.startTime) / 100) / 10])
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}
fs.writeFileSync(path.join(root, 'tests/durations.json'), JSON.stringify(durations, null, 1) + '\n');

/** The checkout a report was made in: the folder above its files' `tests/`. */
function commonRoot(names) {
  const first = names.find((n) => n.includes('/tests/'));
  return first ? first.slice(0, first.lastIndexOf('/tests/')) : root;
}
