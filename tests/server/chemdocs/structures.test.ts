import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MolSearchResult } from '../../../src/contract/molecules';
import type { DocStructure } from '../../../src/contract/structures';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { KB, upload, waitParsed } from '../knowledge-helpers';

// A paper-like page of RDKit vector drawings (Debian python3-rdkit), printed to PDF by Chromium,
// parsed by the real server with Debian's osra.
const ASPIRIN = 'CC(=O)Oc1ccccc1C(=O)O';
const SULFANILAMIDE = 'Nc1ccc(S(N)(=O)=O)cc1';
const DRAWN = [ASPIRIN, 'CC(C)Cc1ccc(C(C)C(=O)O)cc1', SULFANILAMIDE, 'Cn1cnc2c1c(=O)n(C)c(=O)n2C'];
const ASPIRIN_KEY = 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N';

function drawnPdf(dir: string): Buffer {
  const html = path.join(dir, 'page.html');
  execFileSync('/usr/bin/python3', [path.join(__dirname, 'chemdocs-draw.py'), html, ...DRAWN]);
  const pdf = path.join(dir, 'page.pdf');
  execFileSync('/usr/bin/chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-pdf-header-footer', `--print-to-pdf=${pdf}`, html], { stdio: 'ignore', timeout: 120_000 });
  return fs.readFileSync(pdf);
}

type NameId = { name_id: Array<{ name: string; docId: string }> };
let server: TestServer;
let owner: Client;
let reader: Client;
let stranger: Client;
let readerId: string;
let docId: string;
let pdf: Buffer;

async function waitIndexed(id: string, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const db = server.sqlite();
    try {
      // Indexed with the drawings' structures (the text's molecules may be indexed before them).
      if (db.prepare(`select 1 from molecules where doc_id = ? and source = 'figure'`).get(id)) return;
    } finally {
      db.close();
    }
    if (Date.now() > until) throw new Error('not indexed');
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-chemdocs-'));
  pdf = drawnPdf(dir);
  server = await startServer({ CSAI_STRUCTURE_RECOGNITION: '1' });
  const [o, r, s] = await Promise.all([signedInUser(server, { name: '化学家' }), signedInUser(server, { name: '读者' }), signedInUser(server, { name: '外人' })]);
  owner = o.client;
  reader = r.client;
  stranger = s.client;
  readerId = r.id;
  const up = await upload<NameId>(owner, [{ name: 'drawings.pdf', data: pdf }]);
  expect(up.status).toBe(200);
  docId = up.body.data.name_id[0]!.docId;
  const parsed = await waitParsed(owner, docId, 600_000);
  expect(parsed.parseStatus).toBe(2);
  // The text is stored first; the drawings are read afterwards as their own job (parsing/structure-job.ts).
  const read = Date.now() + 600_000;
  let texts = parsed.progress_texts;
  while (texts.at(-1) !== '结构式识别完成') {
    if (Date.now() > read) throw new Error(`structures not read: ${JSON.stringify(texts)}`);
    await new Promise((r) => setTimeout(r, 200));
    texts = (await owner.get<{ progress_texts: string[] }>(`${KB}/doc/${docId}`)).body.data.progress_texts;
  }
  expect(texts.some((t) => /^从图中识别出 \d+ 个化学结构$/.test(t))).toBe(true);
  await waitIndexed(docId);
  // Shared with the reader (read only).
  const share = await owner.post(`${KB}/share_doc`, { docId, user_ids: [readerId] });
  expect(share.status).toBe(200);
}, 900_000);
afterAll(async () => {
  await server?.close();
});

describe('structures read from a PDF of drawings', () => {
  it('recovers the drawn molecules with page, box and method', async () => {
    const res = await owner.get<{ structures: DocStructure[] }>(`${KB}/doc/${docId}/structures`);
    expect(res.status).toBe(200);
    const found = res.body.data.structures;
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const s of found) {
      expect(s.page).toBe(1);
      const [x0, y0, x1, y1] = s.bbox;
      expect(x0).toBeLessThan(x1);
      expect(y0).toBeLessThan(y1);
      expect(x1).toBeLessThanOrEqual(613);
      expect(y1).toBeLessThanOrEqual(793);
      expect(s.confidence).toBeGreaterThan(0);
      expect(s.method).toMatch(/^(vector|osra (region|page) \d+ dpi)/);
    }
    // InChIKeys of what was read, by Debian's RDKit (an independent build).
    const keys = execFileSync('/usr/bin/python3', ['-c', 'import sys\nfrom rdkit import Chem\nfor s in sys.argv[1:]: print(Chem.MolToSmiles(Chem.MolFromSmiles(s)))', ...found.map((s) => s.smiles)], { encoding: 'utf8' }).trim().split('\n');
    const want = execFileSync('/usr/bin/python3', ['-c', 'import sys\nfrom rdkit import Chem\nfor s in sys.argv[1:]: print(Chem.MolToSmiles(Chem.MolFromSmiles(s)))', ...DRAWN], { encoding: 'utf8' }).trim().split('\n');
    expect(keys.filter((k) => want.includes(k)).length).toBeGreaterThanOrEqual(2);
  });

  it('finds a drawn molecule by exact and substructure search, with its page and box', async () => {
    const exact = await owner.post<MolSearchResult>('/api/v1/mol/search', { query: ASPIRIN, mode: 'exact' });
    expect(exact.status).toBe(200);
    const hit = exact.body.data.hits.find((h) => h.source === 'figure');
    expect(hit, JSON.stringify(exact.body.data.hits)).toBeTruthy();
    expect(hit!.inchikey).toBe(ASPIRIN_KEY);
    expect(hit!.page).toBe(1);
    expect(hit!.bbox).toHaveLength(4);
    expect(typeof hit!.structure_id).toBe('number');
    const sub = await owner.post<MolSearchResult>('/api/v1/mol/search', { query: 'c1ccccc1C(=O)O', mode: 'substructure' });
    expect(sub.body.data.hits.some((h) => h.source === 'figure' && h.structure_id === hit!.structure_id)).toBe(true);
    // Not for someone who may not read the document.
    const theirs = await stranger.post<MolSearchResult>('/api/v1/mol/search', { query: ASPIRIN, mode: 'exact' });
    expect(theirs.body.data.hits.filter((h) => h.doc_id === docId)).toEqual([]);
  });

  it('refuses bad corrections in Chinese and writes nothing', async () => {
    const list = (await owner.get<{ structures: DocStructure[] }>(`${KB}/doc/${docId}/structures`)).body.data.structures;
    const sid = list[0]!.id;
    const before = JSON.stringify(list);
    const bad = await owner.request('PUT', `${KB}/doc/${docId}/structures/${sid}`, { body: { smiles: 'C1CC(' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/[\u4e00-\u9fff]/);
    const neither = await owner.request('PUT', `${KB}/doc/${docId}/structures/${sid}`, { body: {} });
    expect(neither.status).toBe(400);
    expect(neither.body.message).toBe('请提供 SMILES 或 Molfile 其中之一');
    const unknown = await owner.request('PUT', `${KB}/doc/${docId}/structures/999999`, { body: { smiles: 'CCO' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('该文档中没有这个结构');
    const badId = await owner.request('PUT', `${KB}/doc/${docId}/structures/abc`, { body: { smiles: 'CCO' } });
    expect(badId.status).toBe(400);
    const wrongDoc = await owner.request('PUT', `${KB}/doc/nope/structures/${sid}`, { body: { smiles: 'CCO' } });
    expect(wrongDoc.status).toBe(404);
    const noAccess = await stranger.request('PUT', `${KB}/doc/${docId}/structures/${sid}`, { body: { smiles: 'CCO' } });
    expect(noAccess.status).toBe(404);
    expect((await stranger.get(`${KB}/doc/${docId}/structures`)).status).toBe(404);
    expect(JSON.stringify((await owner.get<{ structures: DocStructure[] }>(`${KB}/doc/${docId}/structures`)).body.data.structures)).toBe(before);
  });

  it('lets a reader of the shared document see the structures', async () => {
    const res = await reader.get<{ structures: DocStructure[] }>(`${KB}/doc/${docId}/structures`);
    expect(res.status).toBe(200);
    expect(res.body.data.structures.length).toBeGreaterThan(0);
  });

  it('stores a correction with who made it; it wins for every reader and in search', async () => {
    const list = (await owner.get<{ structures: DocStructure[] }>(`${KB}/doc/${docId}/structures`)).body.data.structures;
    const s = list[0]!;
    const fixed = await owner.request<DocStructure>('PUT', `${KB}/doc/${docId}/structures/${s.id}`, { body: { smiles: 'OC(=O)c1ccccc1OC(=O)CC' } });
    expect(fixed.status).toBe(200);
    expect(fixed.body.data.smiles).toBe('CCC(=O)Oc1ccccc1C(=O)O');
    expect(fixed.body.data.recognized_smiles).toBe(s.recognized_smiles);
    expect(fixed.body.data.corrected_by_name).toBe('化学家');
    const seen = await reader.get<{ structures: DocStructure[] }>(`${KB}/doc/${docId}/structures`);
    expect(seen.body.data.structures.find((x) => x.id === s.id)!.smiles).toBe('CCC(=O)Oc1ccccc1C(=O)O');
    const hits = await reader.post<MolSearchResult>('/api/v1/mol/search', { query: 'CCC(=O)Oc1ccccc1C(=O)O', mode: 'exact' });
    expect(hits.body.data.hits.some((h) => h.structure_id === s.id)).toBe(true);
  });
});
