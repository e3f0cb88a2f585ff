import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { OPS, openDocument, type TextItem } from '../pdfjs';
import type { Box } from '../pdf-layout';
import type { ParsedStructure, Progress } from '../protocol';
import { OSRA_MISSING, osraVersion } from './osra';
import { loadRdkit } from '../../chem/rdkit-loader';
import { readPage, type PageReading, type VectorReading } from './recognize';
import type { Gray, PixelBox } from './regions';
import { pageGraphics, readVectorPage, textRuns } from './vector';

const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** Pages are read at this resolution (OSRA's own default for scans). */
export const DPI = 300;
/** A page's render at most this many pixels (a larger page is read at a lower resolution, down to 100 dpi). */
const MAX_PAGE_PIXELS = 20_000_000;
const MIN_DPI = 100;
/** Time for one page's structures at most, and for one document's. */
export const PAGE_MS = 60_000;
export const DOCUMENT_MS = 3 * 60_000;
/** Pages searched for drawings at most. */
export const MAX_PAGES = 300;
/** An image of more pixels than this is not read (as parsing/image.ts). */
const MAX_IMAGE_PIXELS = 100_000_000;
/** An image is read at this many pixels at most (scaled down when larger). */
const MAX_READ_PIXELS = 20_000_000;

const IMAGE_OPS = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintImageXObjectRepeat, OPS.paintInlineImageXObjectGroup, OPS.paintImageMaskXObjectGroup, OPS.paintImageMaskXObjectRepeat]);
/** A page with fewer drawn paths than this and no image has no structure drawing (rules, underlines, table borders). */
const MIN_PATHS = 8;

export interface Limits {
  /**
   * The boxes (PDF points, origin bottom-left) of the lines OCR read on each page without a text
   * layer (a scan): they are no drawings. Lines, not passages: a passage's box spans the drawings
   * beside its text, and every drawing under it would be dropped.
   */
  textBoxes?: Map<number, Box[]>;
  pageMs?: number;
  documentMs?: number;
  maxPages?: number;
}

const list = (ns: number[]) => (ns.length <= 10 ? ns.join('、') : `${ns.slice(0, 10).join('、')} 等`);
const round = (b: number[]) => b.map((v) => Math.round(v * 100) / 100) as Box;

function isCanvasLike(value: unknown): value is HTMLCanvasElement {
  return typeof value === 'object' && value !== null && 'getContext' in value && typeof value.getContext === 'function' && 'width' in value && 'height' in value;
}

/** Notes for progress_texts from what the pages' readings reported. */
function notesOf(found: number, timedOut: number[], unread: number[], tooLarge: number[]): string[] {
  const notes: string[] = [];
  if (found) notes.push(`从图中识别出 ${found} 个化学结构`);
  if (timedOut.length) notes.push(`第 ${list(timedOut)} 页化学结构识别超过时限，部分结构未识别`);
  if (tooLarge.length) notes.push(`第 ${list(tooLarge)} 页页面过大，未识别化学结构`);
  if (unread.length) notes.push(`化学结构识别用时已到上限，第 ${list(unread)} 页未识别`);
  return notes;
}

/**
 * The structures drawn in a PDF: each page that paints paths or images is rendered
 * with pdf.js and read by readPage (recognize.ts); boxes come back in PDF points, origin bottom-left.
 * Progress is reported per page (a page boundary is where the pool may pause the parse). Time is
 * bounded per page and per document; pages left unread are named in the notes.
 */
export async function pdfStructures(file: string, progress: Progress, limits: Limits = {}): Promise<{ structures: ParsedStructure[]; notes: string[] }> {
  // Without osra, drawings are still read from the pages' drawing operators (vector.ts); pictures and scans are not.
  const osra = (await osraVersion()) !== null;
  let osraMissing = false;
  let createCanvas: typeof import('@napi-rs/canvas').createCanvas;
  try {
    ({ createCanvas } = await import('@napi-rs/canvas'));
  } catch {
    return { structures: [], notes: ['缺少渲染组件（@napi-rs/canvas），未识别图中的化学结构'] };
  }
  const data = new Uint8Array(await fs.readFile(file));
  const { task, close } = openDocument({
    data,
    isEvalSupported: false,
    cMapUrl: path.join(pdfjsRoot, 'cmaps') + path.sep,
    cMapPacked: true,
    standardFontDataUrl: path.join(pdfjsRoot, 'standard_fonts') + path.sep,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  });
  const structures: ParsedStructure[] = [];
  const timedOut: number[] = [];
  const tooLarge: number[] = [];
  let unread: number[] = [];
  const started = Date.now();
  const documentMs = limits.documentMs ?? DOCUMENT_MS;
  try {
    const doc = await task.promise;
    const pages = Math.min(doc.numPages, limits.maxPages ?? MAX_PAGES);
    if (doc.numPages > pages) unread = Array.from({ length: doc.numPages - pages }, (_, i) => pages + i + 1);
    for (let n = 1; n <= pages; n++) {
      if (Date.now() - started > documentMs) {
        unread = [...Array.from({ length: pages - n + 1 }, (_, i) => n + i), ...unread];
        break;
      }
      const page = await doc.getPage(n);
      try {
        const ops = await page.getOperatorList();
        const paths = ops.fnArray.filter((op) => op === OPS.constructPath).length;
        const images = ops.fnArray.some((op) => IMAGE_OPS.has(op));
        if (paths < MIN_PATHS && !images) continue;
        // A picture may hold a drawing that only OSRA reads.
        if (images && !osra) osraMissing = true;
        const size = page.getViewport({ scale: 1 });
        const dpi = Math.min(DPI, Math.floor(72 * Math.sqrt(MAX_PAGE_PIXELS / Math.max(1, size.width * size.height))));
        if (dpi < MIN_DPI) {
          tooLarge.push(n);
          continue;
        }
        progress((100 * (n - 1)) / pages, `正在识别结构式（第 ${n}/${pages} 页）`);
        const viewport = page.getViewport({ scale: dpi / 72 });
        const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
        const ctx = canvas.getContext('2d');
        ctx.fillStyle = 'white';
        ctx.fillRect(0, 0, canvas.width, canvas.height);
        if (!isCanvasLike(canvas)) throw new Error('canvas unavailable');
        await page.render({ canvas, viewport }).promise;
        const rgba = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        const gray = new Uint8Array(canvas.width * canvas.height);
        // The darkest channel, not the luminance: coloured atom labels (a yellow S, a cyan F) stay ink.
        for (let p = 0, q = 0; q < gray.length; p += 4, q++) gray[q] = Math.min(rgba[p]!, rgba[p + 1]!, rgba[p + 2]!);
        const items = (await page.getTextContent()).items;
        const vector = await vectorReadings(ops, items as TextItem[], viewport);
        const text: PixelBox[] = [];
        for (const item of items) {
          if (!('str' in item) || !(item as TextItem).str.trim()) continue;
          const t = (item as TextItem).transform as number[];
          const fontSize = Math.hypot(t[2] ?? 0, t[3] ?? 0) || (item as TextItem).height;
          const [a, b, c, d] = viewport.convertToViewportRectangle([t[4]!, t[5]! - 0.25 * fontSize, t[4]! + (item as TextItem).width, t[5]! + 0.85 * fontSize]) as number[];
          text.push([Math.min(a!, c!), Math.min(b!, d!), Math.max(a!, c!), Math.max(b!, d!)]);
        }
        // A page without a text layer is a scan: its OCR'd lines stand for its text, and it is read whole as well.
        const textLayer = text.length > 0;
        if (!textLayer) {
          for (const [x0, y0, x1, y1] of limits.textBoxes?.get(n) ?? []) {
            const [a, b, c, d] = viewport.convertToViewportRectangle([x0, y0, x1, y1]) as number[];
            text.push([Math.min(a!, c!), Math.min(b!, d!), Math.max(a!, c!), Math.max(b!, d!)]);
          }
        }
        const reading = await readPage({ data: gray, width: canvas.width, height: canvas.height }, dpi, text, {
          deadline: Math.min(Date.now() + (limits.pageMs ?? PAGE_MS), started + documentMs),
          textLayer,
          vector,
          osra,
        });
        if (reading.missing) osraMissing = true;
        if (reading.timedOut) timedOut.push(n);
        for (const s of reading.structures) {
          const [x0, y0] = viewport.convertToPdfPoint(s.box[0], s.box[3]) as [number, number];
          const [x1, y1] = viewport.convertToPdfPoint(s.box[2], s.box[1]) as [number, number];
          structures.push({ page: n, bbox: round([Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)]), smiles: s.smiles, confidence: s.confidence, method: s.method, label: null });
        }
      } finally {
        page.cleanup();
      }
    }
    progress(100);
  } catch (err) {
    // The text parse already read (or refused) this file; a failure here leaves the document without structures.
    const name = (err as { name?: string }).name;
    if (name === 'PasswordException' || name === 'InvalidPDFException') return { structures: [], notes: [] };
    throw err;
  } finally {
    await close();
  }
  return { structures, notes: [...notesOf(structures.length, timedOut, unread, tooLarge), ...(osraMissing ? [OSRA_MISSING] : [])] };
}

/**
 * The molecules a page draws as vector graphics (vector.ts), from the operator list and text layer
 * this page's reading already fetched, placed on its render. A failure there leaves the page to OSRA.
 */
async function vectorReadings(
  ops: { fnArray: number[]; argsArray: unknown[] },
  items: TextItem[],
  viewport: { convertToViewportRectangle(r: number[]): number[] },
): Promise<VectorReading[]> {
  try {
    const graphics = pageGraphics(ops, OPS);
    if (!graphics) return [];
    const runs = textRuns(items.filter((i) => 'str' in i && Array.isArray(i.transform)));
    return readVectorPage(await loadRdkit(), graphics, runs).map((m) => {
      const [a, b, c, d] = viewport.convertToViewportRectangle([m.box[0] - 2, m.box[1] - 2, m.box[2] + 2, m.box[3] + 2]) as [number, number, number, number];
      return { box: [Math.round(Math.min(a, c)), Math.round(Math.min(b, d)), Math.round(Math.max(a, c)), Math.round(Math.max(b, d))] as PixelBox, smiles: m.smiles, inchiKey: m.inchiKey, heavyAtoms: m.heavyAtoms };
    });
  } catch {
    return [];
  }
}

/** The structures drawn in an image file; boxes in the image's pixels, origin bottom-left (as parsing/image.ts). */
export async function imageStructures(file: string, progress: Progress, limits: Limits = {}): Promise<{ structures: ParsedStructure[]; notes: string[] }> {
  if ((await osraVersion()) === null) return { structures: [], notes: [OSRA_MISSING] };
  const meta = await sharp(file, { limitInputPixels: false }).metadata();
  const [w, h] = (meta.orientation ?? 1) >= 5 ? [meta.height ?? 0, meta.width ?? 0] : [meta.width ?? 0, meta.height ?? 0];
  if (!w || !h) return { structures: [], notes: [] };
  if (w * h > MAX_IMAGE_PIXELS) return { structures: [], notes: [`图片过大（${w} × ${h} 像素），未识别图中的化学结构`] };
  progress(0, '正在识别图中的结构式');
  const s = Math.min(1, Math.sqrt(MAX_READ_PIXELS / (w * h)));
  let pipeline = sharp(file, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'none' }).rotate();
  if (s < 1) pipeline = pipeline.resize({ width: Math.max(1, Math.floor(w * s)), height: Math.max(1, Math.floor(h * s)), fit: 'fill' });
  const { data, info } = await pipeline.flatten({ background: '#ffffff' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  // The darkest channel, as for a PDF page: coloured atom labels stay ink.
  const gray = new Uint8Array(info.width * info.height);
  for (let p = 0, q = 0; q < gray.length; p += info.channels, q++) gray[q] = info.channels >= 3 ? Math.min(data[p]!, data[p + 1]!, data[p + 2]!) : data[p]!;
  const img: Gray = { data: gray, width: info.width, height: info.height };
  // The image's own resolution when it says one (a scan does); otherwise 300 dpi, OSRA's assumption for scans.
  const dpi = Math.round((meta.density && meta.density >= 100 && meta.density <= 1200 ? meta.density : DPI) * s);
  // Its OCR'd lines (the file's pixels, origin bottom-left) are text, not drawings.
  const k = info.width / w;
  const text: PixelBox[] = (limits.textBoxes?.get(1) ?? []).map(([x0, y0, x1, y1]) => [x0 * k, info.height - y1 * k, x1 * k, info.height - y0 * k]);
  const reading: PageReading = await readPage(img, Math.max(72, dpi), text, { deadline: Date.now() + Math.min(limits.pageMs ?? PAGE_MS, limits.documentMs ?? DOCUMENT_MS) });
  if (reading.missing) return { structures: [], notes: [OSRA_MISSING] };
  const f = w / info.width;
  const structures = reading.structures.map((r) => ({
    page: 1,
    bbox: round([r.box[0] * f, (info.height - r.box[3]) * f, r.box[2] * f, (info.height - r.box[1]) * f]),
    smiles: r.smiles,
    confidence: r.confidence,
    method: r.method,
    label: null,
  }));
  progress(99);
  return { structures, notes: notesOf(structures.length, reading.timedOut ? [1] : [], [], []) };
}
