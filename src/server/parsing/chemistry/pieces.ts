/** An 8-connected piece of a mask: its box (inclusive, in the mask's pixels) and its pixels (indices y × width + x). */
export interface MaskPiece {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  pixels: number[];
}

/**
 * The 8-connected pieces of the pixels of a `width` × `height` mask where `on(i)` holds (i = y ×
 * width + x), found by an iterative flood fill, and each pixel's piece (its index, −1 where off).
 * Shared by faint.ts (letters of a scan) and relabel.ts (the glyphs of atom labels).
 */
export function pieces8(width: number, height: number, on: (i: number) => boolean): { pieces: MaskPiece[]; label: Int32Array } {
  const label = new Int32Array(width * height).fill(-1);
  const pieces: MaskPiece[] = [];
  const stack: number[] = [];
  for (let start = 0; start < width * height; start++) {
    if (label[start]! >= 0 || !on(start)) continue;
    const piece: MaskPiece = { x0: width, y0: height, x1: 0, y1: 0, pixels: [] };
    const id = pieces.push(piece) - 1;
    label[start] = id;
    stack.push(start);
    while (stack.length) {
      const p = stack.pop()!;
      piece.pixels.push(p);
      const x = p % width;
      const y = (p - x) / width;
      piece.x0 = Math.min(piece.x0, x);
      piece.x1 = Math.max(piece.x1, x);
      piece.y0 = Math.min(piece.y0, y);
      piece.y1 = Math.max(piece.y1, y);
      for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++)
        for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
          const q = ny * width + nx;
          if (label[q]! < 0 && on(q)) {
            label[q] = id;
            stack.push(q);
          }
        }
    }
  }
  return { pieces, label };
}
