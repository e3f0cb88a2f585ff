// Starting the real server as a process of its own, without vitest (the crash soak runs from a
// bench too). `process-helpers.ts` adds clean-up after a test file on top of this.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/**
 * The kernel's range of ports for listen(0) and outgoing connections; the ports freePort hands out
 * lie below it. A port the OS picked and freePort released, for a server process that binds it a
 * moment later, could meanwhile be given to another file's in-process server (which listens on port
 * 0): the waiting process's client then pinged, and held connections to, a server not its own.
 */
function ephemeralPorts(): { low: number; high: number } {
  try {
    const [low, high] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high) return { low, high };
  } catch {
    // not Linux: the IANA range
  }
  return { low: 49152, high: 65535 };
}

/** Whether a port on 127.0.0.1 can be listened on now. */
const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });

/** A free port on 127.0.0.1 below the kernel's ephemeral range (so no listen(0) or outgoing connection takes it meanwhile). */
export async function freePort(): Promise<number> {
  const { low, high } = ephemeralPorts();
  // Below the ephemeral range when it leaves room (from 10000: clear of the usual services), else above it.
  const [from, to] = low > 20_000 ? [10_000, low - 1] : [high + 1, 65_535];
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${from} and ${to}`);
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
