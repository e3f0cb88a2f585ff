import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// tests/security/README.md names one test per vulnerability class; this keeps every name true.
const ROOT = path.resolve(__dirname, '../..');
const table = fs.readFileSync(path.join(ROOT, 'tests/security/README.md'), 'utf8');

/** The rows of the table: class, test file and test title (the last two in backticks). */
const rows = table
  .split('\n')
  .filter((line) => /^\|\s*\d+\s*\|/.test(line))
  .map((line) => {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    const code = (cell: string | undefined) => /^`(.+)`$/.exec(cell ?? '')?.[1];
    return { line, what: cells[1] ?? '', file: code(cells[3]), title: code(cells[4]) };
  });

/** The titles of every `it(...)`/`test(...)` in a source file (their first string argument, unescaped). */
function testTitles(source: string): string[] {
  const titles: string[] = [];
  const call = /\b(?:it|test)(?:\.\w+)?\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
  for (const m of source.matchAll(call)) titles.push(m[2]!.replace(/\\(.)/g, '$1'));
  return titles;
}

describe('tests/security/README.md', () => {
  it('lists at least 20 vulnerability classes, each with a test file and a title', () => {
    expect(rows.length).toBeGreaterThanOrEqual(20);
    for (const row of rows) {
      expect(row.file, row.line).toBeTruthy();
      expect(row.title, row.line).toBeTruthy();
    }
    expect(new Set(rows.map((r) => r.what)).size).toBe(rows.length);
  });

  it('names only tests that exist: each file is there and holds a test with that exact title', () => {
    const missing: string[] = [];
    for (const row of rows) {
      const file = path.join(ROOT, row.file!);
      if (!fs.existsSync(file)) {
        missing.push(`${row.what}: no file ${row.file}`);
        continue;
      }
      if (!testTitles(fs.readFileSync(file, 'utf8')).includes(row.title!)) missing.push(`${row.what}: no test “${row.title}” in ${row.file}`);
    }
    expect(missing).toEqual([]);
  });
});
