import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { boundedLogStream } from '../../src/server/log-stream';
import { freePort } from './process-helpers';
import { fromSources } from './server-process';
import { PassThrough, Writable } from 'node:stream';

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
};

describe('logging to a stdout that stops reading (issue 33)', () => {
  it('keeps answering, stays bounded in memory, and ends within 10 s of SIGTERM', async () => {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-logstall-'));
    // stdout is a pipe that this test never reads: once the pipe and the stream's buffer are full,
    // every write the server makes to it would wait forever.
    const child = spawn(process.execPath, fromSources('main'), {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1', CSAI_DATA_DIR: dataDir, CSAI_WEB_DIR: path.join(dataDir, 'no-web'), CSAI_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    child.stdout!.pause();
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (i > 1200) throw new Error(`server did not start: ${stderr}`);
      try {
        if ((await fetch(`${url}/api/v1/`)).ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    // Each request logs two lines of ~300 bytes: 4,000 of them are ~2.4 MB, far more than the pipe holds.
    const burst = async (n: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next++ < n) expect((await fetch(`${url}/api/v1/?q=${'x'.repeat(200)}`, { signal: AbortSignal.timeout(10_000) })).status).toBe(200);
        }),
      );
    };
    await burst(1000);
    const before = rssMb(child.pid!);
    await burst(3000);
    const after = rssMb(child.pid!);
    // What stdout cannot take is dropped, not kept: memory does not grow with the lines logged.
    expect(after - before).toBeLessThan(60);
    const t0 = Date.now();
    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 10_000))]);
    expect(code, `exit within 10 s (took ${Date.now() - t0} ms)`).not.toBe('hung');
  }, 180_000);
});

describe('boundedLogStream', () => {
  it('drops lines past its bound, counts them, and reports the count once the reader catches up', async () => {
    // A writable that holds everything until released, as a full pipe does.
    const taken: string[] = [];
    let release: (() => void) | undefined;
    const slow = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _enc, cb) {
        taken.push(chunk.toString());
        release = cb;
      },
    });
    const log = boundedLogStream(slow, 1000);
    for (let i = 0; i < 100; i++) log.write(`{"msg":"line ${i}"}\n`);
    expect(log.dropped()).toBeGreaterThan(40);
    const dropped = log.dropped();
    // The reader catches up.
    for (let i = 0; i < 200 && release; i++) {
      const r = release;
      release = undefined;
      r();
      await new Promise((res) => setImmediate(res));
    }
    log.write('{"msg":"after"}\n');
    for (let i = 0; i < 10 && release; i++) {
      const r = release;
      release = undefined;
      r();
      await new Promise((res) => setImmediate(res));
    }
    const text = taken.join('');
    expect(text).toContain(`"dropped":${dropped}`);
    expect(text).toContain('"msg":"after"');
    expect(log.dropped()).toBe(0);
    // A stream that fails (the reader went away) is not written to again, and nothing throws.
    const broken = new PassThrough();
    const log2 = boundedLogStream(broken, 1000);
    broken.destroy(new Error('EPIPE'));
    await new Promise((r) => setImmediate(r));
    expect(() => log2.write('x\n')).not.toThrow();
  });
});
