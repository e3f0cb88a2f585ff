import { chunkBlocks, chunkText } from './chunks';
import { toMarkdown } from './pdf-layout';
import { orientationNote, pageBudget, pageEngine, ppocrBlocks, textBoxesOf } from './ocr';
import { readImageFile } from './ppocr';
import { ocrText } from './tesseract';
import sharp from 'sharp';
import type { ParseResult, Progress } from './protocol';
import { extractActivities, sentenceActivities } from './chemistry/activities';
import { labelCandidates } from './chemistry/labels';

export const OCR_UNAVAILABLE = 'OCR 不可用：服务器未安装 tesseract，图片未做文字识别';

/** An image of more pixels than this is not read (a decompression bomb: a small file of a huge picture). */
export const MAX_IMAGE_PIXELS = 100_000_000;
/** An image is read at this many pixels at most (scaled down when larger): a 16 MP photo keeps 13 px type readable. */
export const MAX_READ_PIXELS = 16_000_000;

/**
 * Image → text (Chinese and English) with PP-OCR (ocr.ts) where its models load, laid out into
 * blocks whose boxes are in the image's pixels (origin bottom-left, as PDF points); else with the
 * tesseract command from Debian's packages.
 */
export async function parseImage(file: string, title: string, progress: Progress): Promise<ParseResult> {
  const engine = await pageEngine();
  if (engine.engine === 'ppocr') {
    const meta = await sharp(file, { limitInputPixels: false }).metadata();
    const [w, h] = meta.orientation && meta.orientation >= 5 ? [meta.height ?? 0, meta.width ?? 0] : [meta.width ?? 0, meta.height ?? 0];
    if (!w || !h) throw new Error('unreadable image');
    if (w * h > MAX_IMAGE_PIXELS) return { markdown: `# ${title}\n`, pageCount: 1, chunks: [], molecules: [], notes: [`图片过大（${w} × ${h} 像素，超过 ${MAX_IMAGE_PIXELS / 1e6} 百万像素），未做文字识别`] };
    progress(10, '正在识别图片中的文字');
    const img = await readImageFile(file, MAX_IMAGE_PIXELS, MAX_READ_PIXELS);
    // Boxes in the file's own pixels, bottom-up.
    const f = w / img.width;
    const page = await ppocrBlocks(img, 1, (x, y) => [x * f, (img.height - y) * f], 1 / f, [0, 0, w, h], pageBudget());
    progress(90, '文字识别完成');
    const notes = orientationNote(page.orientation ? [{ page: 1, orientation: page.orientation }] : [], false);
    if (!page.complete) notes.push('文字识别超过时限，部分文字未识别');
    if (!page.blocks.length) notes.push('图片中没有识别到文字');
    const body = toMarkdown(page.blocks).replace(/^<!-- page 1 -->\n*/, '');
    // Labels and text boxes for the structure step from the OCR'd lines, each with its own box (as a scanned PDF's: pdf.ts).
    return {
      markdown: `# ${title}\n\n${body}\n`,
      pageCount: 1,
      chunks: chunkBlocks(page.blocks),
      molecules: [],
      activities: extractActivities(page.blocks),
      labelBlocks: labelCandidates(page.lines),
      textBoxes: textBoxesOf(page.lines),
      notes,
    };
  }
  if (engine.engine === 'none') return { markdown: `# ${title}\n`, pageCount: 1, chunks: [], molecules: [], notes: [OCR_UNAVAILABLE] };
  const wanted = engine.langs;
  const notes = wanted.includes('chi_sim') ? [] : ['未安装中文识别数据（tesseract-ocr-chi-sim），只识别英文'];
  notes.push(PPOCR_UNAVAILABLE);
  progress(10, '正在识别图片中的文字');
  const text = await ocrText(file, wanted);
  progress(90, '文字识别完成');
  if (!text) notes.push('图片中没有识别到文字');
  return { markdown: `# ${title}\n\n${text}\n`, pageCount: 1, chunks: chunkText(text, 1), molecules: [], activities: sentenceActivities(text, { page: 1, bbox: null }), notes };
}

/** The note of a document read with tesseract because PP-OCR's models did not load. */
export const PPOCR_UNAVAILABLE = 'PP-OCR 识别模型无法加载，已改用 tesseract 识别文字';
