import net from 'node:net';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll } from 'vitest';
import { registerDataDir } from './helpers';
import { testDatabaseUrl } from './postgres-harness';

const ROOT = path.resolve(__dirname, '../..');

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

const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/**
 * The real server as its own process (`node --import tsx src/server/main.ts`, so the pid we hold
 * is the server itself and SIGKILL reaches it mid-work), ready once the ping answers. Killed after
 * the test file if still running.
 */
export async function spawnServerProcess(dataDir: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const databaseUrl = await testDatabaseUrl(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      CSAI_DATA_DIR: dataDir,
      CSAI_WEB_DIR: path.join(dataDir, 'no-web'),
      CSAI_PASSWORD_COST: '12',
      // Test clients present made-up addresses (helpers.ts), so per-address limits see them apart.
      CSAI_TRUST_PROXY: '1',
      CSAI_LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  registerDataDir(url, dataDir);
  // Up to 40 s: tsx compiles the server on start, slowly on a busy 2-core machine.
  for (let i = 0; i < 800; i++) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${stderr}`);
    try {
      if ((await fetch(`${url}/api/v1/`)).ok) return { child, url, stderr: () => stderr };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server did not start: ${stderr}`);
}

/** Resolves with how the process ended (at once if it already has). */
export const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

/** SIGKILL, resolved once the process is gone. */
export async function killed(child: ChildProcess): Promise<void> {
  const done = exited(child);
  child.kill('SIGKILL');
  await done;
}
