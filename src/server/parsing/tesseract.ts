import { execFile } from 'node:child_process';

const run = (cmd: string, args: string[], timeoutMs: number) =>
  new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    // One OpenMP thread: tesseract's default thread pool oversubscribes small machines (≈6× slower on 2 cores).
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024, encoding: 'utf8', env: { ...process.env, OMP_THREAD_LIMIT: '1' } }, (err, stdout, stderr) =>
      err ? reject(Object.assign(err, { stderr })) : resolve({ stdout, stderr }),
    );
  });

let languages: { path: string | undefined; list: Promise<string[] | null> } | undefined;
/** The tesseract languages installed, or null when tesseract is not there (found again when PATH changes). */
export function ocrLanguages(): Promise<string[] | null> {
  if (languages && languages.path === process.env.PATH) return languages.list;
  const list = run('tesseract', ['--list-langs'], 10_000)
    .then(({ stdout, stderr }) => (stdout + stderr).split('\n').map((l) => l.trim()).filter((l) => /^[a-z_]+$/.test(l) && l !== 'osd'))
    .catch(() => null);
  languages = { path: process.env.PATH, list };
  return list;
}

/** The text of an image file, read with the given tesseract languages (Chinese spacing removed). */
export async function ocrText(file: string, langs: string[]): Promise<string> {
  const { stdout } = await run('tesseract', [file, 'stdout', '-l', langs.join('+') || 'eng', '--psm', '3'], 5 * 60_000);
  // tesseract puts spaces between Chinese characters; a reader does not.
  return stdout
    .replace(/\f/g, '')
    .replace(/(\p{Script=Han}) +(?=\p{Script=Han})/gu, '$1')
    .replace(/[ \t]+\n/g, '\n')
    .trim();
}

/** The OCR languages to use: Chinese and English where installed. */
export const ocrLanguagesWanted = (installed: string[]) => ['chi_sim', 'eng'].filter((l) => installed.includes(l));
