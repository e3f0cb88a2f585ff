import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { delivered } from '../../../src/server/parsing/pdf-port';

// parsing/pdf-port.ts: pdf.js's two halves in one thread, without deep copies where none is needed.
describe('the same-thread port of pdf.js', () => {
  it('passes control messages as they are and text chunks with their items, copying the chunk object', () => {
    const pull = { sourceName: 'doc1', targetName: 'doc1_worker', stream: 6, streamId: 3, desiredSize: 1 };
    expect(delivered(pull)).toBe(pull);

    const items = [{ str: '第一行', dir: 'ltr', width: 30, height: 10, transform: [10, 0, 0, 10, 72, 700], fontName: 'g_d0_f1', hasEOL: true }];
    const styles = { g_d0_f1: { fontFamily: 'serif', ascent: 0.9, descent: -0.2, vertical: false } };
    const chunk = { items, styles, lang: null };
    const message = { sourceName: 'doc1_worker', targetName: 'doc1', stream: 4, streamId: 3, chunk };
    const got = delivered(message) as typeof message;
    // As pdf.js's evaluator does after sending a chunk: the same object gets new items and styles.
    chunk.items = [];
    chunk.styles = {} as typeof styles;
    expect(got.chunk.items).toBe(items);
    expect(got.chunk.items[0]!.str).toBe('第一行');
    expect(got.chunk.styles).toBe(styles);
  });

  it('deep-copies everything else: operator lists pdf.js empties after sending, and transferred buffers', () => {
    const fnArray = [1, 2, 3];
    const argsArray = [[0], null, [[1, 2]]];
    const opList = { sourceName: 'doc1_worker', targetName: 'doc1', stream: 4, streamId: 5, chunk: { fnArray, argsArray, lastChunk: false, separateAnnots: null } };
    const got = delivered(opList) as typeof opList;
    fnArray.length = 0;
    argsArray.length = 0;
    expect(got.chunk.fnArray).toEqual([1, 2, 3]);
    expect(got.chunk.argsArray).toEqual([[0], null, [[1, 2]]]);

    const bytes = new Uint8Array([1, 2, 3]);
    const request = { sourceName: 'doc1', targetName: 'doc1_worker', action: 'GetDocRequest', data: { data: bytes } };
    const sent = delivered(request, [bytes.buffer]) as typeof request;
    expect(sent === request).toBe(false);
    expect([...sent.data.data]).toEqual([1, 2, 3]);
    expect(bytes.byteLength).toBe(0); // transferred, as postMessage would
    // A message with an object field that is not a text chunk is copied too.
    const error = { sourceName: 'a', targetName: 'b', stream: 5, streamId: 1, reason: { name: 'UnknownErrorException', message: 'x' } };
    expect(delivered(error) === error).toBe(false);
  });

  it('gives the same text, pages and boxes as pdf.js through its own fake worker', async () => {
    const { getDocument, openDocument } = await import('../../../src/server/parsing/pdfjs');
    const docs = execFileSync(process.execPath, ['scripts/fetch-test-docs.mjs'], { encoding: 'utf8' }).trim();
    const pages = async (doc: Awaited<ReturnType<typeof getDocument>['promise']>) => {
      const out: unknown[] = [];
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        out.push([page.view, await page.getTextContent(), (await page.getOperatorList()).fnArray.length]);
        page.cleanup();
      }
      // Font names carry the document's number in this thread (g_d0_f1, g_d1_f1…).
      return JSON.parse(JSON.stringify(out).replace(/g_d\d+_/g, 'g_')) as unknown[];
    };
    for (const name of ['ctex-faq.pdf', 'fduthesis-en.pdf']) {
      const data = () => new Uint8Array(fs.readFileSync(path.join(docs, name)));
      const reference = await getDocument({ data: data(), isEvalSupported: false, verbosity: 0 }).promise;
      const expected = await pages(reference);
      await reference.destroy();
      const { task, close } = openDocument({ data: data(), isEvalSupported: false, verbosity: 0 });
      const got = await pages(await task.promise);
      await close();
      expect(got).toEqual(expected);
      expect(JSON.stringify(got)).toMatch(name === 'ctex-faq.pdf' ? /常见问题集/ : /thesis/i);
    }
  });

  it('reports a damaged file as pdf.js does, and closes after the failure', async () => {
    const { openDocument } = await import('../../../src/server/parsing/pdfjs');
    const { task, close } = openDocument({ data: new Uint8Array(Buffer.from('%PDF-1.7\nnot really a pdf')), isEvalSupported: false, verbosity: 0 });
    await expect(task.promise).rejects.toMatchObject({ name: 'InvalidPDFException' });
    await close();
  });
});
