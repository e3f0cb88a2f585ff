import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * For `npm test` (scripts/test.mjs): what vitest's JSON report cannot say once a file runs in two
 * projects (SQLite and PostgreSQL) — each failure named with its project, and each file's time,
 * written to the file of CSAI_VITEST_SUMMARY (default .artifacts/vitest-summary.json).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
    let passed = 0;
    let failed = 0;
    const names: string[] = [];
    const files: Array<{ project: string; file: string; ms: number; state: string }> = [];
    for (const m of modules) {
      const project = m.project.name;
      const file = path.relative(process.cwd(), m.moduleId);
      let failedHere = 0;
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') {
          failed++;
          failedHere++;
          names.push(`[${project}] ${file} › ${t.fullName}`);
        }
      }
      // A file that failed without a failing test (it did not load, or a hook failed) counts once.
      if (m.state() === 'failed' && failedHere === 0) {
        failed++;
        names.push(`[${project}] ${file} (did not load: ${m.errors()[0]?.message.split('\n')[0] ?? 'failed'})`);
      }
      files.push({ project, file, ms: Math.round(m.diagnostic().duration), state: m.state() });
    }
    for (const e of unhandledErrors) {
      failed++;
      names.push(`unhandled error: ${e.message.split('\n')[0]}`);
    }
    const out = process.env.CSAI_VITEST_SUMMARY ?? '.artifacts/vitest-summary.json';
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ passed, failed, names, files }, null, 1));
  }
}
