/**
 * Finding where structures may be drawn on a rendered page: the page's ink is
 * joined across small gaps (bonds to their atom labels) and split at whitespace into connected
 * regions; a region counts as a drawing when enough of its ink lies outside the page's text runs
 * (bonds are lines, not letters) and its size is that of a drawing.
 */

/** A grayscale image, one byte a pixel (0 black … 255 white), rows top to bottom. */
export interface Gray {
  data: Uint8Array;
  width: number;
  height: number;
}

/** [left, top, right, bottom] in pixels, right/bottom exclusive. */
export type PixelBox = [number, number, number, number];

export interface RegionOptions {
  /** Pixels per PDF point (or per image pixel) of `img`. */
  scale: number;
  /** Text runs on the page, in the same pixels as `img`. */
  text?: PixelBox[];
  /** Ink below this value counts (0–255). */
  threshold?: number;
  /** Gaps up to this many points are bridged (atom labels sit a few points from their bonds). */
  gapPt?: number;
  /** Regions at most. */
  maxRegions?: number;
}

/** The image shrunk by an integer factor, each output pixel the darkest of its cell (thin lines survive). */
export function shrink(img: Gray, factor: number): Gray {
  const f = Math.max(1, Math.floor(factor));
  if (f === 1) return img;
  const width = Math.max(1, Math.floor(img.width / f));
  const height = Math.max(1, Math.floor(img.height / f));
  const data = new Uint8Array(width * height).fill(255);
  for (let y = 0; y < height * f; y++) {
    const row = y * img.width;
    const out = Math.floor(y / f) * width;
    for (let x = 0; x < width * f; x++) {
      const v = img.data[row + x]!;
      const o = out + Math.floor(x / f);
      if (v < data[o]!) data[o] = v;
    }
  }
  return { data, width, height };
}

/**
 * Candidate drawing regions, largest first. The page's text runs are taken out of its ink first (a
 * label beside a drawing, a caption or a paragraph is no part of it, and would join neighbouring
 * drawings into one region); the remaining line work is joined across gaps of `gapPt` into
 * connected regions. A region then takes back the short text runs touching it (atom labels: OH, N,
 * Cl drawn as text). It is kept when it is at least ~0.4 inch on its long side, not a rule or a
 * frame (ink mostly in straight horizontal or vertical lines) and neither nearly empty nor solid.
 */
export function drawingRegions(img: Gray, opts: RegionOptions): PixelBox[] {
  const { width: w, height: h, data } = img;
  const threshold = opts.threshold ?? 160;
  const gap = Math.max(1, Math.round((opts.gapPt ?? 10) * opts.scale));
  const textMask = new Uint8Array(w * h);
  for (const [x0, y0, x1, y1] of opts.text ?? []) {
    for (let y = Math.max(0, Math.floor(y0)); y < Math.min(h, Math.ceil(y1)); y++) textMask.fill(1, y * w + Math.max(0, Math.floor(x0)), y * w + Math.min(w, Math.ceil(x1)));
  }
  const ink = new Uint8Array(w * h);
  for (let i = 0; i < data.length; i++) if (data[i]! < threshold && !textMask[i]) ink[i] = 1;
  // Bridging: a box dilation by `gap`, done separably with running counts (linear time).
  const horiz = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    let count = 0;
    const row = y * w;
    for (let x = 0; x < w + gap; x++) {
      if (x < w) count += ink[row + x]!;
      if (x - 2 * gap - 1 >= 0) count -= ink[row + x - 2 * gap - 1]!;
      const cx = x - gap;
      if (cx >= 0 && cx < w && count > 0) horiz[row + cx] = 1;
    }
  }
  const grown = new Uint8Array(w * h);
  for (let x = 0; x < w; x++) {
    let count = 0;
    for (let y = 0; y < h + gap; y++) {
      if (y < h) count += horiz[y * w + x]!;
      if (y - 2 * gap - 1 >= 0) count -= horiz[(y - 2 * gap - 1) * w + x]!;
      const cy = y - gap;
      if (cy >= 0 && cy < h && count > 0) grown[cy * w + x] = 1;
    }
  }
  // Connected components of the grown mask (4-connected, iterative flood fill).
  const label = new Int32Array(w * h);
  const stack: number[] = [];
  const boxes: { box: PixelBox; ink: number }[] = [];
  let next = 0;
  for (let start = 0; start < w * h; start++) {
    if (!grown[start] || label[start]) continue;
    next++;
    let [x0, y0, x1, y1] = [w, h, 0, 0];
    let inkCount = 0;
    label[start] = next;
    stack.push(start);
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % w;
      const y = (p - x) / w;
      if (ink[p]) {
        inkCount++;
        if (x < x0) x0 = x;
        if (y < y0) y0 = y;
        if (x + 1 > x1) x1 = x + 1;
        if (y + 1 > y1) y1 = y + 1;
      }
      const visit = (q: number) => {
        if (grown[q] && !label[q]) {
          label[q] = next;
          stack.push(q);
        }
      };
      if (x > 0) visit(p - 1);
      if (x < w - 1) visit(p + 1);
      if (y > 0) visit(p - w);
      if (y < h - 1) visit(p + w);
    }
    if (inkCount) boxes.push({ box: [x0, y0, x1, y1], ink: inkCount });
  }
  const minLong = 28 * opts.scale;
  const minShort = 10 * opts.scale;
  const kept = boxes.filter(({ box: [x0, y0, x1, y1], ink: n }) => {
    const bw = x1 - x0;
    const bh = y1 - y0;
    if (Math.max(bw, bh) < minLong || Math.min(bw, bh) < minShort) return false;
    // Nearly empty or nearly solid boxes are frames, photos or noise, not line drawings.
    const fill = n / (bw * bh);
    return fill > 0.002 && fill < 0.35 && !ruled(ink, w, [x0, y0, x1, y1], n, Math.max(3, 30 * opts.scale));
  });
  // Atom labels set as text: short runs touching the line work (within a point or two).
  const near = Math.max(1, Math.round(2 * opts.scale));
  const short = (opts.text ?? []).filter(([x0, y0, x1, y1]) => x1 - x0 <= 3.2 * (y1 - y0) && y1 - y0 <= 16 * opts.scale);
  for (const k of kept) {
    const b = k.box;
    for (const t of short) {
      if (t[0] <= b[2] + near && t[2] >= b[0] - near && t[1] <= b[3] + near && t[3] >= b[1] - near) {
        b[0] = Math.max(0, Math.min(b[0], Math.floor(t[0])));
        b[1] = Math.max(0, Math.min(b[1], Math.floor(t[1])));
        b[2] = Math.min(w, Math.max(b[2], Math.ceil(t[2])));
        b[3] = Math.min(h, Math.max(b[3], Math.ceil(t[3])));
      }
    }
  }
  return kept
    .sort((a, b) => (b.box[2] - b.box[0]) * (b.box[3] - b.box[1]) - (a.box[2] - a.box[0]) * (a.box[3] - a.box[1]))
    .slice(0, opts.maxRegions ?? 24)
    .map((b) => b.box);
}

/**
 * Whether a region's ink lies mostly in long straight horizontal or vertical runs (table rules,
 * frames, underlines): a structure's bonds run at all angles, and each is short (a run counts as
 * long from 30 points or half the region's side).
 */
function ruled(ink: Uint8Array, w: number, [x0, y0, x1, y1]: PixelBox, n: number, longest: number): boolean {
  let inLines = 0;
  let long = Math.max(3, Math.min(longest, 0.5 * (x1 - x0)));
  for (let y = y0; y < y1; y++) {
    let run = 0;
    for (let x = x0; x <= x1; x++) {
      if (x < x1 && ink[y * w + x]) run++;
      else {
        if (run >= long) inLines += run;
        run = 0;
      }
    }
  }
  long = Math.max(3, Math.min(longest, 0.5 * (y1 - y0)));
  for (let x = x0; x < x1; x++) {
    let run = 0;
    for (let y = y0; y <= y1; y++) {
      if (y < y1 && ink[y * w + x]) run++;
      else {
        if (run >= long) inLines += run;
        run = 0;
      }
    }
  }
  return inLines > 0.6 * n;
}

/** Overlap of two boxes over the smaller one's area (0–1). */
export function overlap(a: PixelBox, b: PixelBox): number {
  const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const small = Math.min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]));
  return small > 0 ? (ix * iy) / small : 0;
}
