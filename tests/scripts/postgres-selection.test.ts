import { describe, expect, it } from 'vitest';
import { coveringFiles } from '../../scripts/postgres-files.mjs';
import { statementShape } from '../../src/server/db/sql-trace';

// Which server test files npm test runs again on PostgreSQL: as few (by their duration there) as
// send every statement the whole suite sends there (scripts/postgres-files.mjs).

describe('the statements a file sends', () => {
  it('are the same statement whatever the values, the length of a list or the number of rows', () => {
    const one = statementShape('insert into "t" ("a", "b") values ($1, $2)');
    expect(statementShape('insert into "t" ("a", "b") values ($1, $2), ($3, $4), ($5, $6)')).toBe(one);
    expect(statementShape('select * from "t" where "id" in ($1, $2, $3)')).toBe(statementShape('select * from "t" where "id" in ($7)'));
    expect(statementShape('select *\n  from "t"   where "id" = $1')).toBe('select * from "t" where "id" = ?…');
    // A question's words, each a term of its own: one word or five is the same full-text query.
    const words = (n: number) => Array.from({ length: n }, (_, i) => `phraseto_tsquery('simple', $${i + 1})`).join(' || ');
    expect(statementShape(`select id from c where fts @@ (${words(5)}) limit 40`)).toBe(statementShape(`select id from c where fts @@ (${words(1)}) limit 8`));
  });

  it('differ when the query does', () => {
    expect(statementShape('select "a" from "t" where "id" = $1')).not.toBe(statementShape('select "b" from "t" where "id" = $1'));
    expect(statementShape('select "a" from "t" where "id" = $1')).not.toBe(statementShape('select "a" from "t" where "id" = $1 for update skip locked'));
  });
});

describe('the files chosen to run on PostgreSQL', () => {
  const same = (file: string) => `sha-${file}`;
  const record = (files: Record<string, string[]>) => Object.fromEntries(Object.entries(files).map(([f, statements]) => [f, { sha: same(f), statements }]));

  it('cover every recorded statement, preferring what sends more of them per second', () => {
    const rec = record({ 'a.test.ts': ['s1', 's2'], 'b.test.ts': ['s1', 's2', 's3'], 'c.test.ts': ['s3'], 'd.test.ts': ['s4'] });
    const seconds: Record<string, number> = { 'a.test.ts': 2, 'b.test.ts': 60, 'c.test.ts': 2, 'd.test.ts': 30 };
    const chosen = coveringFiles(Object.keys(rec), rec, (f) => seconds[f]!, same);
    // b sends everything a and c send, but takes 60 s against their 4; d alone sends s4.
    expect([...chosen.keys()].sort()).toEqual(['a.test.ts', 'c.test.ts', 'd.test.ts']);
    expect(chosen.get('d.test.ts')).toMatch(/^1 statement/);
  });

  it('leave out a file whose every statement another chosen file sends', () => {
    const rec = record({ 'long.test.ts': ['s1'], 'short.test.ts': ['s1', 's2'] });
    const chosen = coveringFiles(Object.keys(rec), rec, (f) => (f === 'long.test.ts' ? 100 : 5), same);
    expect([...chosen.keys()]).toEqual(['short.test.ts']);
  });

  it('drop a file chosen early once the files chosen after it send all it sends', () => {
    // Per second, big sends most (4 against 3) and is chosen first; x and y are needed for s5 and
    // s6 anyway, and between them send s1–s4 too.
    const rec = record({ 'big.test.ts': ['s1', 's2', 's3', 's4'], 'x.test.ts': ['s1', 's2', 's5'], 'y.test.ts': ['s3', 's4', 's6'] });
    const seconds: Record<string, number> = { 'big.test.ts': 1, 'x.test.ts': 1, 'y.test.ts': 1 };
    expect([...coveringFiles(Object.keys(rec), rec, (f) => seconds[f]!, same).keys()].sort()).toEqual(['x.test.ts', 'y.test.ts']);
  });

  it('always include a file with no record, or changed since it was recorded', () => {
    const rec = record({ 'a.test.ts': ['s1'], 'b.test.ts': ['s1'] });
    const changed = (f: string) => (f === 'b.test.ts' ? 'new text' : same(f));
    const chosen = coveringFiles(['a.test.ts', 'b.test.ts', 'new.test.ts'], rec, () => 5, changed);
    expect(chosen.get('new.test.ts')).toMatch(/no record/);
    expect(chosen.get('b.test.ts')).toMatch(/changed/);
    // b (changed, so run anyway) already sends s1: a adds nothing.
    expect(chosen.has('a.test.ts')).toBe(false);
  });
});
