import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { LAUNCHER } from './launcher';
import { runCgroup, type RunCgroup } from './cgroup';

/** What a run may use. */
export interface SandboxLimits {
  /** Wall-clock limit; the whole process group is killed after it. */
  timeoutMs: number;
  cpuSeconds: number;
  /** Memory of the whole run with a memory cgroup (cgroup.ts), and the address space of each process (prlimit). */
  memoryBytes: number;
  /** Processes (and threads) of the sandbox user. */
  processes: number;
  /** Largest file a process may write. */
  fileBytes: number;
  /** Size of the work directory (tmpfs) and of /tmp. */
  diskBytes: number;
  /** stdout and stderr are each kept up to this size. */
  outputBytes: number;
  /** Files brought back from the work directory: count and total size. */
  maxFiles: number;
  maxFilesBytes: number;
}

/** Where the programs are. */
export interface SandboxPrograms {
  bwrap: string;
  python: string;
}

/** A file mounted read-only under /input. */
export interface SandboxInput {
  /** A plain file name (no slash). */
  name: string;
  hostPath: string;
}

export interface SandboxFile {
  /** Path relative to the work directory. */
  name: string;
  data: Buffer;
}

/** Why a run ended, besides a normal exit. */
export type SandboxStop = 'timeout' | 'output' | 'memory' | 'stopped' | 'lost' | null;

export interface SandboxResult {
  /** Exit code of the code (negative: killed by that signal number); null when it did not report. */
  exitCode: number | null;
  stop: SandboxStop;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  files: SandboxFile[];
  /** Files left in the work directory but not brought back (over the count or size limit). */
  skipped: Array<{ name: string; size: number }>;
  durationMs: number;
}

/** How often a run's memory cgroup is checked for an OOM kill (then the whole run is stopped). */
const OOM_POLL_MS = 200;
/** Output beyond this many bytes in all stops the run: reading gigabytes to throw them away helps nobody. */
const OUTPUT_KILL_FACTOR = 16;
/** Files the sandbox needs from /etc (shared libraries, BLAS alternatives, matplotlib, fonts); never the rest. */
const ETC_ENTRIES = ['/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/alternatives', '/etc/matplotlibrc', '/etc/fonts', '/etc/localtime'];
/** The first file descriptor of the inputs in the sandbox command (0–2 stdio, 3 the launcher's report). */
const FIRST_INPUT_FD = 4;
/** The environment of the sandbox command itself: the server's (secrets included) is never passed on, not even to bwrap. */
const COMMAND_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8' };
/**
 * When the server runs as root, each run gets its own unprivileged user id from this range (no
 * account needed): the process limit counts that user's processes only, so one run's fork bomb
 * cannot starve another run, nor the server.
 */
const RUN_UIDS = { first: 200_000, count: 60_000 };

const exists = (p: string) => fs.existsSync(p);

/** The program found on PATH, or the path itself when absolute. */
export function which(program: string): string | undefined {
  if (program.includes('/')) return exists(program) ? program : undefined;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, program);
    if (exists(candidate)) return candidate;
  }
  return undefined;
}

/** The command line: a drop to an unprivileged user of its own (server as root), prlimit, bwrap, the launcher. */
export function sandboxArgv(programs: SandboxPrograms, limits: SandboxLimits, inputs: readonly SandboxInput[]): string[] {
  const system: string[] = ['--ro-bind', '/usr', '/usr'];
  for (const link of ['bin', 'lib', 'lib64', 'sbin']) {
    const p = `/${link}`;
    try {
      if (fs.lstatSync(p).isSymbolicLink()) system.push('--symlink', fs.readlinkSync(p), p);
      else system.push('--ro-bind', p, p);
    } catch {
      // absent on this system
    }
  }
  for (const entry of ETC_ENTRIES) system.push('--ro-bind-try', entry, entry);
  const mounts: string[] = [];
  if (inputs.length) mounts.push('--dir', '/input');
  // Each input is passed as an open file (fd 4, 5, …) and copied in: the sandbox user needs no access to the data directory.
  inputs.forEach((input, i) => mounts.push('--perms', '0444', '--ro-bind-data', String(FIRST_INPUT_FD + i), `/input/${input.name}`));
  const env = {
    PATH: '/usr/bin:/bin',
    HOME: '/work',
    LANG: 'C.UTF-8',
    MPLBACKEND: 'Agg',
    MPLCONFIGDIR: '/tmp/matplotlib',
    OPENBLAS_NUM_THREADS: '1',
    OMP_NUM_THREADS: '1',
    PYTHONDONTWRITEBYTECODE: '1',
  };
  const bwrap = [
    programs.bwrap,
    '--unshare-all',
    // A user namespace of its own (--unshare-all only tries one), in which no nested one may be
    // created: without it the code cannot gain the capabilities to make PID, network or mount
    // namespaces either (bubblewrap ≥ 0.8 sets user.max_user_namespaces to 0 inside).
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    ...system,
    '--proc', '/proc',
    '--dev', '/dev',
    '--size', String(limits.diskBytes), '--tmpfs', '/dev/shm',
    '--remount-ro', '/dev',
    '--size', String(limits.diskBytes), '--tmpfs', '/tmp',
    '--size', String(limits.diskBytes), '--tmpfs', '/work',
    ...mounts,
    '--remount-ro', '/',
    '--chdir', '/work',
    '--clearenv',
    ...Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v]),
    '--',
    programs.python, '-I', '-c', LAUNCHER,
    JSON.stringify({ files: limits.maxFiles, fileBytes: Math.min(limits.fileBytes, limits.maxFilesBytes), totalBytes: limits.maxFilesBytes }),
  ];
  const prlimit = [
    'prlimit',
    // soft:hard — at the soft limit the code gets SIGXCPU (reported as the time limit); with equal limits Linux sends SIGKILL instead.
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--as=${limits.memoryBytes}`,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileBytes}`,
    '--core=0',
    '--',
  ];
  const uid = RUN_UIDS.first + randomInt(RUN_UIDS.count);
  const drop = process.getuid?.() === 0 ? ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--'] : [];
  return [...drop, ...prlimit, ...bwrap];
}

/** Whether sandboxed runs can happen here; when not, a Chinese reason saying what is missing and how to fix it. */
export function probeSandbox(programs: SandboxPrograms): { ok: true } | { ok: false; reason: string } {
  if (process.platform !== 'linux') return { ok: false, reason: '代码执行沙箱只能在 Linux 上运行：请在安装了 bubblewrap 的 Linux 服务器上运行 CSAI 以启用。' };
  const bwrap = which(programs.bwrap);
  if (!bwrap) return { ok: false, reason: '未找到 bubblewrap（bwrap），代码不会在沙箱外运行。请安装 bubblewrap（以 root 运行 apt-get install -y bubblewrap）后重启服务。' };
  if (!exists(programs.python)) return { ok: false, reason: `未找到 ${programs.python}。请安装（以 root 运行 apt-get install -y python3 python3-rdkit python3-numpy python3-pandas python3-matplotlib）后重启服务。` };
  if (!which('prlimit') || (process.getuid?.() === 0 && !which('setpriv'))) return { ok: false, reason: '未找到 prlimit 或 setpriv（util-linux），无法限制沙箱资源。请安装 util-linux 后重启服务。' };
  const argv = sandboxArgv({ bwrap, python: programs.python }, { timeoutMs: 10_000, cpuSeconds: 10, memoryBytes: 512 * 2 ** 20, processes: 64, fileBytes: 2 ** 20, diskBytes: 2 ** 20, outputBytes: 4096, maxFiles: 0, maxFilesBytes: 0 }, []);
  // The launcher with an empty program: creates the namespaces, starts Python, reports on fd 3.
  const probe = spawnSync(argv[0]!, argv.slice(1), { input: '', timeout: 10_000, stdio: ['pipe', 'pipe', 'pipe', 'pipe'], encoding: 'utf8', env: COMMAND_ENV });
  const report = probe.output?.[3];
  if (probe.status === 0 && typeof report === 'string' && report.includes('"exit": 0')) return { ok: true };
  const detail = `${probe.error?.message ?? ''} ${probe.stderr ?? ''}`.trim().split('\n')[0]?.slice(0, 200) ?? '';
  return { ok: false, reason: `bubblewrap 无法在本机创建沙箱（${detail || `退出码 ${String(probe.status)}`}），代码不会在沙箱外运行。请在内核设置中启用非特权用户命名空间（kernel.unprivileged_userns_clone=1），或让容器允许创建命名空间，然后重启服务。` };
}

/** Text of a capped buffer: a cut multi-byte character at the end is dropped. */
const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8').replace(/\uFFFD$/, '');

/** Runs `code` with Debian's Python inside bubblewrap. Never throws for what the code does; throws only when the sandbox cannot start. */
export function runSandboxed(programs: SandboxPrograms, limits: SandboxLimits, code: string, inputs: readonly SandboxInput[], signal?: AbortSignal): Promise<SandboxResult> {
  for (const input of inputs) {
    if (!/^[^/\0]+$/.test(input.name) || input.name === '.' || input.name === '..') throw new Error(`bad input name ${input.name}`);
  }
  let cgroup: RunCgroup | undefined;
  try {
    cgroup = runCgroup(limits.memoryBytes);
  } catch {
    // The kernel refused this run's cgroup: prlimit's per-process cap still holds.
  }
  // With a cgroup, the first process (root, before setpriv drops) writes itself into it, so everything the run starts is in it.
  const argv = cgroup ? ['/bin/sh', '-c', 'echo $$ > "$0" && exec "$@"', cgroup.procs, ...sandboxArgv(programs, limits, inputs)] : sandboxArgv(programs, limits, inputs);
  const started = Date.now();
  const fds: number[] = [];
  try {
    for (const input of inputs) fds.push(fs.openSync(input.hostPath, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW));
  } catch (err) {
    for (const fd of fds) fs.closeSync(fd);
    void cgroup?.remove();
    throw err;
  }
  return new Promise((resolve, reject) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe', 'pipe', ...fds], detached: true, env: COMMAND_ENV });
    } finally {
      for (const fd of fds) fs.closeSync(fd);
    }
    let stop: SandboxStop = null;
    const kill = (why: SandboxStop) => {
      stop ??= why;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => kill('timeout'), limits.timeoutMs);
    // The kernel killed a process of the run at the cgroup's cap: the whole run stops, reported as the memory limit.
    const oomPoll = cgroup && setInterval(() => cgroup.oomKills() > 0 && kill('memory'), OOM_POLL_MS);
    const onAbort = () => kill('stopped');
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();

    let seen = 0;
    const capture = () => {
      const kept: Buffer[] = [];
      let size = 0;
      let truncated = false;
      return {
        kept,
        get truncated() {
          return truncated;
        },
        push(chunk: Buffer) {
          seen += chunk.length;
          if (seen > limits.outputBytes * OUTPUT_KILL_FACTOR) kill('output');
          const room = limits.outputBytes - size;
          if (room <= 0) {
            truncated = true;
            return;
          }
          const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
          if (piece.length < chunk.length) truncated = true;
          kept.push(piece);
          size += piece.length;
        },
      };
    };
    const out = capture();
    const err = capture();
    child.stdout!.on('data', (c: Buffer) => out.push(c));
    child.stderr!.on('data', (c: Buffer) => err.push(c));

    // fd 3: the launcher's report (files, then the exit code), read as it arrives.
    const report = child.stdio[3] as NodeJS.ReadableStream;
    let pending = Buffer.alloc(0);
    let current: { name: string; size: number; parts: Buffer[]; got: number } | null = null;
    const files: SandboxFile[] = [];
    let exitCode: number | null = null;
    let skipped: SandboxResult['skipped'] = [];
    let received = 0;
    let broken = false;
    report.on('data', (chunk: Buffer) => {
      if (broken) return;
      received += chunk.length;
      if (received > limits.maxFilesBytes + 1024 * 1024) {
        broken = true;
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (current) {
          const need = current.size - current.got;
          const take = pending.subarray(0, need);
          current.parts.push(take);
          current.got += take.length;
          pending = pending.subarray(take.length);
          if (current.got < current.size) return;
          files.push({ name: current.name, data: Buffer.concat(current.parts) });
          current = null;
          continue;
        }
        const nl = pending.indexOf(0x0a);
        if (nl < 0) {
          if (pending.length > 64 * 1024) broken = true;
          return;
        }
        const line = pending.subarray(0, nl).toString('utf8');
        pending = pending.subarray(nl + 1);
        let header: unknown;
        try {
          header = JSON.parse(line);
        } catch {
          broken = true;
          return;
        }
        if (header && typeof header === 'object' && 'file' in header && 'size' in header && typeof header.file === 'string' && typeof header.size === 'number') {
          if (files.length >= limits.maxFiles || header.size < 0 || header.size > limits.maxFilesBytes) {
            broken = true;
            return;
          }
          current = { name: header.file, size: header.size, parts: [], got: 0 };
        } else if (header && typeof header === 'object' && 'exit' in header && typeof header.exit === 'number') {
          exitCode = header.exit;
          if ('skipped' in header && Array.isArray(header.skipped)) {
            skipped = header.skipped
              .filter((s): s is [string, number] => Array.isArray(s) && typeof s[0] === 'string' && typeof s[1] === 'number')
              .map(([name, size]) => ({ name, size }));
          }
        } else {
          broken = true;
          return;
        }
      }
    });
    report.on('error', () => undefined);
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(code);

    child.on('error', (e) => {
      clearTimeout(timer);
      clearInterval(oomPoll);
      signal?.removeEventListener('abort', onAbort);
      void cgroup?.remove();
      reject(e);
    });
    child.on('close', async () => {
      clearTimeout(timer);
      clearInterval(oomPoll);
      signal?.removeEventListener('abort', onAbort);
      if (cgroup) {
        if (cgroup.oomKills() > 0) stop ??= 'memory';
        await cgroup.remove();
      }
      const complete = exitCode !== null && !broken;
      resolve({
        exitCode: complete ? exitCode : null,
        stop: stop ?? (complete ? null : 'lost'),
        stdout: text(out.kept),
        stderr: text(err.kept),
        stdoutTruncated: out.truncated,
        stderrTruncated: err.truncated,
        files: complete ? files : [],
        skipped,
        durationMs: Date.now() - started,
      });
    });
  });
}
