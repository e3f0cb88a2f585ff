import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const tsx = path.join(root, 'node_modules/.bin/tsx');

/** A server in its own process (so the load generator does not share its event loop). */
export interface Spawned {
  url: string;
  child: ChildProcess;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts a server script with tsx. The script prints "LISTENING <port>" (bench servers) or logs the
 * CSAI start line; PORT is chosen by the caller so both kinds can be found.
 */
export async function spawnServer(script: string, env: Record<string, string> = {}): Promise<Spawned> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-bench-'));
  // BENCH_PROFILE_DIR: each spawned server writes a V8 CPU profile there (for tuning). Helper
  // servers write theirs at exit (--cpu-prof); CSAI's server runs from its bundle (built here)
  // with a preload that writes its main thread's profile on each profileMark() instead, since a
  // server stopped under heavy load did not get to the end of its exit, where --cpu-prof writes.
  const profileDir = process.env.BENCH_PROFILE_DIR;
  let [command, args] = [tsx, [script]];
  if (profileDir && script === 'src/server/main.ts') {
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
    // The server's main thread is profiled by a preload that writes on SIGUSR2 (see profileMark).
    [command, args] = [process.execPath, ['--import', './bench/servers/profile-preload.mjs', 'dist/server/main.js']];
  } else if (profileDir) {
    [command, args] = [process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--import', 'tsx', script]];
  }
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', CSAI_DATA_DIR: dataDir, CSAI_LOG_LEVEL: 'warn', CSAI_WEB_DIR: path.join(dataDir, 'none'), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000; // tsx compiles the server on start: two minutes and more on a busy machine
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/v1/`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${script} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    dataDir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        // tsx relays the signal to the node process it runs; that relay was seen to be lost now and
        // then (the server never heard it), so a server not gone in time is killed.
        const tree = processTree(child.pid);
        child.kill('SIGTERM');
        const kill = setTimeout(() => {
          console.warn(`${script} did not stop within ${STOP_MS / 1000} s of SIGTERM: killed`);
          for (const pid of tree.reverse()) {
            try {
              process.kill(pid, 'SIGKILL');
            } catch {
              // gone meanwhile
            }
          }
        }, STOP_MS);
        await exited;
        clearTimeout(kill);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * With BENCH_PROFILE_DIR, writes the CPU profile CSAI's main thread recorded since the previous
 * mark (see bench/servers/profile-preload.mjs); call it before and after a measuring window.
 */
export function profileMark(server: Spawned): void {
  if (process.env.BENCH_PROFILE_DIR && server.child.pid) process.kill(server.child.pid, 'SIGUSR2');
}

/** How long a spawned server has to exit after SIGTERM (CSAI's own close gives up after 10 s; writing a CPU profile takes longer). */
const STOP_MS = process.env.BENCH_PROFILE_DIR ? 120_000 : 15_000;

/** The process and its descendants (spawnServer's child is tsx, which runs node as its own child). */
export function processTree(pid: number | undefined): number[] {
  if (!pid) return [];
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    try {
      for (const task of fs.readdirSync(`/proc/${out[i]}/task`)) {
        const children = fs.readFileSync(`/proc/${out[i]}/task/${task}/children`, 'utf8').trim();
        if (children) out.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

export async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Requests per second of one autocannon run. */
export async function throughput(opts: autocannon.Options): Promise<{ rps: number; p99: number; errors: number; non2xx: number }> {
  const result = await autocannon({ connections: 10, ...(opts.amount ? {} : { duration: 3 }), ...opts });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** One printed figure: value, baseline, ratio and the target it is held to. */
export interface Figure {
  name: string;
  value: string;
  baseline: string;
  ratio: number;
  target?: { op: '>=' | '<='; ratio: number };
}

export function printFigures(title: string, figures: Figure[]) {
  console.log(`\n## ${title}`);
  for (const f of figures) {
    const verdict = f.target ? ((f.target.op === '>=' ? f.ratio >= f.target.ratio : f.ratio <= f.target.ratio) ? 'meets' : 'MISSES') : '';
    const target = f.target ? ` (target ${f.target.op} ${f.target.ratio}×: ${verdict})` : '';
    console.log(`${f.name}: ${f.value} vs baseline ${f.baseline} → ${f.ratio.toFixed(3)}×${target}`);
  }
}
