import { execFile } from 'node:child_process';

/** One structure OSRA printed: the molecule with OSRA's coordinates, its own confidence estimate and its box in the image's pixels (top-left origin). */
export interface OsraHit {
  /** An MDL molfile (V2000) with the 2D coordinates of the atoms where OSRA found them; RDKit reads it. */
  molfile: string;
  /** OSRA's confidence estimate (roughly −5…5; above 0 is usually right). */
  score: number;
  /** [left, top, right, bottom] in pixels of the image read, or null when OSRA printed none. */
  box: [number, number, number, number] | null;
  /** The drawing's average bond length in pixels of the image read (0 when OSRA printed none). */
  bondPx: number;
}

/**
 * What to install when `osra` is missing (progress texts say it): drawings in a PDF's vector graphics
 * are still read (vector.ts), pictures and scanned pages are not.
 */
export const OSRA_MISSING = '服务器未安装 osra（Debian 软件包 osra），未识别图片和扫描页中的化学结构';

/** Runs `osra` with one thread; resolves stdout, rejects with the error (code ENOENT when missing). */
function run(args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('osra', args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 4 * 1024 * 1024, encoding: 'utf8', env: { ...process.env, OMP_THREAD_LIMIT: '1', OMP_NUM_THREADS: '1' } }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
  });
}

let found: { path: string | undefined; version: Promise<string | null> } | undefined;
/** OSRA's version, or null when the command is not there (looked up again when PATH changes). */
export function osraVersion(): Promise<string | null> {
  if (found && found.path === process.env.PATH) return found.version;
  const version = run(['--version'], 15_000)
    .then((out) => out.match(/\d+\.\d+(\.\d+)?/)?.[0] ?? 'unknown')
    .catch((err: NodeJS.ErrnoException & { stdout?: string }) => (err.code === 'ENOENT' ? null : 'unknown'));
  found = { path: process.env.PATH, version };
  return version;
}

/**
 * Parses `osra -f sdf -p -c -b` output: one molfile per structure, with its confidence estimate, its
 * box ("x1xy1-x2xy2") and its average bond length in pixels as data items.
 */
export function parseOsraSdf(out: string): OsraHit[] {
  const hits: OsraHit[] = [];
  for (const record of out.split(/^\$\$\$\$\s*$/m)) {
    // The molfile: its three header lines, the counts line ("… V2000") and its blocks up to M  END.
    const lines = record.split('\n');
    const counts = lines.findIndex((l) => /V2000\s*$/.test(l));
    const end = lines.findIndex((l) => l.startsWith('M  END'));
    if (counts < 0 || end < counts) continue;
    const header = lines.slice(Math.max(0, counts - 3), counts);
    while (header.length < 3) header.unshift('');
    const molfile = [...header, ...lines.slice(counts, end + 1)].join('\n');
    const item = (name: string) => record.match(new RegExp(`^>\\s*<${name}>\\s*\\n([^\\n]*)`, 'm'))?.[1]?.trim();
    const score = Number(item('Confidence_estimate'));
    const m = item('Surrounding_box')?.match(/^(-?\d+)x(-?\d+)-(-?\d+)x(-?\d+)$/);
    const bondPx = Number(item('Average_bond_length'));
    hits.push({ molfile, score: Number.isFinite(score) ? score : 0, box: m ? [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] : null, bondPx: Number.isFinite(bondPx) && bondPx > 0 ? bondPx : 0 });
  }
  return hits;
}

/**
 * Reads the structures drawn in an image file with OSRA. `resolution` tells OSRA the image's dpi
 * (it guesses otherwise); the run is killed after `timeoutMs`. A run that fails or times out finds nothing.
 */
export async function readStructures(file: string, { resolution, timeoutMs }: { resolution?: number; timeoutMs: number }): Promise<{ hits: OsraHit[]; timedOut: boolean; missing: boolean }> {
  const args = ['-f', 'sdf', '-p', '-c', '-b', ...(resolution ? ['-r', String(resolution)] : []), file];
  try {
    return { hits: parseOsraSdf(await run(args, Math.max(1000, timeoutMs))), timedOut: false, missing: false };
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { killed?: boolean };
    return { hits: [], timedOut: !!e.killed, missing: e.code === 'ENOENT' };
  }
}
