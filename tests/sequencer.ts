import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order vitest starts test files in (vitest.config.ts `sequence.sequencer`): longest first, so
 * that the run does not end with one long file running while the other workers sit idle.
 *
 * vitest's own order runs the projects one after another by name (`server`, then
 * `server-isolated`, then `unit`) and, without its cache (a fresh clone on CI), larger files first.
 * On CI that left the isolated project's longest file (over a minute) starting near the end.
 * Here the projects whose files each get a fresh process come first (their workers cannot be
 * reused anyway), then the projects that share a worker's modules between files (kept together so
 * a worker passes from one file to the next of its project), then the browser-code unit project;
 * within a project, files no duration is known for first (they may be new and long), then by the
 * duration measured on CI, per database engine (tests/durations.json, refreshed by
 * scripts/test-durations.mjs from a full run's reports), longest first. The `sequence.groupOrder` of a project (the files that run alone)
 * still comes before all of this.
 */
export default class LongestFirst extends BaseSequencer {
  private durations: Record<string, Record<string, number>> = (() => {
    try {
      return JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'durations.json'), 'utf8')) as Record<string, Record<string, number>>;
    } catch {
      return {};
    }
  })();

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const kind = (s: TestSpecification) => (s.project.name === 'unit' ? 2 : s.project.config.isolate ? 0 : 1);
    const engine = (s: TestSpecification) => (s.project.name.startsWith('server-postgres') ? 'postgres' : 'sqlite');
    const seconds = (s: TestSpecification) => this.durations[engine(s)]?.[path.relative(root, s.moduleId)] ?? Infinity;
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        kind(a) - kind(b) ||
        (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0) ||
        seconds(b) - seconds(a) ||
        (a.moduleId < b.moduleId ? -1 : 1),
    );
  }
}
