import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** What to run when Vina or Open Babel is missing (Debian packages, also installed by `npm run setup`). */
export const DOCKING_INSTALL_HINT =
  '对接需要 AutoDock Vina、Open Babel、RDKit（Python）与 PLIP：请运行 `npm run setup`，或以 root 身份执行 `apt-get install -y autodock-vina openbabel python3-rdkit plip python3-pdbfixer`';

/** The first executable `name` on PATH, or undefined. */
export function findProgram(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Debian's Python, which runs the pose script (src/server/docking/dock_poses.py) with RDKit and PLIP. */
export const DOCKING_PYTHON = '/usr/bin/python3';
/** Where Debian installs the Python packages the script imports. */
const PYTHON_PACKAGES: Array<[string, string]> = [
  ['python3-rdkit', '/usr/lib/python3/dist-packages/rdkit'],
  ['plip', '/usr/lib/python3/dist-packages/plip'],
  ['python3-pdbfixer', '/usr/lib/python3/dist-packages/pdbfixer'],
];

/** The Debian packages the pose script needs that are missing. */
export function missingPosePackages(): string[] {
  if (!fs.existsSync(DOCKING_PYTHON)) return ['python3', ...PYTHON_PACKAGES.map(([name]) => name)];
  return PYTHON_PACKAGES.filter(([, dir]) => !fs.existsSync(dir)).map(([name]) => name);
}

/** The programs docking needs that are not installed (checked on each call: installing them enables the tools without a restart). */
export const missingPrograms = () => [...['vina', 'obabel'].filter((p) => !findProgram(p)), ...missingPosePackages()];

/** A program ended with a non-zero status, was killed, or could not start. */
export class ProgramError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    readonly killed: boolean,
  ) {
    super(message);
    this.name = 'ProgramError';
  }
}

export interface RunOptions {
  cwd?: string;
  input?: string;
  signal?: AbortSignal;
  /** Each chunk of standard output as it comes. */
  onStdout?: (chunk: string) => void;
  /** Largest output kept, per stream. */
  maxOutput?: number;
  /** Called with the child's pid once it runs (its process group id too). */
  onSpawn?: (pid: number) => void;
}

/**
 * Address space Vina and Open Babel may use (RLIMIT_AS, set through util-linux's prlimit): a huge
 * ligand once made Vina take 8 GB and still grow.
 */
export const PROGRAM_MEMORY_BYTES = 4 * 1024 ** 3;

/**
 * Runs a program in its own process group; the signal kills the whole group (SIGKILL), so a stop
 * takes effect at once, threads and any children included.
 */
export function runProgram(program: string, args: string[], opts: RunOptions = {}): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new ProgramError(`${program} stopped`, '', true));
    // prlimit sets the limit and then execs the program (same pid, same process group).
    const prlimit = findProgram('prlimit');
    const [file, argv] = prlimit ? [prlimit, [`--as=${PROGRAM_MEMORY_BYTES}`, '--', program, ...args]] : [program, args];
    const child = spawn(file, argv, { cwd: opts.cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const max = opts.maxOutput ?? 8 * 1024 * 1024;
    let stdout = '';
    let stderr = '';
    let killed = false;
    const kill = () => {
      killed = true;
      if (child.pid) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    };
    opts.signal?.addEventListener('abort', kill, { once: true });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stdout.length < max) stdout += chunk;
      opts.onStdout?.(chunk);
    });
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < max) stderr += chunk;
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
    child.on('spawn', () => {
      if (child.pid) opts.onSpawn?.(child.pid);
    });
    child.on('error', (err) => {
      opts.signal?.removeEventListener('abort', kill);
      reject(new ProgramError(`${program} could not start: ${err.message}`, stderr, killed));
    });
    child.on('close', (code, sig) => {
      opts.signal?.removeEventListener('abort', kill);
      if (code === 0 && !killed) resolve({ stdout, stderr });
      else reject(new ProgramError(`${program} ended with ${sig ?? `status ${String(code)}`}`, stderr, killed || sig !== null));
    });
  });
}
