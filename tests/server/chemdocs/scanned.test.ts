import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocStructure } from '../../../src/contract/structures';
import { loadRdkit } from '../../../src/server/chem/rdkit-loader';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { KB, upload, waitParsed } from '../knowledge-helpers';

/**
 * Scans of drawn structures (issue 28 §1–2): a page of RDKit drawings (Debian python3-rdkit) with
 * "化合物 10a" under each and a caption above, as a 200 dpi picture, uploaded through the real server
 * as an image-only PDF (no text layer: the parse reads its text with OCR) and as a PNG. Its
 * structures are found with their page, box, SMILES (InChIKey by Debian's RDKit) and label.
 */
const DRAWN = [
  { smiles: 'CC(=O)Oc1ccccc1C(=O)O', label: '10a' },
  { smiles: 'Cn1cnc2c1c(=O)n(C)c(=O)n2C', label: '10b' },
  { smiles: 'Nc1ccc(S(N)(=O)=O)cc1', label: '10c' },
  { smiles: 'CC(C)Cc1ccc(C(C)C(=O)O)cc1', label: '10d' },
];
/** The page: US letter at 200 dpi; each drawing in a cell of 420 × 330 pixels, its label under it. */
const DPI = 200;
const [PAGE_W, PAGE_H] = [1700, 2200];
const [CELL_W, CELL_H] = [420, 330];
const CELLS = [
  [220, 420],
  [1000, 420],
  [220, 1000],
  [1000, 1000],
] as const;

/** InChIKeys by @rdkit/rdkit's InChI (Debian's python3-rdkit is built without it); '' for what it cannot read. */
async function inchiKeys(smiles: string[]): Promise<string[]> {
  const rdkit = await loadRdkit();
  return smiles.map((s) => {
    const mol = rdkit.get_mol(s);
    if (!mol) return '';
    try {
      return mol.is_valid() ? rdkit.get_inchikey_for_inchi(mol.get_inchi()) : '';
    } finally {
      mol.delete();
    }
  });
}

/**
 * The scanned page as a PNG: drawings (their margins trimmed, as a paper's figures are, each centred
 * in its cell), each label under its drawing, a title and captions, on slightly grey paper, a little blurred.
 */
async function scannedPage(dir: string): Promise<Buffer> {
  execFileSync('/usr/bin/python3', [path.join(__dirname, 'scan-draw.py'), dir, String(CELL_W), String(CELL_H), ...DRAWN.map((d) => d.smiles)]);
  const drawings = await Promise.all(
    CELLS.map(async ([x, y], i) => {
      const { data, info } = await sharp(path.join(dir, `${i}.png`)).trim().png().toBuffer({ resolveWithObject: true });
      return { input: data, left: Math.round(x + (CELL_W - info.width) / 2), top: Math.round(y + (CELL_H - info.height) / 2), height: info.height };
    }),
  );
  const text = (x: number, y: number, size: number, s: string, anchor = 'start') => `<text x="${x}" y="${y}" font-size="${size}" text-anchor="${anchor}" font-family="Noto Serif CJK SC, serif">${s}</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${PAGE_W}" height="${PAGE_H}">
    ${text(200, 250, 44, 'CDK2 抑制剂的设计与合成')}
    ${text(200, 330, 30, '图 1 本文合成的目标化合物，结构经核磁共振氢谱和高分辨质谱确证。')}
    ${CELLS.map(([x], i) => text(x + CELL_W / 2, drawings[i]!.top + drawings[i]!.height + 60, 32, `化合物 ${DRAWN[i]!.label}`, 'middle')).join('\n')}
    ${text(200, 1600, 30, '所有化合物对 CDK2 的抑制活性见表 2，其中化合物 10b 的活性最好。')}
  </svg>`;
  return sharp({ create: { width: PAGE_W, height: PAGE_H, channels: 3, background: { r: 246, g: 245, b: 240 } } })
    .composite([...drawings.map(({ input, left, top }) => ({ input, left, top, blend: 'multiply' as const })), { input: Buffer.from(svg), left: 0, top: 0 }])
    .blur(0.6)
    .greyscale()
    .png()
    .toBuffer();
}

/** The page as a PDF of one picture and no text (a scanner's output). */
async function imageOnlyPdf(png: Buffer): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(png);
  const [w, h] = [(PAGE_W * 72) / DPI, (PAGE_H * 72) / DPI];
  pdf.addPage([w, h]).drawImage(image, { x: 0, y: 0, width: w, height: h });
  return Buffer.from(await pdf.save());
}

let server: TestServer;
let owner: Client;
let png: Buffer;
let pdf: Buffer;

/** Uploads a file and waits for its structure step's final line; returns its structures and progress texts. */
async function readStructures(name: string, data: Buffer, type: string): Promise<{ structures: DocStructure[]; texts: string[] }> {
  const up = await upload(owner, [{ name, data, type }]);
  expect(up.status).toBe(200);
  const id = up.body.data.name_id[0]!.docId;
  const parsed = await waitParsed(owner, id, 600_000);
  expect(parsed.parseStatus).toBe(2);
  const until = Date.now() + 600_000;
  let texts = parsed.progress_texts;
  while (texts.at(-1) !== '结构式识别完成') {
    if (Date.now() > until || texts.at(-1)?.startsWith('结构式识别失败')) throw new Error(`structures not read: ${JSON.stringify(texts)}`);
    await new Promise((r) => setTimeout(r, 500));
    texts = (await owner.get<{ progress_texts: string[] }>(`${KB}/doc/${id}`)).body.data.progress_texts;
  }
  const res = await owner.get<{ structures: DocStructure[] }>(`${KB}/doc/${id}/structures`);
  expect(res.status).toBe(200);
  return { structures: res.body.data.structures, texts };
}

/**
 * The drawn molecules found where they are drawn: for each structure read, the cell its box's
 * centre falls in (`toPixels` maps a stored box to the page's pixels, origin top-left). Returns the
 * cells read exactly (InChIKey equal) with the structure read there.
 */
async function exactByCell(structures: DocStructure[], toPixels: (b: [number, number, number, number]) => [number, number, number, number]) {
  const keys = await inchiKeys(structures.map((s) => s.smiles));
  const want = await inchiKeys(DRAWN.map((d) => d.smiles));
  expect(want.every(Boolean)).toBe(true);
  const found = new Map<number, DocStructure>();
  structures.forEach((s, i) => {
    const [x0, y0, x1, y1] = toPixels(s.bbox);
    const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2];
    const cell = CELLS.findIndex(([l, t]) => cx >= l && cx <= l + CELL_W && cy >= t && cy <= t + CELL_H);
    if (cell >= 0 && keys[i] === want[cell]) found.set(cell, s);
  });
  return found;
}

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-scanned-'));
  try {
    png = await scannedPage(dir);
    pdf = await imageOnlyPdf(png);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  server = await startServer({ CSAI_STRUCTURE_RECOGNITION: '1' });
  owner = (await signedInUser(server, { name: '化学家' })).client;
}, 600_000);
afterAll(async () => {
  await server?.close();
});

describe('structures read from scans (issue 28)', () => {
  it('a scanned PDF (no text layer): its drawn structures are found with page, box, SMILES and label', async () => {
    const { structures, texts } = await readStructures('scanned-drawings.pdf', pdf, 'application/pdf');
    expect(texts).toContain('第 1 页为扫描图像，已用 OCR 识别文字');
    expect(texts.some((t) => /^从图中识别出 \d+ 个化学结构$/.test(t))).toBe(true);
    for (const s of structures) {
      expect(s.page).toBe(1);
      const [x0, y0, x1, y1] = s.bbox;
      expect(0 <= x0 && x0 < x1 && x1 <= 612 && 0 <= y0 && y0 < y1 && y1 <= 792, JSON.stringify(s.bbox)).toBe(true);
    }
    // PDF points (origin bottom-left) to the page's pixels.
    const k = DPI / 72;
    const found = await exactByCell(structures, ([x0, y0, x1, y1]) => [x0 * k, PAGE_H - y1 * k, x1 * k, PAGE_H - y0 * k]);
    expect(found.size, JSON.stringify(structures.map((s) => [s.smiles, s.bbox, s.label]))).toBeGreaterThanOrEqual(3);
    // Each with the label printed under it (read from the OCR'd lines).
    for (const [cell, s] of found) expect(s.label).toBe(DRAWN[cell]!.label);
  }, 900_000);

  it('an image of drawings with labels under them: its structures carry their labels', async () => {
    const { structures } = await readStructures('drawings.png', png, 'image/png');
    for (const s of structures) expect(s.page).toBe(1);
    // The image's pixels, origin bottom-left.
    const found = await exactByCell(structures, ([x0, y0, x1, y1]) => [x0, PAGE_H - y1, x1, PAGE_H - y0]);
    expect(found.size, JSON.stringify(structures.map((s) => [s.smiles, s.bbox, s.label]))).toBeGreaterThanOrEqual(3);
    // Each with the label printed under it, read from the image's OCR'd lines (the review panel said 未读到编号).
    for (const [cell, s] of found) expect(s.label).toBe(DRAWN[cell]!.label);
  }, 900_000);
});
