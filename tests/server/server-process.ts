// Starting the real server as a process of its own, without vitest (the crash soak runs from a
// bench too). `process-helpers.ts` adds clean-up after a test file on top of this.
import net from 'node:net';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/** A free port on 127.0.0.1, found by letting the OS pick one and releasing it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves with how the process ended (at once if it already has). */
export const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

/**
 * node's arguments to run src/server/main.ts or cli/user.ts from the sources: in a vitest run, the
 * bundle tests/server/build-global.ts made of them at its start (seconds of CPU less per start
 * than tsx's loader); elsewhere (a bench) through tsx. Run from the repository's root.
 */
export function fromSources(entry: 'main' | 'cli/user'): string[] {
  const bundle = process.env.CSAI_TEST_SERVER_BUNDLE;
  return bundle ? [path.join(path.dirname(bundle), `${entry}.js`)] : ['--import', 'tsx', `src/server/${entry}.ts`];
}

export interface ServerProcessOptions {
  dataDir: string;
  port: number;
  /**
   * `tsx`: the sources — `node --import tsx src/server/main.ts`, or in a vitest run the bundle made
   * of them at its start (the pid is the server itself either way, so SIGKILL reaches it mid-work);
   * `bundle`: dist/server/main.js.
   */
  entry?: 'tsx' | 'bundle';
  env?: Record<string, string>;
}

/**
 * The real server as its own process, resolved once its ping answers — up to 60 s, as tsx
 * compiles the server on start, slowly on a busy 2-core machine. A server that exits first, or
 * never answers (then killed), rejects with the end of its stderr.
 */
export async function startServerProcess(opts: ServerProcessOptions) {
  const started = Date.now();
  const args = opts.entry === 'bundle' ? ['dist/server/main.js'] : fromSources('main');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      CSAI_DATA_DIR: opts.dataDir,
      CSAI_WEB_DIR: path.join(opts.dataDir, 'no-web'),
      CSAI_PASSWORD_COST: '12',
      // Test clients present made-up addresses (helpers.ts), so per-address limits see them apart.
      CSAI_TRUST_PROXY: '1',
      CSAI_LOG_LEVEL: 'warn',
      ...opts.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8000)));
  const url = `http://127.0.0.1:${opts.port}`;
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${stderr}`);
    try {
      if ((await fetch(`${url}/api/v1/`)).ok) return { child, url, ms: Date.now() - started, stderr: () => stderr };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start: ${stderr}`);
}
