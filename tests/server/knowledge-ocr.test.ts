import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OCR_PIXELS, ocrScale } from '../../src/server/parsing/pdf-ocr';
import { signedInUser, startServer, type Client, type TestServer } from './helpers';
import { KB, upload, waitParsed } from './knowledge-helpers';

// Page 2 of zhlipsum.pdf (texlive-lang-chinese) rendered to PNG by scripts/fetch-test-docs.mjs.
const ROOT = path.resolve(__dirname, '../..');
const docsDir = execFileSync(process.execPath, [path.join(ROOT, 'scripts/fetch-test-docs.mjs')], { encoding: 'utf8' }).trim();
const image = path.join(docsDir, 'zhlipsum-page2.png');
const hasTesseract = (() => {
  try {
    execFileSync('tesseract', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let server: TestServer;
let me: Client;
beforeAll(async () => {
  server = await startServer();
  me = (await signedInUser(server)).client;
});
afterAll(async () => {
  await server.close();
});

describe.runIf(fs.existsSync(image))('an image of Chinese print', () => {
  it(hasTesseract ? 'is read by OCR into Chinese text' : 'finishes with a note that OCR is unavailable', async () => {
    const up = await upload<{ name_id: Array<{ docId: string }> }>(me, [{ name: '扫描页.png', data: fs.readFileSync(image) }]);
    expect(up.status).toBe(200);
    const id = up.body.data.name_id[0]!.docId;
    const doc = await waitParsed(me, id, 120_000);
    expect(doc.parseStatus).toBe(2);
    const md = (await me.get<{ markdown: string }>(`${KB}/doc_markdown/${id}`)).body.data.markdown;
    if (hasTesseract) {
      expect(md).toContain('乱数假文');
      expect(md).toContain('常用来测试排版效果');
      expect(doc.progress_texts).toContain('正在识别图片中的文字');
    } else {
      expect(doc.progress_texts).toContain('OCR 不可用：服务器未安装 tesseract，图片未做文字识别');
    }
  });
});

describe.runIf(fs.existsSync(image))('when tesseract is not installed', () => {
  it('the image still finishes, and progress_texts says OCR is unavailable', async () => {
    const other = await startServer();
    const savedPath = process.env.PATH;
    try {
      const client = (await signedInUser(other)).client;
      // The parse worker starts on the first task and takes this environment with it.
      process.env.PATH = '/nonexistent';
      const up = await upload<{ name_id: Array<{ docId: string }> }>(client, [{ name: 'photo.png', data: fs.readFileSync(image) }]);
      const doc = await waitParsed(client, up.body.data.name_id[0]!.docId, 60_000);
      expect(doc.parseStatus).toBe(2);
      expect(doc.progress_texts).toContain('OCR 不可用：服务器未安装 tesseract，图片未做文字识别');
    } finally {
      process.env.PATH = savedPath;
      await other.close();
    }
  });
});

/** A one-page PDF holding nothing but the picture (a scan): RGB pixels, Flate-compressed. */
async function scannedPdf(png: Buffer, widthPt = 595): Promise<Buffer> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const rgba = ctx.getImageData(0, 0, img.width, img.height).data;
  const rgb = Buffer.alloc(img.width * img.height * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    rgb[j] = rgba[i]!;
    rgb[j + 1] = rgba[i + 1]!;
    rgb[j + 2] = rgba[i + 2]!;
  }
  const data = zlib.deflateSync(rgb);
  const [w, h] = [widthPt, Math.round((widthPt * img.height) / img.width)];
  const content = `q ${w} 0 0 ${h} 0 0 cm /Im1 Do Q`;
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  const add = (id: number, head: string, stream?: Buffer) => {
    offsets[id] = parts.reduce((n, p) => n + p.length, 0);
    parts.push(Buffer.from(`${id} 0 obj\n${head}\n`));
    if (stream) parts.push(Buffer.from('stream\n'), stream, Buffer.from('\nendstream\n'));
    parts.push(Buffer.from('endobj\n'));
  };
  add(1, '<< /Type /Catalog /Pages 2 0 R >>');
  add(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  add(3, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>`);
  add(4, `<< /Type /XObject /Subtype /Image /Width ${img.width} /Height ${img.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>`, data);
  add(5, `<< /Length ${content.length} >>`, Buffer.from(content));
  const xref = parts.reduce((n, p) => n + p.length, 0);
  parts.push(Buffer.from(`xref\n0 6\n0000000000 65535 f \n${[1, 2, 3, 4, 5].map((id) => `${String(offsets[id]).padStart(10, '0')} 00000 n \n`).join('')}trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  return Buffer.concat(parts);
}

describe.runIf(fs.existsSync(image) && hasTesseract)('a scanned PDF (pages without a text layer)', () => {
  it('is read page by page with OCR', async () => {
    const pdf = await scannedPdf(fs.readFileSync(image));
    const up = await upload<{ name_id: Array<{ docId: string }> }>(me, [{ name: '扫描版.pdf', data: pdf }]);
    expect(up.status).toBe(200);
    const id = up.body.data.name_id[0]!.docId;
    const doc = await waitParsed(me, id, 120_000);
    expect(doc.parseStatus).toBe(2);
    expect(doc.progress_texts).toContain('第 1 页为扫描图像，已用 OCR 识别文字');
    const md = (await me.get<{ markdown: string }>(`${KB}/doc_markdown/${id}`)).body.data.markdown;
    expect(md).toContain('<!-- page 1 -->');
    expect(md).toContain('乱数假文');
  });
});

describe('pages too large to render for OCR (issue 16 #2)', () => {
  it('render at most MAX_OCR_PIXELS, at a lower scale when needed, and are skipped below 72 dpi', () => {
    expect(ocrScale(595, 842)).toBe(2.5);
    const a0 = ocrScale(2384, 3370)!;
    expect(a0).toBeLessThan(2.5);
    expect(a0).toBeGreaterThan(1);
    expect(2384 * 3370 * a0 * a0).toBeLessThanOrEqual(MAX_OCR_PIXELS * 1.0001);
    expect(ocrScale(5000, 5000)).toBeNull();
    expect(ocrScale(8000, 8000)).toBeNull();
  });

  it.runIf(fs.existsSync(image) && hasTesseract)('a 5000-pt scanned page is skipped with a note and the document still finishes', async () => {
    const pdf = await scannedPdf(fs.readFileSync(image), 5000);
    const up = await upload<{ name_id: Array<{ docId: string }> }>(me, [{ name: '巨幅扫描.pdf', data: pdf }]);
    expect(up.status).toBe(200);
    const id = up.body.data.name_id[0]!.docId;
    const doc = await waitParsed(me, id, 120_000);
    expect(doc.parseStatus).toBe(2);
    expect(doc.progress_texts).toContain('第 1 页页面过大，已跳过识别');
    expect(doc.progress_texts.some((t) => t.includes('已用 OCR 识别文字'))).toBe(false);
  });
});
