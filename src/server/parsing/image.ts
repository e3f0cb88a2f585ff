import { execFile } from 'node:child_process';
import { chunkText } from './chunks';
import type { ParseResult, Progress } from './protocol';

const run = (cmd: string, args: string[], timeoutMs: number) =>
  new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    // One OpenMP thread: tesseract's default thread pool oversubscribes small machines (≈6× slower on 2 cores).
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024, encoding: 'utf8', env: { ...process.env, OMP_THREAD_LIMIT: '1' } }, (err, stdout, stderr) =>
      err ? reject(Object.assign(err, { stderr })) : resolve({ stdout, stderr }),
    );
  });

let languages: Promise<string[] | null> | undefined;
/** The tesseract languages installed, or null when tesseract is not there. */
export function ocrLanguages(): Promise<string[] | null> {
  languages ??= run('tesseract', ['--list-langs'], 10_000)
    .then(({ stdout, stderr }) => (stdout + stderr).split('\n').map((l) => l.trim()).filter((l) => /^[a-z_]+$/.test(l) && l !== 'osd'))
    .catch(() => null);
  return languages;
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

export const OCR_UNAVAILABLE = 'OCR 不可用：服务器未安装 tesseract，图片未做文字识别';

/** Image → OCR text (Chinese and English) with the tesseract command from Debian's packages. */
export async function parseImage(file: string, title: string, progress: Progress): Promise<ParseResult> {
  const langs = await ocrLanguages();
  if (!langs) return { markdown: `# ${title}\n`, pageCount: 1, chunks: [], molecules: [], notes: [OCR_UNAVAILABLE] };
  const wanted = ['chi_sim', 'eng'].filter((l) => langs.includes(l));
  const notes = wanted.includes('chi_sim') ? [] : ['未安装中文识别数据（tesseract-ocr-chi-sim），只识别英文'];
  progress(10, '正在识别图片中的文字');
  const text = await ocrText(file, wanted);
  progress(90, '文字识别完成');
  if (!text) notes.push('图片中没有识别到文字');
  return { markdown: `# ${title}\n\n${text}\n`, pageCount: 1, chunks: chunkText(text, 1), molecules: [], notes };
}
