// The order vitest starts test files in (vitest.config.ts, sequence.sequencer): within each
// sequence group, the longest first, whatever their project. vitest's own order runs projects one
// after another and, without its cache (a fresh CI machine), the largest files first — so a short
// file that runs for minutes (the crash soak, 23 lines) started last and ran alone at the end
// while the other workers idled. A file's expected duration is the committed one
// (tests/durations.json, scripts/test-durations.mjs), else DEFAULT_SECONDS. Which files run, and
// how, is unchanged.
import path from 'node:path';
import { BaseSequencer } from 'vitest/node';
import { readDurations } from './test-durations.mjs';

const DEFAULT_SECONDS = 5;

export class LongestFirstSequencer extends BaseSequencer {
  durations = readDurations();

  /** Expected seconds of a spec on its engine. */
  expected(spec) {
    const rel = path.relative(this.ctx.config.root, spec.moduleId).split(path.sep).join('/');
    const engine = spec.project.name.includes('postgres') || process.env.CSAI_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
    return this.durations[`${engine}:${rel}`] ?? DEFAULT_SECONDS;
  }

  async sort(files) {
    const keyed = files.map((spec) => ({ spec, group: spec.project.config.sequence.groupOrder ?? 0, seconds: this.expected(spec) }));
    keyed.sort((a, b) => a.group - b.group || b.seconds - a.seconds);
    return keyed.map((k) => k.spec);
  }
}
