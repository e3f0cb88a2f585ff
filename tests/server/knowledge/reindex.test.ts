import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { TestSqlDb } from '../postgres-harness';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../postgres-harness';
import { INDEX_VERSION } from '../../../src/server/parsing/index-version';
import { REINDEX_JOB, REINDEX_MAX_ATTEMPTS } from '../../../src/server/parsing/reindex';
import { search } from '../../../src/server/retrieval/search';
import { answerText, ask, readEvents, until } from '../answering-helpers';
import { startEmbeddingServer } from '../embedding-server';
import { Client, signedInUser, startServer, type TestServer } from '../helpers';
import { aspirinSdf, KB, makePdf, upload, waitParsed } from '../knowledge-helpers';

// Re-indexing documents whose passages an older chunking version made (or that were renamed):
// at start the server parses them again from the stored files, in the background, and swaps the
// passages in one transaction. Old documents are simulated by writing old-style passages and
// index_version 0 into the SQLite file while the server is down.

const PDF = makePdf([
  ['Kinase selectivity report', 'Compound CSAI-7 inhibits CDK2 with high selectivity and good solubility in water.'],
  ['Second page', 'The hERG assay of CSAI-7 showed no inhibition below ten micromolar concentration.'],
]);
const LEGACY = 'Legacy passage about zebrafish toxicity from the old chunking.';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => undefined);
});
async function start(env: Record<string, string> = {}, dataDir?: string) {
  const server = await startServer(env, dataDir);
  servers.push(server);
  return server;
}
async function stop(server: TestServer) {
  servers.splice(servers.indexOf(server), 1);
  await server.close();
}

interface DocRow {
  index_version: number;
  indexed_title: string | null;
  parse_status: number;
  storage_name: string;
  markdown: string | null;
  progress_texts: string;
}
const docRow = (db: TestSqlDb, id: string) => db.prepare('select * from kb_documents where id = ?').get(id) as DocRow;
const chunkTexts = (db: TestSqlDb, id: string) => (db.prepare('select text from kb_chunks where doc_id = ? order by ordinal').all(id) as { text: string }[]).map((r) => r.text);
const reindexJobs = (db: TestSqlDb, id: string) =>
  db.prepare(`select id, state, attempts, max_attempts from jobs where kind = ? and json_extract(payload, '$.reindexDocId') = ?`).all(REINDEX_JOB, id) as {
    id: number;
    state: string;
    attempts: number;
    max_attempts: number;
  }[];

/** A parsed PDF made to look indexed by an older version, its server stopped; with its row and stored file. */
async function oldPdf() {
  const server = await start();
  const { client } = await signedInUser(server);
  const [pdfId] = await uploadParsed(client, [{ name: 'selectivity.pdf', data: PDF }]);
  await stop(server);
  const sqlite = server.sqlite();
  makeOld(sqlite, pdfId!);
  const row = docRow(sqlite, pdfId!);
  const file = path.join(server.dataDir, 'files', row.storage_name.slice(0, 2), row.storage_name);
  return { server, client, sqlite, pdfId: pdfId!, row, file };
}

/** Makes a parsed document look as if an older version had indexed it: a lone "7." and a legacy passage. */
function makeOld(db: TestSqlDb, id: string) {
  db.transaction(() => {
    db.prepare('delete from kb_chunks where doc_id = ?').run(id);
    const insert = db.prepare('insert into kb_chunks (doc_id, ordinal, page, bbox, text, segmented) values (?, ?, ?, ?, ?, ?)');
    insert.run(id, 0, 1, '[72,700,90,712]', '7.', '7');
    insert.run(id, 1, 1, '[72,600,540,690]', LEGACY, LEGACY.toLowerCase().replace(/[.]/g, ''));
    db.prepare('update kb_documents set index_version = 0, indexed_title = null where id = ?').run(id);
  })();
}

/** Polls the SQLite file until the condition holds. */
async function waitFor<T>(read: () => T, check: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
  return until(async () => read(), check, timeoutMs);
}

async function uploadParsed(client: Client, files: { name: string; data: Buffer | string }[], folderId?: string) {
  const up = await upload(client, files, folderId);
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const ids = up.body.data.name_id.map((n) => n.docId);
  for (const id of ids) expect((await waitParsed(client, id)).parseStatus).toBe(2);
  return ids;
}

describe('documents indexed by an older version', () => {
  it('get new passages after the start (old ones and their vectors gone, vectors rebuilt); earlier citations still open', async () => {
    const embed = await startEmbeddingServer();
    const env = { EMBEDDING_BASE_URL: embed.url, EMBEDDING_MODEL: 'hash-test', EMBEDDING_BATCH_SIZE: '8' };
    try {
      let server = await start(env);
      const { client } = await signedInUser(server);
      const [pdfId, sdfId] = await uploadParsed(client, [
        { name: 'selectivity.pdf', data: PDF },
        { name: 'painkillers.sdf', data: aspirinSdf },
      ]);
      // An answer citing the PDF, made before the re-index.
      const { channelId, questionId } = await ask(client, 'Which compound inhibits CDK2 with high selectivity?', { docIdList: [pdfId] });
      const { events } = await readEvents(client, questionId);
      const cited = events.filter((e) => e.event === 'citation').map((e) => e.data);
      expect(cited[0]).toMatchObject({ docId: pdfId, page: 1 });
      expect(answerText(events)).toContain('CSAI-7');
      // A copy of the PDF under the same name (same bytes): re-indexed from its twin's new passages.
      const folder = await client.post<{ id: string }>(`${KB}/folder`, { name: '副本' });
      const copied = await client.post<{ docId: string }>(`${KB}/copy_doc`, { folder_id: folder.body.data.id, docId: pdfId });
      expect(copied.status, JSON.stringify(copied.body)).toBe(200);
      const copyId = copied.body.data.docId;
      await stop(server);

      let db = server.sqlite();
      makeOld(db, pdfId!);
      makeOld(db, sdfId!);
      makeOld(db, copyId);
      // A vector of an old passage, which must go with it.
      const oldChunk = (db.prepare('select id from kb_chunks where doc_id = ? and ordinal = 1').get(pdfId) as { id: number }).id;
      db.prepare('insert into kb_chunk_vectors (chunk_id, doc_id, model, dims, vector) values (?, ?, ?, ?, ?)').run(oldChunk, pdfId, 'hash-test', 2, Buffer.alloc(8));
      db.close();

      server = await start(env, server.dataDir);
      db = server.sqlite();
      try {
        for (const id of [pdfId!, sdfId!, copyId]) await waitFor(() => docRow(db, id).index_version, (v) => v === INDEX_VERSION);
        const pdfTexts = chunkTexts(db, pdfId!);
        expect(chunkTexts(db, copyId)).toEqual(pdfTexts);
        expect(pdfTexts.join('\n')).toContain('Compound CSAI-7 inhibits CDK2');
        expect(pdfTexts.join('\n')).not.toContain('zebrafish');
        expect(pdfTexts).not.toContain('7.');
        expect(chunkTexts(db, sdfId!)[0]).toMatch(/^painkillers\.sdf：SDF 分子集/);
        expect(docRow(db, pdfId!)).toMatchObject({ parse_status: 2, indexed_title: 'selectivity.pdf' });
        const jobs = await waitFor(() => reindexJobs(db, pdfId!), (j) => j[0]?.state !== 'running');
        expect(jobs.map((j) => j.state)).toEqual(['done']);
        // The old vector went with its passage; the new passages get theirs through the embed jobs.
        expect(db.prepare('select count(*) as n from kb_chunk_vectors where chunk_id = ?').get(oldChunk)).toEqual({ n: 0 });
        const vectors = () =>
          db.prepare(`select (select count(*) from kb_chunks where doc_id = @id) as chunks,
            (select count(*) from kb_chunk_vectors v join kb_chunks c on c.id = v.chunk_id where v.doc_id = @id) as vectors`).get({ id: pdfId }) as { chunks: number; vectors: number };
        await waitFor(vectors, (v) => v.chunks > 0 && v.vectors === v.chunks, 30_000);

        // The earlier answer's citation (document, page and box) still opens: the answer stored
        // them, not passage ids, and the document and its file are the same.
        const again = client.at(server.url);
        const list = await again.get<{ items: { question_id: string; citations: unknown[] }[] }>(`/api/v1/channel/questions/${channelId}`);
        expect(list.status).toBe(200);
        expect(list.body.data.items.find((q) => q.question_id === questionId)!.citations).toEqual(cited);
        const doc = await again.get<{ parseStatus: number; page_count: number }>(`${KB}/doc/${pdfId}`);
        expect(doc.body.data).toMatchObject({ parseStatus: 2, page_count: 2 });
        const download = await fetch(`${server.url}${KB}/download/${pdfId}`, { headers: { cookie: [...again.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') } });
        expect(download.status).toBe(200);
        expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);
      } finally {
        db.close();
      }
    } finally {
      await embed.close();
    }
  }, 120_000);

  it('stay searchable while their re-index runs, and the re-index resumes after a restart', async () => {
    const old = await oldPdf();
    let { server, sqlite } = old;
    const { pdfId, file } = old;
    // The stored file becomes a named pipe: the re-index waits on it until the test writes the bytes.
    sqlite.close();
    fs.unlinkSync(file);
    execFileSync('mkfifo', [file]);

    server = await start({}, server.dataDir);
    sqlite = server.sqlite();
    const db = await openTestDatabase(server.dataDir);
    try {
      const [job] = await waitFor(() => reindexJobs(sqlite, pdfId), (jobs) => jobs[0]?.state === 'running');
      // Mid re-index: the old passages are found as before.
      const during = await search(db, [pdfId], 'zebrafish toxicity', 3);
      expect(during.map((h) => h.text)).toEqual([LEGACY]);
      expect(docRow(sqlite, pdfId)).toMatchObject({ parse_status: 2, index_version: 0 });

      // Stopped mid re-index: the job is left for the next start. Opening the pipe (read-write,
      // which never blocks on Linux) lets a reader blocked on it go, so the worker thread can end.
      const closing = stop(server);
      await (await fsp.open(file, fs.constants.O_RDWR | fs.constants.O_NONBLOCK)).close();
      await closing;
      expect(chunkTexts(sqlite, pdfId)).toContain(LEGACY);
      fs.unlinkSync(file);
      fs.writeFileSync(file, PDF);

      server = await start({}, server.dataDir);
      await waitFor(() => docRow(sqlite, pdfId).index_version, (v) => v === INDEX_VERSION);
      // The passages are swapped first; the queue marks the job done when its handler returns.
      const jobs = await waitFor(() => reindexJobs(sqlite, pdfId), (j) => j[0]?.state !== 'running');
      expect(jobs.map((j) => [j.id, j.state])).toEqual([[job!.id, 'done']]);
      expect(jobs[0]!.attempts).toBeGreaterThanOrEqual(2);
      const after = await search(db, [pdfId], 'CSAI-7 hERG assay', 3);
      expect(after[0]).toMatchObject({ docId: pdfId, page: 2 });
      expect(await search(db, [pdfId], 'zebrafish toxicity', 3)).toEqual([]);
    } finally {
      sqlite.close();
      await db.destroy();
    }
  }, 120_000);

  it('keep their old passages when every re-index attempt fails, and are not retried at the next start', async () => {
    const old = await oldPdf();
    let { server, sqlite } = old;
    const { client, pdfId, file, row: before } = old;
    // The stored file no longer parses.
    fs.writeFileSync(file, '%PDF-1.4\nthis is not a PDF any more\n');
    sqlite.close();

    server = await start({}, server.dataDir);
    sqlite = server.sqlite();
    try {
      const jobs = await waitFor(() => reindexJobs(sqlite, pdfId), (j) => j[0]?.state === 'failed', 60_000);
      expect(jobs[0]).toMatchObject({ attempts: REINDEX_MAX_ATTEMPTS, max_attempts: REINDEX_MAX_ATTEMPTS });
      expect(chunkTexts(sqlite, pdfId)).toEqual(['7.', LEGACY]);
      expect(docRow(sqlite, pdfId)).toEqual(before);
      const db = await openTestDatabase(server.dataDir);
      try {
        expect((await search(db, [pdfId], 'zebrafish toxicity', 3)).map((h) => h.text)).toEqual([LEGACY]);
      } finally {
        await db.destroy();
      }
      const doc = await client.at(server.url).get<{ parseStatus: number }>(`${KB}/doc/${pdfId}`);
      expect(doc.body.data.parseStatus).toBe(2);

      await stop(server);
      server = await start({}, server.dataDir);
      expect(reindexJobs(sqlite, pdfId)).toEqual(jobs);
    } finally {
      sqlite.close();
    }
  }, 120_000);
});

describe('a renamed document', () => {
  it('is re-indexed under its new name: its file-name words and the SDF overview follow the rename', async () => {
    const server = await start();
    const { client } = await signedInUser(server);
    const folder = async (name: string) => {
      const res = await client.post<{ id: string }>(`${KB}/folder`, { name });
      expect(res.status).toBe(200);
      return res.body.data.id;
    };
    const [a, b] = [await folder('镇痛药 A'), await folder('镇痛药 B')];
    const [inA] = await uploadParsed(client, [{ name: 'painkillers.sdf', data: aspirinSdf }], a);
    const [inB] = await uploadParsed(client, [{ name: 'painkillers.sdf', data: aspirinSdf }], b);
    // Moving B's copy into A renames it: A already holds a painkillers.sdf.
    const moved = await client.post(`${KB}/folder/movedoc`, { folder_id: a, doc_ids: [inB] });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await client.get<{ title: string }>(`${KB}/doc/${inB}`)).body.data.title).toBe('painkillers_1.sdf');

    const sqlite = server.sqlite();
    const db = await openTestDatabase(server.dataDir);
    try {
      await waitFor(() => docRow(sqlite, inB!).indexed_title, (t) => t === 'painkillers_1.sdf');
      expect(docRow(sqlite, inB!).index_version).toBe(INDEX_VERSION);
      // Every passage of an SDF carries the file name's words; the overview names the file.
      const hits = await search(db, [inA!, inB!], 'painkillers 1', 2);
      expect(hits[0]).toMatchObject({ docId: inB });
      expect(chunkTexts(sqlite, inB!)[0]).toMatch(/^painkillers_1\.sdf：SDF 分子集/);
      const markdown = await client.get<{ markdown: string }>(`${KB}/doc_markdown/${inB}`);
      expect(markdown.body.data.markdown).toMatch(/^# painkillers_1\.sdf/);
      // The document that kept its name was left alone.
      expect(reindexJobs(sqlite, inA!)).toEqual([]);
      expect(chunkTexts(sqlite, inA!)[0]).toMatch(/^painkillers\.sdf：/);
    } finally {
      sqlite.close();
      await db.destroy();
    }
  }, 120_000);
});
