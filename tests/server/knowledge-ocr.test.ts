import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
