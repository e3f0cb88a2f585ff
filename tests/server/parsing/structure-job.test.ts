import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { KB, makePdf, tinyPng, upload, waitParsed } from '../knowledge-helpers';
import { waitFor } from '../until';
import { greyPng } from '../png';

/**
 * The structure step after the text (parsing/structure-job.ts): a document is parsed
 * and searchable by its text before its drawings are read; the step says where it is in the
 * document's progress texts, ends with a final line, yields to other users' parses, is bounded on
 * bad input, resumes after a restart, and leaves nothing behind when its document is deleted.
 */

type Doc = { parseStatus: number; parse_progress: number; progress_texts: string[] };
const DONE = '结构式识别完成';
const last = (d: Doc) => d.progress_texts[d.progress_texts.length - 1] ?? '';

/**
 * A scanned patent, cheaply: `pages` small pages, each a page-sized picture (one image, painted on
 * every page) under its OCR'd text (a text layer: OCR of 300 pages is the text parse's cost, not this step's).
 */
async function scannedPdf(pages: number, tag: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const png = await pdf.embedPng(tinyPng);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = pdf.addPage([200, 200]);
    page.drawImage(png, { x: 0, y: 0, width: 200, height: 200 });
    // Words that differ page to page, at places that differ (a line repeated at one place is a running footer).
    page.drawText(`Claim ${i} of ${tag}: the compound of example ${i * 7} wherein R${i % 9} is ${['methyl', 'ethyl', 'chloro', 'fluoro', 'amino'][i % 5]}`, { x: 10, y: 40 + (i % 11) * 12, size: 6, font });
  }
  return Buffer.from(await pdf.save());
}

/** A PNG of width × height one-bit pixels, all black (20,000 × 20,000 is ~60 KB): an image too large to read. */
const hugePng = (width: number, height: number) => greyPng(width, height, 1, Buffer.alloc((Math.ceil(width / 8) + 1) * height));

/** A page of noise: 800 × 800 grey pixels at random (seeded). */
async function noisePng(): Promise<Buffer> {
  const pixels = Buffer.alloc(800 * 800);
  let s = 28;
  for (let i = 0; i < pixels.length; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = s >> 23;
  }
  return sharp(pixels, { raw: { width: 800, height: 800, channels: 1 } }).png().toBuffer();
}


const env = { CSAI_STRUCTURE_RECOGNITION: '1' };
let server: TestServer;
let alice: Client;
let bob: Client;
const docOf = async (client: Client, id: string) => (await client.get<Doc>(`${KB}/doc/${id}`)).body.data;
const uploadOne = async (client: Client, name: string, data: Buffer, type: string) => {
  const res = await upload(client, [{ name, data, type }]);
  expect(res.status).toBe(200);
  return res.body.data.name_id[0]!.docId;
};
/** Waits for the structure step's final line; returns the document and how long it took. */
const structuresDone = async (client: Client, id: string, timeoutMs: number) =>
  waitFor('the structure step to end', async () => {
    const d = await docOf(client, id);
    return last(d) === DONE || last(d).startsWith('结构式识别失败') ? d : undefined;
  }, timeoutMs);
const sqlValue = <T>(query: string, ...args: unknown[]): T => {
  const db = server.sqlite();
  try {
    return db.prepare(query).get(...args) as T;
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  server = await startServer(env);
  alice = (await signedInUser(server)).client;
  bob = (await signedInUser(server)).client;
});
afterAll(async () => {
  await server?.close();
});

describe('structures are read after the text, as their own job (issue 28)', () => {
  it('a 300-page scanned PDF is searchable by its text at once; its drawings are read page by page, bounded, while another user parses', async () => {
    const id = await uploadOne(alice, 'scanned-patent.pdf', await scannedPdf(300, 'alpha'), 'application/pdf');
    const parsed = await waitParsed(alice, id, 900_000);
    expect(parsed.parseStatus).toBe(2);
    expect(parsed.progress_texts).toContain('解析完成');
    // Searchable now: its passages are stored, while the structure step has not ended.
    expect(sqlValue<{ n: number }>('select count(*) as n from kb_chunks where doc_id = ?', id).n).toBeGreaterThan(0);
    expect(last(parsed)).not.toBe(DONE);
    expect(last(parsed)).toMatch(/^(等待识别结构式|正在识别结构式)/);

    // The step says which page it is on.
    await waitFor('a page line', async () => (/^正在识别结构式（第 \d+\/300 页）$/.test(last(await docOf(alice, id))) ? true : undefined), 600_000);

    // Another user's one-page PDF does not wait behind it.
    const started = Date.now();
    const small = await uploadOne(bob, 'note.pdf', makePdf([['A small note', 'one page of text']]), 'application/pdf');
    const note = await waitParsed(bob, small, 120_000);
    const waited = Date.now() - started;
    expect(note.parseStatus).toBe(2);
    expect(waited, `Bob's page took ${waited} ms`).toBeLessThan(15_000);
    // Its progress lines replaced one another: one line of the step at a time.
    const during = await docOf(alice, id);
    expect(during.progress_texts.filter((t) => t.startsWith('正在识别结构式')).length).toBeLessThanOrEqual(1);

    // Bounded: the step stops itself at 3 min of reading (a page at 60 s), naming pages left unread.
    const done = await structuresDone(alice, id, 600_000);
    expect(last(done)).toBe(DONE);
    expect(done.progress_texts.filter((t) => t.startsWith('正在识别结构式') || t === '等待识别结构式')).toEqual([]);
    expect(sqlValue<{ state: string }>(`select state from jobs where kind = 'read_structures' and payload like ?`, `%${id}%`).state).toBe('done');
  }, 1_800_000);

  it('an image of 20,000 × 20,000 pixels and a page of noise get a clear line and an end', async () => {
    const huge = await uploadOne(alice, 'huge.png', hugePng(20_000, 20_000), 'image/png');
    const noise = await uploadOne(alice, 'noise.png', await noisePng(), 'image/png');
    const hugeDoc = await structuresDone(alice, huge, 300_000);
    expect(hugeDoc.parseStatus).toBe(2);
    expect(hugeDoc.progress_texts).toContain('图片过大（20000 × 20000 像素），未识别图中的化学结构');
    expect(last(hugeDoc)).toBe(DONE);
    const noiseDoc = await structuresDone(alice, noise, 600_000);
    expect(noiseDoc.parseStatus).toBe(2);
    expect(last(noiseDoc)).toBe(DONE);
  }, 900_000);

  it('a document deleted while its structures are read leaves no job, process or row behind', async () => {
    const id = await uploadOne(alice, 'to-delete.pdf', await scannedPdf(300, 'beta'), 'application/pdf');
    await waitParsed(alice, id, 900_000);
    await waitFor('a page line', async () => (/^正在识别结构式（第/.test(last(await docOf(alice, id))) ? true : undefined), 600_000);
    const del = await alice.request('DELETE', `${KB}/${id}`);
    expect(del.status).toBe(200);
    // The job ends (its task and process are ended), and nothing of the document is written afterwards.
    await waitFor('the job to end', async () => (sqlValue<{ state: string }>(`select state from jobs where kind = 'read_structures' and payload like ?`, `%${id}%`).state === 'done' ? true : undefined), 30_000);
    for (const table of ['doc_structures', 'kb_chunks', 'molecules']) expect(sqlValue<{ n: number }>(`select count(*) as n from ${table} where doc_id = ?`, id).n).toBe(0);
    // The pool goes on: a new document still parses.
    const next = await uploadOne(bob, 'after.pdf', makePdf([['After the deletion']]), 'application/pdf');
    expect((await waitParsed(bob, next, 60_000)).parseStatus).toBe(2);
  }, 1_800_000);

  it('a structure step cut off by a crash resumes after the restart; one cut off every time ends with a final line', async () => {
    const id = await uploadOne(alice, 'short.pdf', await scannedPdf(2, 'gamma'), 'application/pdf');
    await structuresDone(alice, id, 300_000);
    const other = await uploadOne(alice, 'short-2.pdf', await scannedPdf(2, 'delta'), 'application/pdf');
    await structuresDone(alice, other, 300_000);
    await server.close();
    // As a kill -9 leaves them: both jobs running, their documents on a page line; the second has used its attempts.
    const db = server.sqlite();
    try {
      db.prepare(`update jobs set state = 'running', attempts = 1 where kind = 'read_structures' and payload like ?`).run(`%${id}%`);
      db.prepare(`update jobs set state = 'running', attempts = max_attempts where kind = 'read_structures' and payload like ?`).run(`%${other}%`);
      // The page line a running step had written (appended here, so the same on both databases).
      for (const doc of [id, other]) {
        const { progress_texts } = db.prepare('select progress_texts from kb_documents where id = ?').get(doc) as { progress_texts: string };
        db.prepare('update kb_documents set progress_texts = ? where id = ?').run(JSON.stringify([...(JSON.parse(progress_texts) as string[]), '正在识别结构式（第 1/2 页）']), doc);
      }
    } finally {
      db.close();
    }
    server = await startServer(env, server.dataDir);
    const texts = (docId: string) => JSON.parse(sqlValue<{ progress_texts: string }>('select progress_texts from kb_documents where id = ?', docId).progress_texts) as string[];
    await waitFor('the resumed step to end', async () => (texts(id).at(-1) === DONE ? true : undefined), 300_000);
    expect(texts(id).filter((t) => t.startsWith('正在识别结构式'))).toEqual([]);
    expect(texts(other).at(-1)).toBe('结构式识别多次中断，已停止');
    expect(sqlValue<{ state: string }>(`select state from jobs where kind = 'read_structures' and payload like ?`, `%${other}%`).state).toBe('failed');
  }, 900_000);
});
