import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from '../helpers';
import { KB, tinyPng, upload, waitParsed } from '../knowledge-helpers';

/**
 * Without Debian's osra: the document still parses, and its progress texts (and the
 * /test page's diagnostics) say what to install. osra is taken away by a PATH whose folder holds
 * every program of /usr/bin but osra (this file's process and the parse processes it starts).
 */
const MISSING = '服务器未安装 osra（Debian 软件包 osra），未识别图片和扫描页中的化学结构';
let server: TestServer;
const savedPath = process.env.PATH;

beforeAll(async () => {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-no-osra-'));
  for (const name of fs.readdirSync('/usr/bin')) if (name !== 'osra') fs.symlinkSync(path.join('/usr/bin', name), path.join(bin, name));
  process.env.PATH = [bin, ...(savedPath ?? '').split(':').filter((p) => !['/usr/bin', '/bin'].includes(p) && !fs.existsSync(path.join(p, 'osra')))].join(':');
  server = await startServer({ CSAI_STRUCTURE_RECOGNITION: '1' });
});
afterAll(async () => {
  await server?.close();
  process.env.PATH = savedPath;
});

describe('structure reading without osra', () => {
  it('parses the document and says in its progress texts and on /test what to install', async () => {
    const pdf = await PDFDocument.create();
    const png = await pdf.embedPng(tinyPng);
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([300, 300]);
    page.drawImage(png, { x: 0, y: 0, width: 300, height: 300 });
    page.drawText('Compound 12a, IC50 = 12 nM', { x: 10, y: 10, size: 8, font });
    const { client } = await signedInUser(server);
    const up = await upload(client, [{ name: 'drawing.pdf', data: Buffer.from(await pdf.save()), type: 'application/pdf' }]);
    expect(up.status).toBe(200);
    const docId = up.body.data.name_id[0]!.docId;
    expect((await waitParsed(client, docId, 600_000)).parseStatus).toBe(2);
    const end = Date.now() + 600_000;
    let texts: string[] = [];
    for (;;) {
      texts = (await client.get<{ progress_texts: string[] }>(`${KB}/doc/${docId}`)).body.data.progress_texts;
      if (texts.at(-1) === '结构式识别完成' || Date.now() > end) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(texts).toContain('解析完成');
    expect(texts.slice(-2)).toEqual([MISSING, '结构式识别完成']);
    // In English for a reader who chose English.
    expect((await client.request('PUT', '/api/v1/auth/me/language', { body: { language: 'en' } })).status).toBe(200);
    const en = (await client.get<{ progress_texts: string[] }>(`${KB}/doc/${docId}`)).body.data.progress_texts;
    expect(en.slice(-2)).toEqual(['osra is not installed on the server (Debian package osra); the chemical structures in pictures and scanned pages were not read', 'Chemical structures read']);
    // The /test page's diagnostics: no osra version.
    const diag = await client.get<{ structure_recognition: { osra: string | null } }>('/api/v1/diagnostics');
    expect(diag.status).toBe(200);
    expect(diag.body.data.structure_recognition.osra).toBe(null);
  }, 1_500_000);
});
