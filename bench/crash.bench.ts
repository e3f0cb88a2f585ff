// Crash safety at full length: 30 cycles (BENCH_CRASH_CYCLES) of load → kill -9 at a random
// moment → restart → checks (tests/server/crash-soak.ts; the test suite runs 3). Figures: the restart
// after a kill as a ratio to the first start of the same run (recovery work on top of a cold start),
// and the problems found (target 0: integrity, lost or revived records, stuck parses and answers,
// orphaned or missing files).
import { execFileSync } from 'node:child_process';
import { crashSoak } from '../tests/server/crash-soak';
import { median, root, type Figure } from './lib';

export async function run(): Promise<Figure[]> {
  // The bundle starts about twice as fast as the sources under tsx: 30 restarts fit in a few minutes.
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  const cycles = Number(process.env.BENCH_CRASH_CYCLES ?? 30);
  const report = await crashSoak({ cycles, entry: 'bundle', seed: Number(process.env.BENCH_CRASH_SEED ?? Date.now() % 100_000), log: (l) => console.log(l) });
  for (const p of report.problems) console.log(`PROBLEM: ${p}`);
  console.log(
    `seed ${report.seed}; acknowledged: ${report.acknowledged.uploads} uploads, ${report.acknowledged.questions} questions, ${report.acknowledged.deletions} deletions; ` +
      `under way at the kills: ${report.inFlight.tempFiles} partial uploads, ${report.inFlight.parsing} parses, ${report.inFlight.answering} answers; settled ${report.settleMs} ms after the last restart`,
  );
  const restart = median(report.restartMs);
  return [
    { name: `restart after kill -9 (median of ${cycles})`, value: `${restart} ms`, baseline: `first start ${report.firstStartMs} ms`, ratio: restart / report.firstStartMs, target: { op: '<=', ratio: 2 } },
    // 1 + problems over 1: a ratio of 1 is none found.
    { name: 'problems found (integrity, lost or revived records, stuck work, files)', value: String(report.problems.length), baseline: '0', ratio: 1 + report.problems.length, target: { op: '<=', ratio: 1 } },
  ];
}
