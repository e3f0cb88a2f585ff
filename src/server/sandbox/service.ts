import type { CodeExecutionResult } from '../../contract/code';
import type { Config } from '../config';
import type { ArtifactOwner, ArtifactQuota, ArtifactStore } from './artifacts';
import { probeSandbox, runSandboxed, type SandboxInput, type SandboxLimits, type SandboxPrograms, type SandboxResult } from './runner';

const MB = 2 ** 20;

/** The limits of one run from the configuration (README table, CSAI_SANDBOX_*). */
export function sandboxLimits(config: Config): SandboxLimits {
  return {
    timeoutMs: config.CSAI_SANDBOX_TIMEOUT_MS,
    cpuSeconds: config.CSAI_SANDBOX_CPU_SECONDS,
    memoryBytes: config.CSAI_SANDBOX_MEMORY_MB * MB,
    processes: config.CSAI_SANDBOX_PROCESSES,
    fileBytes: config.CSAI_SANDBOX_FILE_SIZE_MB * MB,
    diskBytes: config.CSAI_SANDBOX_DISK_MB * MB,
    outputBytes: config.CSAI_SANDBOX_OUTPUT_KB * 1024,
    maxFiles: 20,
    maxFilesBytes: Math.min(20 * MB, config.CSAI_SANDBOX_DISK_MB * MB),
  };
}

/** The files one user's runs may keep (README table, CSAI_ARTIFACT_QUOTA_*). */
export const artifactQuota = (config: Config): ArtifactQuota => ({ bytes: config.CSAI_ARTIFACT_QUOTA_MB * MB, files: config.CSAI_ARTIFACT_QUOTA_FILES });

export const sandboxPrograms = (config: Config): SandboxPrograms => ({ bwrap: config.CSAI_SANDBOX_BWRAP, python: config.CSAI_SANDBOX_PYTHON });

/** SIGXCPU, SIGXFSZ, SIGKILL as the launcher reports them (negative exit codes). */
const SIGXCPU = -24;
const SIGXFSZ = -25;
const SIGKILL = -9;

const size = (bytes: number) => (bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`);

/** One Chinese sentence on how the run ended, with what the limits explain. */
export function describeRun(r: SandboxResult, limits: SandboxLimits): Pick<CodeExecutionResult, 'status' | 'message'> {
  const notes: string[] = [];
  const err = r.stderr;
  if (r.stop !== 'memory' && /MemoryError|Cannot allocate memory|std::bad_alloc|numpy\.core\._exceptions\._ArrayMemoryError|Unable to allocate/.test(err)) {
    notes.push(`内存超过上限（${size(limits.memoryBytes)}）`);
  }
  if (/BlockingIOError|Resource temporarily unavailable|can't start new thread/.test(err)) notes.push(`进程或线程数超过上限（${limits.processes}）`);
  if (/Network is unreachable|Name or service not known|Temporary failure in name resolution|No address associated/.test(err)) notes.push('沙箱内没有网络连接');
  if (/Read-only file system|Permission denied/.test(err)) notes.push('沙箱内只有工作目录 /work 和 /tmp 可以写入，系统目录只读');
  if (/No space left on device|File too large/.test(err)) notes.push(`写入超过上限（单个文件 ${size(limits.fileBytes)}，工作目录 ${size(limits.diskBytes)}）`);
  if (r.stdoutTruncated || r.stderrTruncated) notes.push(`输出超过 ${size(limits.outputBytes)}，其余部分已截断`);
  if (r.skipped.length) notes.push(`${r.skipped.length} 个文件超过保留上限（最多 ${limits.maxFiles} 个、共 ${size(limits.maxFilesBytes)}），未保留`);
  const tail = notes.length ? `：${notes.join('；')}` : '';
  switch (r.stop) {
    case 'timeout':
      return { status: 'timeout', message: `运行超过时间上限（${Math.round(limits.timeoutMs / 1000)} 秒），程序已被停止${tail}` };
    case 'memory':
      return { status: 'memory_limit', message: `内存超过上限（整次运行的所有进程合计 ${size(limits.memoryBytes)}），程序已被停止${tail}` };
    case 'output':
      return { status: 'output_limit', message: `输出过多（超过 ${size(limits.outputBytes * 16)}），程序已被停止${tail}` };
    case 'stopped':
      return { status: 'stopped', message: `运行已被停止${tail}` };
    case 'lost':
      if (/^bwrap: /.test(r.stderr)) return { status: 'lost', message: `沙箱未能启动（${r.stderr.split('\n')[0]!.slice(0, 200)}），代码没有运行` };
      return { status: 'lost', message: `沙箱没有返回运行结果（程序终止了沙箱的监控进程或被强制结束），本次运行的文件未保留${tail}` };
    default:
      break;
  }
  if (r.exitCode === 0) return { status: 'ok', message: `运行完成${tail}` };
  // The CPU limit is a time limit too: an idle machine reaches it before the wall clock.
  if (r.exitCode === SIGXCPU) return { status: 'timeout', message: `运行超过时间上限（CPU 时间 ${limits.cpuSeconds} 秒），程序已被停止${tail}` };
  if (r.exitCode === SIGXFSZ) return { status: 'error', message: `写入的文件超过大小上限（${size(limits.fileBytes)}），程序已被停止${tail}` };
  if (r.exitCode === SIGKILL) return { status: 'error', message: `程序被强制结束（可能超过了内存或进程数上限）${tail}` };
  if (r.exitCode !== null && r.exitCode < 0) return { status: 'error', message: `程序被信号 ${-r.exitCode} 终止${tail}` };
  return { status: 'error', message: `程序出错退出（退出码 ${String(r.exitCode)}），错误信息见 stderr${tail}` };
}

/** The sandbox as the tool and the route use it: availability (checked once), runs, artifacts. */
export function createSandbox(config: Config, artifacts: ArtifactStore) {
  const programs = sandboxPrograms(config);
  const limits = sandboxLimits(config);
  const quota = artifactQuota(config);
  let probed: ReturnType<typeof probeSandbox> | undefined;
  return {
    limits,
    availability() {
      probed ??= probeSandbox(programs);
      return probed;
    },
    /** Runs code for a user (and a question), keeping its files as their artifacts. */
    async run(owner: ArtifactOwner, code: string, inputs: readonly SandboxInput[], signal?: AbortSignal): Promise<CodeExecutionResult> {
      const r = await runSandboxed(programs, limits, code, inputs, signal);
      const { saved, overQuota } = await artifacts.save(owner, r.files, quota);
      const described = describeRun(r, limits);
      if (overQuota) described.message += `；生成的 ${r.files.length} 个文件会超过你的存储上限（共 ${size(quota.bytes)} 或 ${quota.files} 个文件），未保留`;
      return {
        ...described,
        exit_code: r.exitCode,
        stdout: r.stdout,
        stderr: r.stderr,
        stdout_truncated: r.stdoutTruncated,
        stderr_truncated: r.stderrTruncated,
        inputs: inputs.map((i) => i.name),
        artifacts: saved,
        skipped_files: r.skipped,
        duration_ms: r.durationMs,
      };
    },
  };
}

export type Sandbox = ReturnType<typeof createSandbox>;
