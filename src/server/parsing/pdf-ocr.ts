import { OPS, type PDFDocumentProxy } from './pdfjs';
import { PPOCR_UNAVAILABLE } from './image';
import { orientationNote, pageBudget, pageEngine, ppocrBlocks, tesseractBlocks } from './ocr';
import type { Block, Box } from './pdf-layout';
import type { Orientation, RgbImage } from './ppocr';
import type { Progress } from './protocol';

const IMAGE_OPS = new Set([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintImageXObjectRepeat, OPS.paintInlineImageXObjectGroup, OPS.paintImageMaskXObjectGroup, OPS.paintImageMaskXObjectRepeat]);

/** Scanned documents can be long; beyond this many pages without text, the rest is left unread. */
const MAX_OCR_PAGES = 100;
/** Render scale: 2.5 × 72 dpi = 180 dpi, enough for body text at a reasonable cost. */
const SCALE = 2.5;
/**
 * Pixels rendered for one page at most: an A3 page at 180 dpi is ~12.5 MP. A larger
 * page is rendered at a lower scale; one that would need less than 72 dpi is skipped (its text would
 * be unreadable, and a 5000-pt page at ×2.5 is 156 MP: 16 s and gigabytes for one page).
 */
export const MAX_OCR_PIXELS = 16_000_000;
const MIN_SCALE = 1;
/** OCR time for one document at most; the pages left are named in the notes. */
export const MAX_OCR_MS = 5 * 60_000;

/** The scale a page of `width` × `height` points is rendered at for OCR, or null when it is too large to read. */
export function ocrScale(width: number, height: number, maxPixels = MAX_OCR_PIXELS): number | null {
  const scale = Math.min(SCALE, Math.sqrt(maxPixels / Math.max(1, width * height)));
  return scale >= MIN_SCALE ? scale : null;
}

/**
 * @napi-rs/canvas implements the canvas API pdf.js draws on, under its own type names; this
 * runtime check lets it stand where pdf.js's types ask for an HTMLCanvasElement.
 */
function isCanvasLike(value: unknown): value is HTMLCanvasElement {
  return typeof value === 'object' && value !== null && 'getContext' in value && typeof value.getContext === 'function' && 'width' in value && 'height' in value;
}

/**
 * Pages without a text layer (scans) are rendered with pdf.js onto @napi-rs/canvas (pdf.js's
 * optional renderer in Node) and read with PP-OCR, or tesseract where its models do not load
 * (ocr.ts). Pages with a text layer never come here (pdf.ts). Returns paragraph blocks with their page
 * and the page box, the lines PP-OCR read (each with its own box: ocr.ts PageBlocks), plus notes for progress_texts.
 */
export async function ocrPdfPages(doc: PDFDocumentProxy, textless: number[], progress: Progress): Promise<{ blocks: Block[]; lines: Block[]; notes: string[] }> {
  // Only pages that paint an image can be scans; blank pages (common in books) are skipped.
  const pages: number[] = [];
  for (const n of textless) {
    const page = await doc.getPage(n);
    const ops = await page.getOperatorList();
    if (ops.fnArray.some((op) => IMAGE_OPS.has(op))) pages.push(n);
    page.cleanup();
  }
  if (!pages.length) return { blocks: [], lines: [], notes: [] };
  const engine = await pageEngine();
  const pageList = pages.length <= 10 ? pages.join('、') : `${pages.slice(0, 10).join('、')} 等`;
  if (engine.engine === 'none') return { blocks: [], lines: [], notes: [`第 ${pageList} 页没有文字层（可能是扫描件），服务器未安装 tesseract，未做文字识别`] };
  let createCanvas: typeof import('@napi-rs/canvas').createCanvas;
  try {
    ({ createCanvas } = await import('@napi-rs/canvas'));
  } catch {
    return { blocks: [], lines: [], notes: [`第 ${pageList} 页没有文字层（可能是扫描件），缺少渲染组件，未做文字识别`] };
  }
  const todo = pages.slice(0, MAX_OCR_PAGES);
  const blocks: Block[] = [];
  const lines: Block[] = [];
  const tooLarge: number[] = [];
  let unread: number[] = [];
  const cut: number[] = [];
  const turned: Array<{ page: number; orientation: Orientation }> = [];
  const started = Date.now();
  progress(60, `第 ${pageList} 页没有文字层，正在用 OCR 识别`);
  for (let i = 0; i < todo.length; i++) {
    const n = todo[i]!;
    if (Date.now() - started > MAX_OCR_MS) {
      unread = todo.slice(i);
      break;
    }
    const page = await doc.getPage(n);
    const size = page.getViewport({ scale: 1 });
    const scale = ocrScale(size.width, size.height);
    if (scale === null) {
      tooLarge.push(n);
      page.cleanup();
      continue;
    }
    const viewport = page.getViewport({ scale });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = 'white';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    if (!isCanvasLike(canvas)) throw new Error('canvas unavailable');
    await page.render({ canvas, viewport }).promise;
    const rgba = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    const rgb = new Uint8Array(canvas.width * canvas.height * 3);
    for (let p = 0, q = 0; p < rgba.length; p += 4, q += 3) {
      rgb[q] = rgba[p]!;
      rgb[q + 1] = rgba[p + 1]!;
      rgb[q + 2] = rgba[p + 2]!;
    }
    const img: RgbImage = { data: rgb, width: canvas.width, height: canvas.height };
    if (engine.engine === 'ppocr') {
      // A page's time is bounded; so is the document's.
      const read = await ppocrBlocks(img, n, (x, y) => viewport.convertToPdfPoint(x, y) as [number, number], scale, page.view as Box, pageBudget(started + MAX_OCR_MS));
      blocks.push(...read.blocks);
      lines.push(...read.lines);
      if (read.orientation) turned.push({ page: n, orientation: read.orientation });
      if (!read.complete) cut.push(n);
    } else {
      blocks.push(...(await tesseractBlocks(img, n, page.view as Box, engine.langs)));
    }
    page.cleanup();
    progress(60 + ((i + 1) / todo.length) * 28);
  }
  const list = (ns: number[]) => (ns.length <= 10 ? ns.join('、') : `${ns.slice(0, 10).join('、')} 等`);
  const read = todo.filter((n) => !tooLarge.includes(n) && !unread.includes(n));
  const notes = read.length ? [`第 ${list(read)} 页为扫描图像，已用 OCR 识别文字`] : [];
  notes.push(...orientationNote(turned));
  if (cut.length) notes.push(`第 ${list(cut)} 页文字识别超过时限，部分文字未识别`);
  if (engine.engine === 'tesseract' && read.length) notes.push(PPOCR_UNAVAILABLE);
  if (tooLarge.length) notes.push(`第 ${list(tooLarge)} 页页面过大，已跳过识别`);
  if (unread.length) notes.push(`文字识别用时超过 ${MAX_OCR_MS / 60_000} 分钟，第 ${list(unread)} 页未识别`);
  if (pages.length > todo.length) notes.push(`扫描页过多，只识别了前 ${todo.length} 页`);
  return { blocks, lines, notes };
}
