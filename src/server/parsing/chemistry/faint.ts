import { pieces8 } from './pieces';
import type { Gray, PixelBox } from './regions';

/**
 * Faint letters in a scanned drawing. A coloured structure drawing scanned in grey keeps its black
 * bonds dark, but its coloured atom labels turn light: the yellow S of RDKit and Open Babel comes
 * out at about 180–220 on paper of about 245, fainter still where the scan blurred its thin strokes.
 * Cut where the bonds come out clean, such a letter falls apart, and OSRA reads the S as a bend of
 * the chain (CSC read as CCC).
 *
 * The letters are found on a 3×3-smoothed copy (the scan's speckle averaged away) at a cut just below
 * the paper's level: each piece there of a letter's size is darkened where it is darker still. The
 * line work is left as it is: at that cut the bonds join into one skeleton, far larger than a letter.
 * The levels were chosen on the tuning half of the chemdocs set (bench/chemdocs.bench.ts).
 */

/** Below the paper's level by this much, the smoothed copy holds a letter's ink. */
const FIND_MARGIN = 25;
/** Within a letter found, what is this far below the paper's level is darkened (the stroke, not its halo). */
const PAINT_MARGIN = 28;
/** A letter is this tall, in inches: from a subscript to a large label. */
const LETTER_INCHES: [number, number] = [0.03, 0.2];
/** A piece with more than this share of its pixels already below the cut is dark enough: left as it is. */
const DARK_SHARE = 0.6;

/**
 * The `crop` of `img` (a scanned page at `dpi`, its paper at grey `paper`, cut into black below
 * `cut`) with its faint letters darkened: a new image of the crop's size.
 */
export function darkenFaintGlyphs(img: Gray, crop: PixelBox, paper: number, cut: number, dpi: number): Gray {
  const [x0, y0, x1, y1] = crop;
  const w = x1 - x0;
  const h = y1 - y0;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) out.set(img.data.subarray((y0 + y) * img.width + x0, (y0 + y) * img.width + x1), y * w);
  const smooth = smoothed(out, w, h);
  const found = paper - FIND_MARGIN;
  const paint = paper - PAINT_MARGIN;
  const [minPx, maxPx] = LETTER_INCHES.map((inches) => inches * dpi) as [number, number];
  // Each 8-connected piece of the smoothed copy's ink.
  for (const piece of pieces8(w, h, (i) => smooth[i]! < found).pieces) {
    const height = piece.y1 - piece.y0 + 1;
    const width = piece.x1 - piece.x0 + 1;
    const letter = height >= minPx && height <= maxPx && width >= 2 && width <= maxPx * 1.6;
    if (!letter || piece.pixels.filter((p) => out[p]! < cut).length > DARK_SHARE * piece.pixels.length) continue;
    const ink = Math.max(0, cut - 60);
    for (const p of piece.pixels) if (smooth[p]! < paint) out[p] = Math.min(out[p]!, ink);
  }
  return { data: out, width: w, height: h };
}

/** Each pixel the mean of its 3×3 neighbourhood (within the image). */
function smoothed(data: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let sum = 0;
      let n = 0;
      for (let ny = Math.max(0, y - 1); ny <= Math.min(h - 1, y + 1); ny++)
        for (let nx = Math.max(0, x - 1); nx <= Math.min(w - 1, x + 1); nx++) {
          sum += data[ny * w + nx]!;
          n++;
        }
      out[y * w + x] = Math.round(sum / n);
    }
  return out;
}
