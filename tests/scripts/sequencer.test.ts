import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification } from 'vitest/node';
import LongestFirst from '../sequencer';
import durations from '../durations.json';

const root = path.resolve(import.meta.dirname, '../..');
const spec = (project: string, file: string, opts: { isolate?: boolean; groupOrder?: number } = {}) =>
  ({ project: { name: project, config: { isolate: opts.isolate ?? false, sequence: { groupOrder: opts.groupOrder ?? 0 } } }, moduleId: path.join(root, file) }) as unknown as TestSpecification;
const order = async (specs: TestSpecification[]) =>
  (await new LongestFirst({ config: { root } } as never).sort(specs)).map((s) => `${s.project.name} ${path.relative(root, s.moduleId)}`);

describe('the test file order', () => {
  it('starts fresh-process projects, then shared-module ones, then unit; the files that run alone last', async () => {
    expect(
      await order([
        spec('unit', 'tests/core/csrf.test.ts', { isolate: true }),
        spec('server-alone', 'tests/server/parse-memory.test.ts', { isolate: true, groupOrder: 1 }),
        spec('server', 'tests/server/auth.test.ts'),
        spec('server-isolated', 'tests/server/pdfjs-builtins.test.ts', { isolate: true }),
      ]),
    ).toEqual(['server-isolated tests/server/pdfjs-builtins.test.ts', 'server tests/server/auth.test.ts', 'unit tests/core/csrf.test.ts', 'server-alone tests/server/parse-memory.test.ts']);
  });

  it('runs a project’s files longest first by the durations of its engine, files with none before them', async () => {
    const sqlite = durations.sqlite as Record<string, number>;
    const known = ['tests/server/auth.test.ts', 'tests/server/mol.test.ts', 'tests/server/knowledge.test.ts'];
    const byLength = [...known].sort((a, b) => sqlite[b]! - sqlite[a]!);
    expect(await order([...known, 'tests/server/not-measured-yet.test.ts'].map((f) => spec('server', f)))).toEqual(['server tests/server/not-measured-yet.test.ts', ...byLength.map((f) => `server ${f}`)]);
    // The PostgreSQL projects read the PostgreSQL figures: two files whose order differs by engine.
    const pg = durations.postgres as Record<string, number>;
    const [docking, fuzz] = ['tests/server/docking.test.ts', 'tests/server/security/fuzz.test.ts'];
    expect(Math.sign(sqlite[docking]! - sqlite[fuzz]!)).not.toBe(Math.sign(pg[docking]! - pg[fuzz]!));
    const first = (engineFigures: Record<string, number>) => (engineFigures[docking]! > engineFigures[fuzz]! ? docking : fuzz);
    expect((await order([spec('server', fuzz), spec('server', docking)]))[0]).toBe(`server ${first(sqlite)}`);
    expect((await order([spec('server-postgres', docking), spec('server-postgres', fuzz)]))[0]).toBe(`server-postgres ${first(pg)}`);
  });
});
