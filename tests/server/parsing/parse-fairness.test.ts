import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { KB, makePdf, tinyPng, upload, waitParsed } from '../knowledge-helpers';
import { waitFor } from '../until';

/**
 * The probe's parse bomb: 100 pages of 1600 × 1600 pt, each painting one 1 × 1 image
 * and no text, so every page is rendered and sent to OCR (~27 KB of PDF, minutes of work).
 */
async function parseBomb(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const png = await pdf.embedPng(tinyPng);
  for (let i = 0; i < 100; i++) pdf.addPage([1600, 1600]).drawImage(png, { x: 10, y: 10, width: 1, height: 1 });
  return Buffer.from(await pdf.save());
}

type Doc = { parseStatus: number; parse_progress: number; progress_texts: string[] };
const docOf = async (client: Client, id: string) => (await client.get<Doc>(`${KB}/doc/${id}`)).body.data;


let server: TestServer;
beforeAll(async () => {
  // One parse process per core, at most two: two on the probe's machine and on this one.
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('parsing is shared fairly between users (issue 33)', () => {
  it("another user's one-page PDF is parsed within 10 s while one user's OCR bombs hold every parse process", async () => {
    const alice = (await signedInUser(server)).client;
    const bob = (await signedInUser(server)).client;
    const bomb = await parseBomb();
    expect(bomb.length).toBeLessThan(60_000);
    const up = await upload(alice, [
      { name: 'bomb-1.pdf', data: bomb, type: 'application/pdf' },
      { name: 'bomb-2.pdf', data: Buffer.concat([bomb, Buffer.from('\n% 2\n')]), type: 'application/pdf' },
    ]);
    expect(up.status).toBe(200);
    const bombs = up.body.data.name_id.map((n) => n.docId);
    // Both bombs are in their OCR pages: every parse process is busy with Alice's work.
    await waitFor('both bombs to reach OCR', async () => {
      const docs = await Promise.all(bombs.map((id) => docOf(alice, id)));
      return docs.every((d) => d.progress_texts.some((t) => t.includes('OCR'))) ? true : undefined;
    }, 120_000, 100);

    const started = Date.now();
    const small = await upload(bob, [{ name: 'note.pdf', data: makePdf([['A small note', 'one page of text']]), type: 'application/pdf' }]);
    expect(small.status).toBe(200);
    const doc = await waitParsed(bob, small.body.data.name_id[0]!.docId, 120_000);
    const waited = Date.now() - started;
    expect(doc.parseStatus).toBe(2);
    expect(waited, `Bob's page took ${waited} ms`).toBeLessThan(10_000);

    // Alice's documents were paused, not dropped: both go on parsing afterwards.
    const at = await Promise.all(bombs.map((id) => docOf(alice, id)));
    expect(at.every((d) => d.parseStatus === 1)).toBe(true);
    await waitFor('both bombs to make progress again', async () => {
      const now = await Promise.all(bombs.map((id) => docOf(alice, id)));
      return now.every((d, i) => d.parse_progress > at[i]!.parse_progress) ? true : undefined;
    }, 60_000, 100);
  }, 300_000);
});
