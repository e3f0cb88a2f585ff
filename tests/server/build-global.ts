import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * vitest globalSetup of the server projects: bundles the server from the sources once per run
 * (scripts/build-server.mjs --outdir, esbuild: a second or two) into .tmp/server-build-<pid>.
 * The server's parse processes then start from that bundle (CSAI_TEST_PARSE_WORKER,
 * src/server/parsing/worker-pool.ts), and so do the tests'
 * server processes (CSAI_TEST_SERVER_BUNDLE, server-process.ts): through tsx each such start
 * cost seconds of CPU more (tsx's loader hooks on every module), and the suite starts hundreds.
 * It is the code under test, built at the start of this run; the same bundle `npm run build` makes.
 */
const ROOT = path.resolve(__dirname, '../..');
let built: string | undefined;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export function setup() {
  // Several projects of one run share this setup: the first one builds.
  if (process.env.CSAI_TEST_SERVER_BUNDLE) return;
  // Two levels below the repository, as dist/server is: the bundle finds node_modules and, as
  // main.ts reads its version from ../../package.json, the product's version.
  const parent = path.join(ROOT, '.tmp');
  // Builds of runs that ended without their teardown (interrupted): their vitest process is gone.
  for (const name of fs.existsSync(parent) ? fs.readdirSync(parent) : []) {
    const pid = /^server-build-(\d+)$/.exec(name)?.[1];
    if (pid && !alive(Number(pid))) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
  const dir = path.join(parent, `server-build-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--outdir', dir], { cwd: ROOT, stdio: 'inherit' });
  built = dir;
  process.env.CSAI_TEST_SERVER_BUNDLE = path.join(dir, 'main.js');
  process.env.CSAI_TEST_PARSE_WORKER = path.join(dir, 'parse-worker.js');
}

export function teardown() {
  if (built) fs.rmSync(built, { recursive: true, force: true });
}
