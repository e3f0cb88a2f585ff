import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersRepo } from '../../../src/server/auth/accounts';
import type { Db } from '../../../src/server/db/database';
import { openTestDatabase, suiteOnPostgres } from '../postgres-harness';
import { storeParseResult } from '../../../src/server/parsing/index-store';
import { addIndexedDocument } from './indexed-documents';
import { search } from '../../../src/server/retrieval/search';
import { matchQuery, segmentForIndex } from '../../../src/server/text/segment';

// search() over a real database (migrations, triggers, FTS5): which passages come back for
// Chinese and English questions, drug names, CAS numbers and SMILES, common-word questions, and
// that nothing outside the asked documents ever does — with the candidate budget at its default
// and forced down so the pruned path (rarest tokens ranked, then re-scored with all) is used.

let dir: string;
let db: Db;
let ownerId: string;

const addDoc = (id: string, passages: Array<{ page: number; text: string }>) => addIndexedDocument(db, ownerId, id, passages);

// Lab-notebook passages: "the", "reaction", 室温 … in every one, "catalyst" in every fourth, "yield" in every fifth.
const filler = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    page: 100 + i,
    text: `The reaction of the sample and the solvent was measured at the temperature of the lab, run ${i}.${i % 4 ? '' : ' A catalyst was added.'}${i % 5 ? '' : ' The yield was recorded.'} 反应在室温下进行，溶剂为水。`,
  }));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-search-'));
  db = await openTestDatabase(dir);
  ownerId = (await usersRepo(db).create({ email: 's@example.com', phone: null, name: '检索', password_hash: 'x', department_id: null, status: 'active' })).id;
  await addDoc('drugs', [
    { page: 1, text: '布洛芬是一种非甾体抗炎药，用于缓解疼痛和发热。' },
    { page: 2, text: '本品含布地奈德，可缓解哮喘；辅料含芬太尼之外的成分。' },
    { page: 3, text: '阿司匹林（CAS 50-78-2，C9H8O4）的 SMILES 是 CC(=O)Oc1ccccc1C(=O)O。' },
    { page: 4, text: 'Paracetamol (acetaminophen), SMILES CC(=O)Nc1ccc(O)cc1, is an analgesic and antipyretic.' },
    { page: 5, text: 'Imatinib is a tyrosine kinase inhibitor used to treat chronic myeloid leukemia.' },
    { page: 6, text: 'Imatinib as a catalyst additive lowered the yield of the coupling step.' },
    ...filler(40),
  ]);
  await addDoc('other', [
    { page: 1, text: '布洛芬的剂量：成人每次 200 mg，每日不超过 1200 mg。' },
    { page: 2, text: 'Imatinib dosing: 400 mg once daily with a meal.' },
    ...filler(10),
  ]);
  // The same words in a third document, written after 'other', so a search over 'drugs' and
  // 'third' spans the rowids of 'other' too.
  await addDoc('third', [
    { page: 7, text: 'Imatinib resistance arises from BCR-ABL kinase domain mutations.' },
    { page: 8, text: '布洛芬与对乙酰氨基酚可交替使用。' },
  ]);
  await addDoc('empty', []);
}, 60_000);

afterAll(async () => {
  await db?.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('search: what comes back', () => {
  it('finds a Chinese drug name the dictionary does not know, on its page, first', async () => {
    const hits = await search(db, ['drugs'], '布洛芬有什么作用', 3);
    expect(hits[0]).toMatchObject({ docId: 'drugs', page: 1, bbox: [10, 20, 300, 40] });
    expect(hits[0]!.text).toContain('布洛芬');
    expect(hits[0]!.score).toBeGreaterThan(0);
  });

  it('answers an English question with the passage about it, best first', async () => {
    const hits = await search(db, ['drugs'], 'Which kinase inhibitor treats chronic myeloid leukemia?', 3);
    expect(hits[0]?.page).toBe(5);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
  });

  it('finds another form of an English word (classifying / classified), on both engines', async () => {
    await addDoc('forms', [
      { page: 1, text: 'Sulfonamides were classified into antibacterial and diuretic families.' },
      { page: 2, text: 'Diuretic dosing is adjusted to the kidney function.' },
    ]);
    const hits = await search(db, ['forms'], 'classifying a sulfonamide', 2);
    expect(hits[0]?.page).toBe(1);
    expect(hits.map((h) => h.page)).not.toContain(2);
    await db.deleteFrom('kb_chunks').where('doc_id', '=', 'forms').execute();
    await db.deleteFrom('kb_documents').where('id', '=', 'forms').execute();
  });

  it('finds a compound by CAS number, by exact SMILES and by formula', async () => {
    expect((await search(db, ['drugs'], '50-78-2', 2))[0]?.page).toBe(3);
    expect((await search(db, ['drugs'], 'CC(=O)Nc1ccc(O)cc1', 2))[0]?.page).toBe(4);
    expect((await search(db, ['drugs'], 'C9H8O4 是什么', 2))[0]?.page).toBe(3);
  });

  it('returns only passages of the asked documents, even when other documents lie between them', async () => {
    for (const budget of [undefined, 3]) {
      const one = await search(db, ['drugs'], 'Imatinib 布洛芬 剂量 dosing', 20, { budget });
      expect(one.length).toBeGreaterThan(0);
      expect(new Set(one.map((h) => h.docId))).toEqual(new Set(['drugs']));
      const two = await search(db, ['drugs', 'third'], 'Imatinib dosing 布洛芬 剂量', 50, { budget });
      expect(two.some((h) => h.docId === 'third')).toBe(true);
      expect(two.every((h) => h.docId === 'drugs' || h.docId === 'third')).toBe(true);
      expect(await search(db, ['other'], 'Imatinib dosing', 5, { budget })).toEqual([expect.objectContaining({ docId: 'other', page: 2 })]);
    }
  });

  // FTS5 itself is asked here; on PostgreSQL, postgres-retrieval.test.ts compares the two engines.
  it.skipIf(suiteOnPostgres())('gives FTS5 BM25 over all the tokens, unchanged, when every candidate fits the budget', async () => {
    const q = 'reaction temperature of the solvent, Imatinib';
    const hits = await search(db, ['drugs', 'other'], q, 10);
    const plain = await sql<{ text: string; rank: number }>`
      select c.text, bm25(kb_chunks_fts) as rank from kb_chunks_fts join kb_chunks c on c.id = kb_chunks_fts.rowid
      where kb_chunks_fts match ${matchQuery(q)} and c.doc_id in ('drugs', 'other') order by rank, c.id limit 10`.execute(db);
    expect(hits.map((h) => h.text)).toEqual(plain.rows.map((r) => r.text));
    hits.forEach((h, i) => expect(h.score).toBeCloseTo(-plain.rows[i]!.rank, 9));
  });

  it('with a tight budget ranks by the rare words and still lets the common ones order the candidates', async () => {
    // "imatinib" is in three passages, "catalyst" and "yield" in about ten each: with room for four
    // candidates only the "imatinib" passages are ranked by FTS5 (the shortest would win), and the
    // re-scoring with every word puts the one that also says "catalyst" and "yield" first.
    const q = 'imatinib catalyst yield';
    const tight = await search(db, ['drugs', 'other'], q, 3, { budget: 4 });
    expect(tight.map((h) => [h.docId, h.page])).toEqual([['drugs', 6], expect.anything(), expect.anything()]);
    expect(new Set(tight.map((h) => h.text.split(' ')[0]))).toEqual(new Set(['Imatinib']));
    expect(tight[0]!.score).toBeGreaterThan(tight[1]!.score);
    expect((await search(db, ['drugs', 'other'], q, 3))[0]).toMatchObject({ docId: 'drugs', page: 6 });
  });

  it('answers a question made only of very common words with passages holding them', async () => {
    for (const budget of [undefined, 5]) {
      const en = await search(db, ['drugs'], 'the of and at', 5, { budget });
      expect(en).toHaveLength(5);
      for (const h of en) expect(h.text.toLowerCase()).toMatch(/\bthe\b/);
      const zh = await search(db, ['drugs', 'other'], '反应在室温下进行', 5, { budget });
      expect(zh).toHaveLength(5);
      for (const h of zh) expect(h.text).toContain('室温');
    }
  });

  it('returns nothing (and does not fail) for empty, garbage, FTS5-syntax and huge questions, or documents without passages', async () => {
    const questions = ['', '   ', '。，！？', '*', '"', '""', 'NEAR(', 'AND OR NOT', '^foo', '"); drop table kb_chunks; --', '-', 'x'.repeat(5000), '布洛芬 '.repeat(20_000), Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ')];
    for (const q of questions) {
      const hits = await search(db, ['drugs', 'other'], q, 5);
      expect(Array.isArray(hits), q.slice(0, 20)).toBe(true);
      for (const h of hits) expect(['drugs', 'other']).toContain(h.docId);
    }
    expect(await search(db, ['drugs'], '布洛芬 '.repeat(20_000), 3)).not.toHaveLength(0);
    expect(await search(db, [], '布洛芬', 5)).toEqual([]);
    expect(await search(db, ['empty'], '布洛芬', 5)).toEqual([]);
    expect(await search(db, ['no-such-doc'], '布洛芬', 5)).toEqual([]);
    expect(await search(db, ['drugs'], 'zzzqqqxxx unknownword', 5)).toEqual([]);
    expect(await db.selectFrom('kb_chunks').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).toEqual({ n: 60 });
  });

  it('keeps k between 1 and 100', async () => {
    // "sample" and "solvent" are in the 50 lab passages and nowhere else.
    expect(await search(db, ['drugs'], 'sample solvent', 0)).toHaveLength(1);
    expect(await search(db, ['drugs'], 'sample solvent', Number.NaN)).toHaveLength(8);
    expect((await search(db, ['drugs', 'other', 'third'], 'sample solvent', 1000)).length).toBe(50);
    // Only common words and room for 10 candidates: the first 10 passages holding them are ranked.
    expect((await search(db, ['drugs', 'other', 'third'], 'sample solvent', 1000, { budget: 10 })).length).toBe(10);
  });

  it('finds a re-parsed document under its new passages only', async () => {
    await storeParseResult(db, 'third', {
      markdown: '',
      pageCount: 1,
      chunks: [{ page: 1, bbox: null, text: 'Gefitinib targets EGFR.', segmented: segmentForIndex('Gefitinib targets EGFR.') }],
      molecules: [],
      notes: [],
    });
    expect(await search(db, ['third'], 'Gefitinib', 5)).toEqual([expect.objectContaining({ docId: 'third', page: 1, bbox: null, text: 'Gefitinib targets EGFR.' })]);
    expect(await search(db, ['third'], 'Imatinib resistance', 5)).toEqual([]);
    const both = await search(db, ['drugs', 'third'], 'Gefitinib Imatinib', 5);
    expect(both.map((h) => h.page).sort()).toEqual([1, 5, 6]);
    expect(both.find((h) => h.page === 1)?.docId).toBe('third');
  });
});
