import type { ChildProcess } from 'node:child_process';
import { trackChild } from './children';
import { registerDataDir } from './helpers';
import { testDatabaseUrl } from './postgres-harness';
import { exited, freePort, startServerProcess } from './server-process';

export { exited, freePort };

/**
 * The real server as its own process (`node --import tsx src/server/main.ts`, so the pid we hold
 * is the server itself and SIGKILL reaches it mid-work), ready once the ping answers. Killed after
 * the test file if still running (file-setup.ts).
 */
export async function spawnServerProcess(dataDir: string, env: Record<string, string> = {}) {
  // With CSAI_TEST_DB=postgres, the data folder's own PostgreSQL database.
  const databaseUrl = await testDatabaseUrl(dataDir);
  const server = await startServerProcess({ dataDir, port: await freePort(), env: { ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env } });
  trackChild(server.child);
  registerDataDir(server.url, dataDir);
  return { child: server.child, url: server.url, stderr: server.stderr };
}

/** SIGKILL, resolved once the process is gone. */
export async function killed(child: ChildProcess): Promise<void> {
  const done = exited(child);
  child.kill('SIGKILL');
  await done;
}
