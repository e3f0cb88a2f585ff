import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// pdf.js's legacy build replaces Array.prototype.push (with a loop about twice as slow), JSON.parse,
// JSON.stringify and Function.prototype.toString for its whole thread; parsing/pdfjs.ts gives the
// engine's own back once both halves of pdf.js are loaded, and pdf.js still extracts text. It also
// takes away the web DecompressionStream, so pdf.js inflates each page's content in this thread
// (its own inflate) instead of through a zlib stream on the libuv pool.
describe('pdf.js loaded through parsing/pdfjs.ts', () => {
  it('leaves the built-ins as the engine has them and still reads a PDF', async () => {
    const before = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify, toString: Function.prototype.toString };
    const { getDocument } = await import('../../../src/server/parsing/pdfjs');
    expect(Array.prototype.push).toBe(before.push);
    expect(JSON.parse).toBe(before.parse);
    expect(JSON.stringify).toBe(before.stringify);
    expect(Function.prototype.toString).toBe(before.toString);
    expect('DecompressionStream' in globalThis).toBe(false);

    const docs = execFileSync(process.execPath, ['scripts/fetch-test-docs.mjs'], { encoding: 'utf8' }).trim();
    const doc = await getDocument({ data: new Uint8Array(fs.readFileSync(path.join(docs, 'ctex-faq.pdf'))), isEvalSupported: false, verbosity: 0 }).promise;
    const page = await doc.getPage(1);
    const text = (await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join('');
    await doc.destroy();
    expect(text).toContain('CTEX');
    // The worker half ran from the module loaded here (no second copy with its polyfills).
    expect(Array.prototype.push).toBe(before.push);
  });
});
