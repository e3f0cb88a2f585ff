// vitest: isolate — loads PP-OCR's models (onnxruntime-node, a few hundred MB) into the test's process
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseImage } from '../../../src/server/parsing/image';
import { cer, cjkFont, noisyScan, renderPage, turn } from '../ocr-render';
import { greyPng } from '../png';

// Real Chinese prose (from the preface of lshort-zh-cn, the LaTeX introduction the tests already use).
const PROSE = [
  'LaTeX是一个文档准备系统，它非常适用于生成高印刷质量的科技和数学类文档。它也能够生成所有其他种类的文档，小到简单的信件，大到完整的书籍。',
  '本文介绍了在中文环境下使用LaTeX排版的基本方法，读者在阅读之后应当能够写出结构清晰、排版美观的文章，并且知道在遇到问题时到哪里寻求帮助。',
];

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-ppocr-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function read(name: string, png: Buffer) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, png);
  const notes: string[] = [];
  const result = await parseImage(file, '测试图片', (_p, text) => text && notes.push(text));
  return { ...result, body: result.markdown.replace(/^# 测试图片\n/, '') };
}

describe.runIf(cjkFont)('PP-OCR on rendered Chinese text', () => {
  it('reads a page of 16 px Chinese prose with a character error rate under 2 %', async () => {
    const page = await renderPage(PROSE, { px: 16, width: 700 });
    const r = await read('page.png', page.png);
    expect(cer(r.body, page.truth)).toBeLessThan(0.02);
    expect(r.notes).toEqual([]);
    // Passages carry boxes in the image's pixels (bottom-up), inside the picture.
    expect(r.chunks.length).toBeGreaterThan(0);
    for (const c of r.chunks) {
      expect(c.bbox).not.toBeNull();
      const [x0, y0, x1, y1] = c.bbox!;
      expect(x0).toBeGreaterThanOrEqual(0);
      expect(x1).toBeLessThanOrEqual(700);
      expect(y1).toBeGreaterThan(y0);
    }
  }, 240_000);

  it('reads a page turned 90° clockwise the right way up, and says it was turned', async () => {
    const page = await renderPage(PROSE, { px: 18, width: 800 });
    const r = await read('turned.png', await turn(page.png, 90));
    expect(cer(r.body, page.truth)).toBeLessThan(0.02);
    expect(r.notes).toContain('图片方向旋转了 90°，已转正后识别');
  }, 240_000);

  it('reads a page upside down the right way up', async () => {
    const page = await renderPage(PROSE, { px: 18, width: 800 });
    const r = await read('upside-down.png', await turn(page.png, 180));
    expect(cer(r.body, page.truth)).toBeLessThan(0.02);
    expect(r.notes).toContain('图片方向旋转了 180°，已转正后识别');
  }, 240_000);

  it('keeps two columns apart: the left column is read first, each passage lies in one column', async () => {
    const paragraphs = [...PROSE, ...PROSE.map((p) => p.split('').reverse().join('').replace(/^。/, '') + '。')];
    const page = await renderPage(paragraphs, { px: 16, width: 900, columns: 2 });
    const r = await read('columns.png', page.png);
    expect(cer(r.body, page.truth)).toBeLessThan(0.03);
    for (const c of r.chunks) {
      const [x0, , x1] = c.bbox!;
      expect(x1 <= 450 || x0 >= 450).toBe(true);
    }
  }, 240_000);
});

// English prose from a paper's text, as a noisy office scan (grey speckle, JPEG): PP-OCR alone
// dropped letters and spaces ("Toprobethffectf thesustituenat…"); lines read with low confidence are
// read again from a black-and-white copy of the page (ppocr.ts rereadCleaned).
const ENGLISH = [
  'To probe the effect of the substituent at position C-4, compounds 25a-25f were prepared and tested against JAK2 (Table 1).',
  'Several compounds were also antiproliferative in cells, in line with their enzymatic potency.',
];

describe.runIf(cjkFont)('PP-OCR on a noisy scan of English text', () => {
  it('reads the words and their spaces', async () => {
    const page = await renderPage(ENGLISH, { px: 22, width: 1400 });
    const r = await read('noisy.jpg', await noisyScan(page.png, 3));
    // Read once, this page's character error rate was 0.098; read again where unsure, about 0.02.
    expect(cer(r.body, page.truth)).toBeLessThan(0.04);
    expect(r.body).toContain('effect of the substituent');
  }, 240_000);
});

/** A PNG whose header claims `width` × `height` grey pixels, with one row of data: a small file of a huge picture. */
const hugePng = (width: number, height: number) => greyPng(width, height, 8, Buffer.alloc(width + 1, 255));

describe('an OCR bomb (a small file of a huge picture)', () => {
  it('is not decoded: the image finishes at once with a note', async () => {
    const png = hugePng(30_000, 30_000);
    expect(png.length).toBeLessThan(1000);
    const started = Date.now();
    const r = await read('bomb.png', png);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(r.notes.join('')).toContain('图片过大（30000 × 30000 像素');
    expect(r.chunks).toEqual([]);
  }, 120_000);
});
