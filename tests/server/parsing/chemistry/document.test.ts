import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pdfStructures } from '../../../../src/server/parsing/chemistry/document';
import { OSRA_MISSING } from '../../../../src/server/parsing/chemistry/osra';
import { drawingRegions, type Gray, type PixelBox } from '../../../../src/server/parsing/chemistry/regions';

// Pages with no structure on them give none (issue 28 §1): real pages of ctex-faq.pdf (a document
// nobody here wrote, scripts/fetch-test-docs.mjs) — a page of text, a page with a framed command
// and a page with a framed ruled table, both of which used to come out as "structures".
const ROOT = path.resolve(__dirname, '../../../..');
const docsDir = execFileSync(process.execPath, [path.join(ROOT, 'scripts/fetch-test-docs.mjs')], { encoding: 'utf8' }).trim();

describe('pages without drawings', () => {
  it.each([1, 20, 28])('ctex-faq.pdf page %i gives no structure', async (n) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-nostruct-'));
    try {
      const file = path.join(dir, `p${n}.pdf`);
      execFileSync('pdfseparate', ['-f', String(n), '-l', String(n), path.join(docsDir, 'ctex-faq.pdf'), file], { stdio: 'ignore' });
      const read = await pdfStructures(file, () => {});
      expect(read.notes).not.toContain(OSRA_MISSING);
      expect(read.structures).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** A white image with black lines and filled boxes drawn on it. */
function image(width: number, height: number, lines: [number, number, number, number][], solid: PixelBox[] = []): Gray {
  const data = new Uint8Array(width * height).fill(255);
  for (const [x0, y0, x1, y1] of lines) {
    const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0));
    for (let i = 0; i <= steps; i++) data[Math.round(y0 + ((y1 - y0) * i) / steps) * width + Math.round(x0 + ((x1 - x0) * i) / steps)] = 0;
  }
  for (const [x0, y0, x1, y1] of solid) for (let y = y0; y < y1; y++) data.fill(0, y * width + x0, y * width + x1);
  return { data, width, height };
}

/** A hexagon of side `r` around (cx, cy) with a bond sticking out to the right. */
function ring(cx: number, cy: number, r: number): [number, number, number, number][] {
  const pts = Array.from({ length: 6 }, (_, i) => [cx + r * Math.cos((Math.PI / 3) * i + Math.PI / 6), cy + r * Math.sin((Math.PI / 3) * i + Math.PI / 6)] as const);
  return [...pts.map((p, i) => [p[0], p[1], pts[(i + 1) % 6]![0], pts[(i + 1) % 6]![1]] as [number, number, number, number]), [cx + r, cy, cx + 2 * r, cy]];
}

describe('drawingRegions', () => {
  // One pixel a point.
  it('keeps two drawings apart when the label between them is text', () => {
    const img = image(400, 200, [...ring(70, 100, 30), ...ring(250, 100, 30)], [[142, 95, 196, 105]]);
    const label: PixelBox = [140, 93, 198, 107];
    expect(drawingRegions(img, { scale: 1 })).toHaveLength(1);
    const regions = drawingRegions(img, { scale: 1, text: [label] });
    expect(regions).toHaveLength(2);
    expect(regions.every((r) => r[2] < 140 || r[0] > 198)).toBe(true);
  });

  it('finds no drawing in a ruled table or a frame around text', () => {
    const rules: [number, number, number, number][] = [
      [20, 20, 380, 20],
      [20, 40, 380, 40],
      [20, 60, 380, 60],
      [20, 80, 380, 80],
      [20, 20, 20, 80],
      [200, 20, 200, 80],
      [380, 20, 380, 80],
      [100, 120, 160, 120],
      [100, 150, 160, 150],
      [100, 120, 100, 150],
      [160, 120, 160, 150],
    ];
    expect(drawingRegions(image(400, 200, rules), { scale: 1, text: [[110, 125, 150, 145]] })).toEqual([]);
    expect(drawingRegions(image(400, 200, ring(200, 100, 30)), { scale: 1 })).toHaveLength(1);
  });
});
