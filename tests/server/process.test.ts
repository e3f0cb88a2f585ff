import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './process-helpers';
import { fromSources } from './server-process';
import { until } from './until';

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => { for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL'); });

function start(env: Record<string, string>) {
  // node itself (the run's bundle of the sources, or tsx's loader), not the tsx command: that wrapper relays a signal to its child and, when
  // the child does not confirm it within 30 ms (a loaded machine), kills it and exits with 143.
  const child = spawn(process.execPath, fromSources('main'), {
    env: { ...process.env, CSAI_LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitForPing(url: string) {
  // tsx compiles the server first: up to a minute on a busy machine.
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/api/v1/`)).ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

describe('the server process', () => {
  it('prints where it runs, and closes cleanly on SIGTERM', async () => {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-proc-'));
    const server = start({ PORT: String(port), CSAI_DATA_DIR: dataDir });
    await waitForPing(`http://127.0.0.1:${port}`);
    // The start line is logged right after listening; the ping may win the race to the pipe.
    await until(() => server.output().includes(`http://localhost:${port}`));
    expect(server.output()).toContain(`http://localhost:${port}`);
    expect(server.output()).toContain('npm run user -- create --admin');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('shutting down');
    // The port is free again.
    const again = start({ PORT: String(port), CSAI_DATA_DIR: dataDir });
    await waitForPing(`http://127.0.0.1:${port}`);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  }, 180_000);

  it('refuses to start with a bad environment and says which variable is wrong', async () => {
    const server = start({ PORT: 'eighty', CSAI_DATA_DIR: os.tmpdir() });
    expect(await server.exited).toBe(2);
    expect(server.output()).toMatch(/Invalid configuration[\s\S]*PORT/);
    expect(server.output()).not.toMatch(/\n\s+at /);
  });
});
