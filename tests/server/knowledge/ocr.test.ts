import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OCR_PIXELS, ocrScale } from '../../../src/server/parsing/pdf-ocr';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { KB, openDb, upload, waitParsed } from '../knowledge-helpers';
import { cer, cjkFont, renderPage } from '../ocr-render';

// postgres: sqlite-only — its subject is OCR in the parse processes (minutes of CPU); the passages it stores are the rows knowledge/knowledge.test.ts stores on PostgreSQL.

// Page 2 of zhlipsum.pdf (texlive-lang-chinese) rendered to PNG by scripts/fetch-test-docs.mjs.
const ROOT = path.resolve(__dirname, '../../..');
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
  it('is read by OCR into Chinese text', async () => {
    const up = await upload<{ name_id: Array<{ docId: string }> }>(me, [{ name: '扫描页.png', data: fs.readFileSync(image) }]);
    expect(up.status).toBe(200);
    const id = up.body.data.name_id[0]!.docId;
    const doc = await waitParsed(me, id, 200_000);
    expect(doc.parseStatus).toBe(2);
    const md = (await me.get<{ markdown: string }>(`${KB}/doc_markdown/${id}`)).body.data.markdown;
    expect(md).toContain('乱数假文');
    expect(md).toContain('常用来测试排版效果');
    expect(doc.progress_texts).toContain('正在识别图片中的文字');
  }, 240_000);
});

/** A server whose parse processes start with `env` (a worker takes the environment of its first task's time). */
async function withEnv<T>(env: Record<string, string>, body: (client: Client, server: TestServer) => Promise<T>): Promise<T> {
  const other = await startServer();
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  try {
    const client = (await signedInUser(other)).client;
    Object.assign(process.env, env);
    return await body(client, other);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await other.close();
  }
}

describe.runIf(fs.existsSync(image))('when neither PP-OCR\'s models nor tesseract can be used', () => {
  it('the image still finishes, progress_texts says OCR is unavailable, and /test says so', async () => {
    await withEnv({ PATH: '/nonexistent', CSAI_OCR_MODELS: '/nonexistent/models' }, async (client) => {
      const up = await upload<{ name_id: Array<{ docId: string }> }>(client, [{ name: 'photo.png', data: fs.readFileSync(image) }]);
      const doc = await waitParsed(client, up.body.data.name_id[0]!.docId, 200_000);
      expect(doc.parseStatus).toBe(2);
      expect(doc.progress_texts).toContain('OCR 不可用：服务器未安装 tesseract，图片未做文字识别');
      const diag = await client.get<{ ocr_engine: string }>('/api/v1/diagnostics');
      expect(diag.body.data.ocr_engine).toBe('none');
    });
  }, 240_000);
});

describe.runIf(fs.existsSync(image) && hasTesseract)('when PP-OCR\'s models cannot load', () => {
  it('tesseract reads the image instead, progress_texts says so, and /test shows tesseract', async () => {
    await withEnv({ CSAI_OCR_MODELS: '/nonexistent/models' }, async (client) => {
      const diag = await client.get<{ ocr_engine: string }>('/api/v1/diagnostics');
      expect(diag.body.data.ocr_engine).toBe('tesseract');
      const up = await upload<{ name_id: Array<{ docId: string }> }>(client, [{ name: 'photo.png', data: fs.readFileSync(image) }]);
      const id = up.body.data.name_id[0]!.docId;
      const doc = await waitParsed(client, id, 200_000);
      expect(doc.parseStatus).toBe(2);
      expect(doc.progress_texts).toContain('PP-OCR 识别模型无法加载，已改用 tesseract 识别文字');
      const md = (await client.get<{ markdown: string }>(`${KB}/doc_markdown/${id}`)).body.data.markdown;
      expect(md).toContain('乱数假文');
    });
  }, 240_000);
});

describe('/test', () => {
  it('shows PP-OCR as the engine in force when its models are installed', async () => {
    const res = await me.get<{ ocr_engine: string; ocr_detail: string | null }>('/api/v1/diagnostics');
    expect(res.body.data.ocr_engine).toBe('ppocr');
    // The detail (model folder, reasons) is for administrators.
    expect(res.body.data.ocr_detail).toBeNull();
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

describe.runIf(fs.existsSync(image))('a scanned PDF (pages without a text layer)', () => {
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
    // Passages carry the box of their text on the page (PDF points), not the whole page: on the
    // 595 × 421 pt page the picture's text runs from x ≈ 104 to 810 of 892 px (69–545 pt) and
    // starts 78 px (52 pt) from the top.
    const db = openDb(server);
    const boxes = db.prepare('select bbox from kb_chunks where doc_id = ? order by ordinal').all(id) as Array<{ bbox: string }>;
    db.close();
    expect(boxes.length).toBeGreaterThan(0);
    for (const b of boxes) {
      const [x0, y0, x1, y1] = JSON.parse(b.bbox) as [number, number, number, number];
      expect(x0).toBeGreaterThan(60);
      expect(x1).toBeLessThan(550);
      expect(y0).toBeGreaterThanOrEqual(0);
      expect(y1).toBeLessThan(380);
    }
  }, 240_000);
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

  it.runIf(fs.existsSync(image))('a 5000-pt scanned page is skipped with a note and the document still finishes', async () => {
    const pdf = await scannedPdf(fs.readFileSync(image), 5000);
    const up = await upload<{ name_id: Array<{ docId: string }> }>(me, [{ name: '巨幅扫描.pdf', data: pdf }]);
    expect(up.status).toBe(200);
    const id = up.body.data.name_id[0]!.docId;
    const doc = await waitParsed(me, id, 120_000);
    expect(doc.parseStatus).toBe(2);
    expect(doc.progress_texts).toContain('第 1 页页面过大，已跳过识别');
    expect(doc.progress_texts.some((t) => t.includes('已用 OCR 识别文字'))).toBe(false);
  }, 240_000);
});

/** Chinese prose for the turned pages (its words known, so the reading can be scored). */
const TURNED_TEXT = [
  '药物发现的早期阶段需要从大量化合物中筛选出对靶点有活性的分子，再通过结构优化提高其选择性和代谢稳定性。',
  '研究人员通常先测定化合物的半数抑制浓度，然后结合晶体结构分析结合模式，判断哪些取代基值得进一步修饰。',
  '扫描的专利和论文中保存着许多实验数据，只有准确识别其中的文字，才能让这些数据被检索和引用。',
];

describe.runIf(cjkFont !== null)('a scanned PDF whose page is turned (90° and 180°)', () => {
  // The text sits in the top-left part of the upright picture (a margin of white right and below);
  // turned 90° clockwise that part is the top right of the page, turned 180° the bottom right.
  it.each([90, 180] as const)('turned %i°: the page is read upright and its passages\' boxes lie on the text in page coordinates', async (angle) => {
    const sharp = (await import('sharp')).default;
    const page = await renderPage(TURNED_TEXT, { px: 16, width: 560 });
    const upright = await sharp(page.png).extend({ right: 500, bottom: 420, background: '#ffffff' }).png().toBuffer();
    const turnedPng = await sharp(upright).rotate(angle).png().toBuffer();
    const { width: pw = 0, height: ph = 0 } = await sharp(turnedPng).metadata();
    // Where the ink is in the turned picture (pixels, origin top-left).
    const { info } = await sharp(turnedPng).trim({ background: '#ffffff', threshold: 40 }).toBuffer({ resolveWithObject: true });
    const ink = { left: -(info.trimOffsetLeft ?? 0), top: -(info.trimOffsetTop ?? 0), width: info.width, height: info.height };
    const widthPt = 595;
    const k = widthPt / pw;
    const heightPt = Math.round(ph * k);
    // The ink in PDF points (origin bottom-left).
    const inkPt = [ink.left * k, heightPt - (ink.top + ink.height) * k, (ink.left + ink.width) * k, heightPt - ink.top * k];
    const pdf = await scannedPdf(turnedPng, widthPt);
    const up = await upload<{ name_id: Array<{ docId: string }> }>(me, [{ name: `转了${angle}度的扫描页.pdf`, data: pdf }]);
    expect(up.status).toBe(200);
    const id = up.body.data.name_id[0]!.docId;
    const doc = await waitParsed(me, id, 200_000);
    expect(doc.parseStatus).toBe(2);
    expect(doc.progress_texts).toContain(`第 1（${angle}°） 页方向是旋转的，已转正后识别`);
    const md = (await me.get<{ markdown: string }>(`${KB}/doc_markdown/${id}`)).body.data.markdown;
    const body = md.replace(/^# .*\n/, '').replace(/<!-- page \d+ -->/g, '');
    expect(cer(body, page.truth)).toBeLessThan(0.03);
    const db = openDb(server);
    const rows = db.prepare('select bbox from kb_chunks where doc_id = ? order by ordinal').all(id) as Array<{ bbox: string }>;
    db.close();
    expect(rows.length).toBeGreaterThan(0);
    // Each passage's box lies on the ink (a few points of margin), not on the empty part of the page
    // nor across the whole page; together they cover most of the ink.
    const slack = 8;
    const union = [Infinity, Infinity, -Infinity, -Infinity];
    for (const r of rows) {
      const [x0, y0, x1, y1] = JSON.parse(r.bbox) as [number, number, number, number];
      expect(x0).toBeGreaterThan(inkPt[0]! - slack);
      expect(y0).toBeGreaterThan(inkPt[1]! - slack);
      expect(x1).toBeLessThan(inkPt[2]! + slack);
      expect(y1).toBeLessThan(inkPt[3]! + slack);
      union[0] = Math.min(union[0]!, x0);
      union[1] = Math.min(union[1]!, y0);
      union[2] = Math.max(union[2]!, x1);
      union[3] = Math.max(union[3]!, y1);
    }
    const area = (b: number[]) => (b[2]! - b[0]!) * (b[3]! - b[1]!);
    expect(area(union)).toBeGreaterThan(0.7 * area(inkPt));
  }, 240_000);
});
