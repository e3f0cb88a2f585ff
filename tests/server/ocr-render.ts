/**
 * Images of Chinese text whose words are known, for OCR tests and `npm run bench -- ocr`: text set
 * with a CJK font (WenQuanYi Micro Hei, Debian fonts-wqy-microhei, in setup.mjs's test packages)
 * on @napi-rs/canvas, then turned, tilted, blurred or saved as JPEG with sharp.
 */
import fs from 'node:fs';
import sharp from 'sharp';

const FONT_FILES = ['/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'];
export const cjkFont = FONT_FILES.find((f) => fs.existsSync(f)) ?? null;

let registered = false;
async function canvasWithFont() {
  const canvas = await import('@napi-rs/canvas');
  if (!registered && cjkFont) {
    canvas.GlobalFonts.registerFromPath(cjkFont, 'OcrTestCJK');
    registered = true;
  }
  return canvas;
}

export interface Rendered {
  png: Buffer;
  /** The text as a reader reads it (columns one after the other, table rows left to right). */
  truth: string;
}

/** Breaks text into lines no wider than `width` at `px` type (Chinese breaks anywhere). */
function wrap(measure: (s: string) => number, text: string, width: number): string[] {
  const lines: string[] = [];
  let cur = '';
  for (const ch of text) {
    if (cur && measure(cur + ch) > width) {
      lines.push(cur);
      cur = ch;
    } else cur += ch;
  }
  if (cur) lines.push(cur);
  return lines;
}

/** A page of paragraphs at `px` type in one or two columns, `width` pixels wide, black on white. */
export async function renderPage(paragraphs: string[], { px, width, columns = 1 }: { px: number; width: number; columns?: 1 | 2 }): Promise<Rendered> {
  const { createCanvas } = await canvasWithFont();
  const margin = Math.round(px * 3);
  const gap = Math.round(px * 2.5);
  const colWidth = Math.floor((width - 2 * margin - (columns - 1) * gap) / columns);
  const probe = createCanvas(10, 10).getContext('2d');
  probe.font = `${px}px OcrTestCJK`;
  const measure = (s: string) => probe.measureText(s).width;
  const lineHeight = Math.round(px * 1.6);
  // Paragraphs go to the columns in turn, filling the first column first.
  const wrapped = paragraphs.map((p) => wrap(measure, p, colWidth));
  const total = wrapped.reduce((n, l) => n + l.length + 1, 0);
  const perColumn = columns === 1 ? Infinity : Math.ceil(total / 2);
  const cols: string[][][] = [[]];
  let count = 0;
  for (const lines of wrapped) {
    if (count >= perColumn && cols.length < columns) {
      cols.push([]);
      count = 0;
    }
    cols[cols.length - 1]!.push(lines);
    count += lines.length + 1;
  }
  const rows = Math.max(...cols.map((c) => c.reduce((n, l) => n + l.length + 1, 0)));
  const height = margin * 2 + rows * lineHeight;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = 'white';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = 'black';
  ctx.font = `${px}px OcrTestCJK`;
  ctx.textBaseline = 'top';
  cols.forEach((col, c) => {
    let y = margin;
    const x = margin + c * (colWidth + gap);
    for (const lines of col) {
      for (const line of lines) {
        ctx.fillText(line, x, y);
        y += lineHeight;
      }
      y += lineHeight;
    }
  });
  return { png: canvas.toBuffer('image/png'), truth: cols.flat().flat().join('') };
}

/** A ruled table of `rows` (the first is the header) at `px` type. */
export async function renderTable(rows: string[][], { px }: { px: number }): Promise<Rendered> {
  const { createCanvas } = await canvasWithFont();
  const probe = createCanvas(10, 10).getContext('2d');
  probe.font = `${px}px OcrTestCJK`;
  const pad = Math.round(px * 0.8);
  const ncol = Math.max(...rows.map((r) => r.length));
  const colW = Array.from({ length: ncol }, (_, k) => Math.ceil(Math.max(...rows.map((r) => probe.measureText(r[k] ?? '').width))) + 2 * pad);
  const rowH = Math.round(px * 2.2);
  const margin = px * 3;
  const width = colW.reduce((a, b) => a + b, 0) + 2 * margin;
  const height = rows.length * rowH + 2 * margin;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = 'white';
  ctx.fillRect(0, 0, width, height);
  ctx.strokeStyle = 'black';
  ctx.lineWidth = 1;
  ctx.fillStyle = 'black';
  ctx.font = `${px}px OcrTestCJK`;
  ctx.textBaseline = 'middle';
  rows.forEach((r, i) => {
    let x = margin;
    const y = margin + i * rowH;
    r.forEach((cell, k) => {
      ctx.strokeRect(x + 0.5, y + 0.5, colW[k]!, rowH);
      ctx.fillText(cell, x + pad, y + rowH / 2);
      x += colW[k]!;
    });
  });
  return { png: canvas.toBuffer('image/png'), truth: rows.flat().join('') };
}

/** The image turned clockwise by a multiple of 90°. */
export const turn = async (png: Buffer, angle: 90 | 180 | 270) => sharp(png).rotate(angle).png().toBuffer();

/** A poor scan: tilted by `degrees`, blurred, grey, saved as a low-quality JPEG. */
export const scanLike = async (png: Buffer, degrees = 2.5) =>
  sharp(await sharp(png).rotate(degrees, { background: '#ffffff' }).png().toBuffer()).blur(0.9).grayscale().jpeg({ quality: 55 }).toBuffer();

/**
 * A noisy office scan, made as bench/chemdocs-gen.py makes its scans: grey, blurred a little,
 * contrast lowered (×0.93 + 10), Gaussian noise of σ 9 grey levels on every pixel (seeded), a JPEG of
 * quality 60. Mild to the eye, it costs PP-OCR letters and the spaces of Latin text.
 */
export async function noisyScan(png: Buffer, seed = 1): Promise<Buffer> {
  const { data, info } = await sharp(png).grayscale().blur(0.6).raw().toBuffer({ resolveWithObject: true });
  // mulberry32, and Box–Muller for the normal deviates.
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = Buffer.alloc(data.length);
  for (let i = 0; i < data.length; i++) {
    const normal = Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
    out[i] = Math.max(0, Math.min(255, Math.round(data[i]! * 0.93 + 10 + 9 * normal)));
  }
  return sharp(out, { raw: { width: info.width, height: info.height, channels: info.channels } }).jpeg({ quality: 60 }).toBuffer();
}

/** Levenshtein distance over code points. */
function editDistance(a: string[], b: string[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** Text for comparison: NFKC (full-width punctuation and letters as their half-width forms), no whitespace, no markdown table rules or bars. */
export const comparable = (s: string) => s.normalize('NFKC').replace(/^\|?\s*(?:-{3,}\s*\|\s*)+-*\s*$/gm, '').replace(/[|\s]/g, '');

/** Character error rate: edit distance over the truth's length, whitespace ignored. */
export function cer(read: string, truth: string): number {
  const t = [...comparable(truth)];
  return editDistance([...comparable(read)], t) / Math.max(1, t.length);
}
