import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ToolAvailability } from '../types';

/** Where Debian's libopsin-java puts OPSIN; opsin-cli.jar's manifest brings opsin-core and its libraries. */
export const OPSIN_JARS = ['/usr/share/java/opsin-cli.jar', '/usr/share/java/opsin.jar'];

/** What OPSIN made of one name: a SMILES, or why it could not parse it. */
export type OpsinAnswer = { smiles: string } | { failure: string };

export interface Opsin {
  /** Parses one systematic name; rejects with OpsinUnavailableError when OPSIN cannot run or times out. */
  parse(name: string, signal?: AbortSignal): Promise<OpsinAnswer>;
  availability(): ToolAvailability;
  /** The running JVM's process id, if one runs (tests, diagnostics). */
  pid(): number | undefined;
  close(): Promise<void>;
}

export interface OpsinOptions {
  /** The `java` executable; default: JAVA_HOME/bin/java, else the first `java` on PATH (undefined: none). */
  java?: string;
  /** OPSIN's jar; default: the first of OPSIN_JARS that exists (undefined: none). */
  jar?: string;
  /** Longest one name may take before the JVM is restarted (default 5 s). */
  timeoutMs?: number;
  /** Longest the JVM may take to start and compile the line server (default 60 s). */
  startTimeoutMs?: number;
  /** Names waiting at most; more are refused (default 256). */
  maxQueue?: number;
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
}

/** OPSIN could not answer (not installed, crashed, timed out, busy): not the user's fault. */
export class OpsinUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpsinUnavailableError';
  }
}

export const OPSIN_INSTALL_HINT = '系统名称解析需要 OPSIN 和 Java：请运行 `npm run setup`，或以 root 身份执行 `apt-get install -y libopsin-java default-jre-headless`';

/** The line server, next to this file from source and next to main.js in the build (scripts/build-server.mjs copies it). */
const SERVER_SOURCE = fileURLToPath(new URL('./OpsinServer.java', import.meta.url));

function findJava(): string | undefined {
  const home = process.env.JAVA_HOME;
  const candidates = [
    ...(home ? [path.join(home, 'bin', 'java')] : []),
    ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, 'java')),
  ];
  return candidates.find(isExecutable);
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** An idle JVM (process and pipes) does not keep Node alive; a busy one does. */
function setRef(child: ChildProcessWithoutNullStreams, on: boolean) {
  for (const handle of [child, child.stdin, child.stdout, child.stderr]) {
    if (handle instanceof net.Socket || handle === child) {
      if (on) handle.ref();
      else handle.unref();
    }
  }
}

type Job = {
  id: number;
  name: string;
  resolve: (a: OpsinAnswer) => void;
  reject: (e: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
};

/**
 * OPSIN in one long-lived JVM (`OpsinServer.java` run by the single-file source launcher): names go
 * one at a time over stdin, answers come back line by line. A name that takes too long or a crash
 * kills the JVM; the next name starts a new one.
 */
export function createOpsin(options: OpsinOptions = {}): Opsin {
  const timeoutMs = options.timeoutMs ?? 5000;
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const maxQueue = options.maxQueue ?? 256;
  const givenJava = 'java' in options ? options.java : findJava();
  const java = givenJava && isExecutable(givenJava) ? givenJava : undefined;
  const givenJar = 'jar' in options ? options.jar : OPSIN_JARS.find((f) => fs.existsSync(f));
  const jar = givenJar && fs.existsSync(givenJar) ? givenJar : undefined;
  const queue: Job[] = [];
  let nextId = 1;
  let proc: { child: ChildProcessWithoutNullStreams; ready: Promise<void>; stderr: string[] } | undefined;
  let current: (Job & { timer: NodeJS.Timeout }) | undefined;
  let lastStartError: string | undefined;
  let closed = false;

  function availability(): ToolAvailability {
    if (!java || !jar || !fs.existsSync(SERVER_SOURCE)) {
      const missing = [!java ? 'Java 运行环境（java）' : '', !jar ? 'OPSIN（/usr/share/java/opsin-cli.jar）' : '', !fs.existsSync(SERVER_SOURCE) ? 'OpsinServer.java' : '']
        .filter(Boolean)
        .join('、');
      return { enabled: false, reason: `未找到${missing}。${OPSIN_INSTALL_HINT}` };
    }
    if (lastStartError) return { enabled: false, reason: `OPSIN 启动失败（${lastStartError}）。${OPSIN_INSTALL_HINT}` };
    return { enabled: true };
  }

  function stop(why: string) {
    const p = proc;
    proc = undefined;
    if (p) {
      p.child.removeAllListeners();
      p.child.stdout.removeAllListeners();
      p.child.kill('SIGKILL');
    }
    if (current) {
      clearTimeout(current.timer);
      const job = current;
      current = undefined;
      detach(job);
      job.reject(new OpsinUnavailableError(why));
    }
  }

  function detach(job: Job) {
    if (job.signal && job.onAbort) job.signal.removeEventListener('abort', job.onAbort);
  }

  function start() {
    if (!java || !jar) throw new OpsinUnavailableError(availability().enabled ? 'OPSIN 不可用' : OPSIN_INSTALL_HINT);
    // -Xshare:auto and a small heap: OPSIN needs little; the source launcher compiles the server in memory.
    const child = spawn(java, ['-Xss8m', '-Xmx256m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-cp', jar, SERVER_SOURCE], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stderr: string[] = [];
    let settle: { resolve: () => void; reject: (e: Error) => void } | undefined;
    const ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    ready.catch(() => undefined);
    const startTimer = setTimeout(() => {
      lastStartError = `${Math.round(startTimeoutMs / 1000)} 秒内未就绪`;
      settle?.reject(new OpsinUnavailableError(`OPSIN 启动超时`));
      stop('OPSIN 启动超时');
    }, startTimeoutMs);
    const p = { child, ready, stderr };
    proc = p;
    let isReady = false;
    child.stdin.on('error', () => undefined);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr.push(chunk);
      if (stderr.length > 20) stderr.shift();
    });
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line.startsWith('READY\t')) {
        clearTimeout(startTimer);
        lastStartError = undefined;
        isReady = true;
        settle?.resolve();
        return;
      }
      const [id, status, ...rest] = line.split('\t');
      if (!current || Number(id) !== current.id) return;
      const job = current;
      clearTimeout(job.timer);
      current = undefined;
      detach(job);
      const text = rest.join('\t');
      job.resolve(status === 'OK' ? { smiles: text } : { failure: text });
      pump();
    });
    child.on('error', (err) => {
      clearTimeout(startTimer);
      lastStartError = err.message;
      settle?.reject(new OpsinUnavailableError(`OPSIN 无法启动：${err.message}`));
      if (proc === p) stop(`OPSIN 无法启动：${err.message}`);
      failQueued(`OPSIN 无法启动：${err.message}`);
    });
    child.on('exit', (code, sig) => {
      clearTimeout(startTimer);
      if (proc !== p) return;
      // What the JVM wrote just before it died may still be in the pipe: read it to the end (briefly).
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        exited(code, sig);
      };
      if (child.stderr.readableEnded) finish();
      else {
        setTimeout(finish, 200);
        child.stderr.once('end', finish);
      }
    });
    const exited = (code: number | null, sig: NodeJS.Signals | null) => {
      if (proc !== p) return;
      const why = `OPSIN 进程退出（${sig ?? `退出码 ${code}`}）`;
      const tail = stderr.join('').trim().split('\n').slice(-3).join(' ').slice(0, 300);
      options.log?.warn({ code, signal: sig, stderr: tail }, 'opsin exited');
      settle?.reject(new OpsinUnavailableError(why));
      stop(why);
      // A JVM that dies before it is ready will die again: refuse the queue instead of looping.
      if (!isReady) {
        lastStartError = tail || why;
        failQueued(`${why}：${tail}`);
      } else pump();
    };
    return p;
  }

  function failQueued(message: string) {
    for (const job of queue.splice(0)) {
      detach(job);
      job.reject(new OpsinUnavailableError(message));
    }
  }

  function pump() {
    if (current || closed) return;
    const job = queue.shift();
    if (!job) {
      // An idle JVM does not keep Node alive.
      if (proc) setRef(proc.child, false);
      return;
    }
    let p: NonNullable<typeof proc>;
    try {
      p = proc ?? start();
    } catch (err) {
      detach(job);
      job.reject(err instanceof Error ? err : new Error(String(err)));
      pump();
      return;
    }
    setRef(p.child, true);
    // The per-name clock starts once the JVM is ready (start-up has its own limit).
    current = { ...job, timer: setTimeout(() => undefined, 0) };
    p.ready.then(
      () => {
        if (current?.id !== job.id || proc !== p) return;
        current.timer = setTimeout(() => {
          options.log?.warn({ name: job.name.slice(0, 200) }, 'opsin timed out; restarting');
          stop('OPSIN 解析超时');
          pump();
        }, timeoutMs);
        p.child.stdin.write(`${job.id}\t${job.name}\n`);
      },
      (err: unknown) => {
        if (current?.id !== job.id) return;
        current = undefined;
        detach(job);
        job.reject(err instanceof Error ? err : new OpsinUnavailableError(String(err)));
      },
    );
  }

  return {
    availability,
    pid: () => proc?.child.pid,
    parse(name, signal) {
      if (closed) return Promise.reject(new OpsinUnavailableError('OPSIN 已关闭'));
      // One line per name: tabs and line breaks would split it.
      const clean = name.replace(/[\t\r\n\u2028\u2029]+/g, ' ').trim();
      if (!clean) return Promise.resolve({ failure: 'empty name' });
      if (signal?.aborted) return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      if (queue.length >= maxQueue) return Promise.reject(new OpsinUnavailableError('名称解析服务繁忙，请稍后再试'));
      return new Promise<OpsinAnswer>((resolve, reject) => {
        const job: Job = { id: nextId++, name: clean, resolve, reject, signal };
        if (signal) {
          // A caller that gives up leaves the queue; a name already sent is answered and dropped.
          job.onAbort = () => {
            const i = queue.indexOf(job);
            if (i >= 0) queue.splice(i, 1);
            reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
          };
          signal.addEventListener('abort', job.onAbort, { once: true });
        }
        queue.push(job);
        pump();
      });
    },
    async close() {
      closed = true;
      failQueued('OPSIN 已关闭');
      const p = proc;
      stop('OPSIN 已关闭');
      if (p && p.child.exitCode === null && p.child.signalCode === null) {
        p.child.ref();
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 2000);
          p.child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
  };
}
