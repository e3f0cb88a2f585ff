import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { openDocument, type TextItem } from './pdfjs';
import { chunkBlocks } from './chunks';
import { ocrPdfPages } from './pdf-ocr';
import { textBoxesOf } from './ocr';
import { layoutDocument, toMarkdown, type PageText, type Run } from './pdf-layout';
import type { ParseResult, Progress } from './protocol';
import { extractActivities } from './chemistry/activities';
import { labelCandidates } from './chemistry/labels';

const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

const isTextItem = (item: object): item is TextItem => 'str' in item && 'transform' in item;

const byPage = (a: { page: number }, b: { page: number }) => a.page - b.page;

/**
 * PDF → structured markdown and passages with page and box (pdfjs-dist, legacy build for Node,
 * eval disabled per DESIGN §9; CMaps and standard fonts from the package for Chinese).
 */
export async function parsePdf(file: string, progress: Progress): Promise<ParseResult> {
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
  let doc;
  try {
    doc = await task.promise;
  } catch (err) {
    await close();
    const name = (err as { name?: string }).name;
    if (name === 'PasswordException') throw new Error('PDF 已加密，无法解析');
    if (name === 'InvalidPDFException') throw new Error('PDF 文件已损坏或格式无效');
    throw err;
  }
  try {
    const pages: PageText[] = [];
    const textless: number[] = [];
    progress(2, `共 ${doc.numPages} 页，正在提取文字`);
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const [x0, y0, x1, y1] = page.view as [number, number, number, number];
      const content = await page.getTextContent();
      const runs: Run[] = [];
      for (const item of content.items) {
        if (!isTextItem(item) || !item.str) continue;
        const t = item.transform as number[];
        const size = Math.hypot(t[2] ?? 0, t[3] ?? 0) || item.height;
        runs.push({ text: item.str, x: t[4] ?? 0, y: t[5] ?? 0, width: item.width, size });
      }
      // Boxes stay in the page's user space (PDF points), as pdf.js viewports expect them.
      pages.push({ page: n, x0, y0, width: x1 - x0, height: y1 - y0, runs });
      if (!runs.some((r) => r.text.trim())) textless.push(n);
      page.cleanup();
      progress(2 + (n / doc.numPages) * (textless.length ? 55 : 85));
    }
    // Scanned pages have no text layer: read them with OCR.
    const ocr = textless.length ? await ocrPdfPages(doc, textless, progress) : { blocks: [], lines: [], notes: [] };
    progress(88, '正在识别标题、段落和表格');
    const layout = layoutDocument(pages);
    const blocks = [...layout, ...ocr.blocks].sort(byPage);
    const markdown = toMarkdown(blocks);
    progress(94, '正在建立检索索引');
    const chunks = chunkBlocks(blocks);
    const notes = [...ocr.notes, ...(chunks.length ? [] : ['未提取到文字'])];
    // A scanned page's labels and text boxes for the structure step are its OCR'd lines, each with
    // its own box: its layout blocks may join the labels of a row of drawings into one line, and a
    // paragraph's box spans the drawings beside it.
    return {
      markdown,
      pageCount: doc.numPages,
      chunks,
      molecules: [],
      activities: extractActivities(blocks),
      labelBlocks: labelCandidates([...layout, ...ocr.lines]),
      textBoxes: textBoxesOf(ocr.lines),
      notes,
    };
  } finally {
    await close();
  }
}
