import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * How the memory of a sandboxed run is capped. With a memory cgroup (v2, or the v1 memory
 * controller) the run — every process it starts, and what it writes to its tmpfs — shares one
 * cap; without one, prlimit caps each process's address space only (several processes together
 * may use more).
 */
export type MemoryCap =
  | { kind: 'cgroup2' | 'cgroup1'; /** Directory the runs' cgroups are made in. */ parent: string }
  | { kind: 'prlimit'; /** Why no cgroup could be used (Chinese, for /test and the log). */ reason: string };

/** One run's cgroup: the file its first process writes itself into, the OOM kills so far, removal. */
export interface RunCgroup {
  procs: string;
  oomKills(): number;
  /** Kills what is left in it and removes it (retrying while the kernel empties it). */
  remove(): Promise<void>;
}

const PREFIX = 'csai-run-';

interface Mount {
  root: string;
  point: string;
  type: string;
  superOptions: string[];
}

/** /proc/self/mountinfo: "id parent maj:min root mountpoint options [optional…] - type source superoptions". */
function mounts(): Mount[] {
  const out: Mount[] = [];
  for (const line of fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const f = left.split(' ');
    const r = right.split(' ');
    if (f.length < 5 || r.length < 3) continue;
    const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    out.push({ root: unescape(f[3]!), point: unescape(f[4]!), type: r[0]!, superOptions: r[2]!.split(',') });
  }
  return out;
}

/** The process's cgroup in a hierarchy, as a directory under the mount (undefined when the mount does not show it). */
function ourDir(mount: Mount, cgroupPath: string): string | undefined {
  const rel = path.posix.relative(mount.root, cgroupPath);
  if (rel.startsWith('..')) return undefined;
  return path.join(mount.point, rel);
}

const read = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** Where memory cgroups can be made for runs, tried in order: cgroup v2 with the memory controller, then the v1 memory controller. */
function candidates(): { found: Array<{ kind: 'cgroup2' | 'cgroup1'; parent: string }>; why: string[] } {
  const why: string[] = [];
  const found: Array<{ kind: 'cgroup2' | 'cgroup1'; parent: string }> = [];
  let lines: string[];
  let all: Mount[];
  try {
    lines = fs.readFileSync('/proc/self/cgroup', 'utf8').split('\n').filter(Boolean);
    all = mounts();
  } catch {
    return { found, why: ['无法读取 /proc/self/cgroup'] };
  }
  const v2Path = lines.find((l) => l.startsWith('0::'))?.slice(3);
  const v2 = all.find((m) => m.type === 'cgroup2');
  if (v2 && v2Path !== undefined) {
    const dir = ourDir(v2, v2Path);
    // Children of our cgroup's parent get the memory controller when the parent hands it down
    // (our own cgroup holds processes, so cgroup v2 lets it have none with controllers below it).
    const parent = dir === undefined ? undefined : v2Path === '/' || dir === v2.point ? dir : path.dirname(dir);
    if (parent && read(path.join(parent, 'cgroup.subtree_control')).split(/\s+/).includes('memory')) found.push({ kind: 'cgroup2', parent });
    else why.push(`cgroup v2（${v2.point}）未启用内存控制器`);
  } else {
    why.push('没有 cgroup v2');
  }
  const v1 = all.find((m) => m.type === 'cgroup' && m.superOptions.includes('memory'));
  const v1Path = lines.map((l) => l.split(':')).find((p) => p.length >= 3 && p[1]!.split(',').includes('memory'))?.slice(2).join(':');
  if (v1 && v1Path !== undefined) {
    const dir = ourDir(v1, v1Path);
    if (dir) found.push({ kind: 'cgroup1', parent: dir });
    else why.push('cgroup v1 内存控制器不可见');
  } else {
    why.push('没有 cgroup v1 内存控制器');
  }
  return { found, why };
}

const limitFiles = (kind: 'cgroup2' | 'cgroup1') =>
  kind === 'cgroup2'
    ? { limit: 'memory.max', swap: 'memory.swap.max', swapValue: () => '0', events: 'memory.events' }
    : { limit: 'memory.limit_in_bytes', swap: 'memory.memsw.limit_in_bytes', swapValue: (bytes: number) => String(bytes), events: 'memory.oom_control' };

/** Makes a run's cgroup with the cap; throws when the kernel refuses. */
function make(cap: Extract<MemoryCap, { kind: 'cgroup2' | 'cgroup1' }>, memoryBytes: number): RunCgroup {
  const dir = path.join(cap.parent, `${PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  fs.mkdirSync(dir);
  const files = limitFiles(cap.kind);
  try {
    fs.writeFileSync(path.join(dir, files.limit), String(memoryBytes));
    // No swap beyond the cap (absent when the kernel accounts no swap).
    if (fs.existsSync(path.join(dir, files.swap))) {
      try {
        fs.writeFileSync(path.join(dir, files.swap), files.swapValue(memoryBytes));
      } catch {
        // swap accounting off: the memory cap still holds
      }
    }
  } catch (err) {
    fs.rmdirSync(dir);
    throw err;
  }
  const oomKills = () => Number(/(?:^|\n)oom_kill (\d+)/.exec(read(path.join(dir, files.events)))?.[1] ?? 0);
  return {
    procs: path.join(dir, 'cgroup.procs'),
    oomKills,
    async remove() {
      for (let attempt = 0; attempt < 20; attempt++) {
        for (const pid of read(path.join(dir, 'cgroup.procs')).split('\n').filter(Boolean)) {
          try {
            process.kill(Number(pid), 'SIGKILL');
          } catch {
            // already gone
          }
        }
        try {
          fs.rmdirSync(dir);
          return;
        } catch (err) {
          if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    },
  };
}

let probed: MemoryCap | undefined;

/** Whether a process with this id exists (EPERM: it does, under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err instanceof Error && 'code' in err && err.code === 'EPERM';
  }
}

/**
 * Which memory cap runs get here (checked once): a cgroup made and removed as a trial decides.
 * Left-over run cgroups of earlier server processes are removed on the way.
 */
export function memoryCap(): MemoryCap {
  if (probed) return probed;
  if (process.platform !== 'linux') return (probed = { kind: 'prlimit', reason: '不是 Linux' });
  const { found, why } = candidates();
  for (const cap of found) {
    try {
      for (const name of fs.readdirSync(cap.parent)) {
        if (!name.startsWith(PREFIX)) continue;
        const pid = Number(name.slice(PREFIX.length).split('-')[0]);
        // Only those of processes that are gone: a live server's empty cgroup may be a run it is
        // just starting (made, its process not yet moved in), which removing here would lose.
        if (pid === process.pid || !Number.isInteger(pid) || alive(pid)) continue;
        try {
          fs.rmdirSync(path.join(cap.parent, name));
        } catch {
          // still in use (another server) or not empty
        }
      }
      const trial = make(cap, 64 * 2 ** 20);
      fs.rmdirSync(path.dirname(trial.procs));
      return (probed = cap);
    } catch (err) {
      why.push(`无法在 ${cap.parent} 创建 cgroup（${err instanceof Error && 'code' in err ? String(err.code) : String(err)}）`);
    }
  }
  return (probed = { kind: 'prlimit', reason: why.join('；') });
}

/** The run's cgroup when runs are capped by cgroup; undefined with prlimit only. */
export function runCgroup(memoryBytes: number): RunCgroup | undefined {
  const cap = memoryCap();
  return cap.kind === 'prlimit' ? undefined : make(cap, memoryBytes);
}

/** One Chinese sentence on the memory cap in force, for /test and the log. */
export function describeMemoryCap(cap: MemoryCap, memoryBytes: number): string {
  const mb = Math.round(memoryBytes / 2 ** 20);
  if (cap.kind === 'prlimit') return `内存上限：每个进程 ${mb} MB（prlimit；多个进程合计可能超出，因为 ${cap.reason}）`;
  return `内存上限：每次运行所有进程合计 ${mb} MB（${cap.kind === 'cgroup2' ? 'cgroup v2' : 'cgroup v1 内存控制器'}）`;
}
