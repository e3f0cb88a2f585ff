import { describe, expect, it } from 'vitest';
import { crashSoak } from './crash-soak';

// postgres: sqlite-only — besides what every engine must keep, it checks SQLite's own file (integrity and foreign-key checks, the write-ahead log); kill -9 on PostgreSQL is knowledge/crash.test.ts's (an upload and a parse cut off, nothing acknowledged lost).

// Crash safety: kill -9 at random moments under uploads, parses, questions and answer
// streams; after each restart the database is whole, nothing acknowledged is lost or comes back,
// interrupted answers are not left running, and the files on disk match the documents. The suite
// runs CSAI_CRASH_CYCLES cycles (default 3, 1–2 minutes on a busy machine); `npm run bench -- crash` runs 30.
const cycles = Number(process.env.CSAI_CRASH_CYCLES ?? 3);

describe(`kill -9 at random moments, ${cycles} cycles`, () => {
  it('loses nothing acknowledged, keeps SQLite whole and leaves nothing parsing, answering or orphaned', async () => {
    const report = await crashSoak({ cycles, users: 3, seed: Number(process.env.CSAI_CRASH_SEED ?? 1616), log: (l) => console.log(l) });
    expect(report.problems, `seed ${report.seed}`).toEqual([]);
    // The load did reach the server: every cycle waits for two acknowledged operations before its
    // kill (crash-soak.ts), and uploads and questions were among them.
    const { uploads, questions, deletions } = report.acknowledged;
    expect(uploads + questions + deletions).toBeGreaterThanOrEqual(2 * cycles);
    expect(uploads).toBeGreaterThan(0);
    expect(questions).toBeGreaterThan(0);
  }, 600_000);
});
