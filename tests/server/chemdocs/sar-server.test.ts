import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SarResult } from '../../../src/contract/chemdocs';
import type { MolSearchResult } from '../../../src/contract/molecules';
import { createChemEngine } from '../../../src/server/chem/engine';
import { loadRdkit } from '../../../src/server/chem/rdkit-loader';
import { NO_MODEL_TOOLS } from '../../../src/server/answering/local-engine';
import { answerText, ask, readEvents } from '../answering-helpers';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { KB, upload, waitParsed } from '../knowledge-helpers';

// End to end: a paper (PDF) with a CDK2 activity table and an SDF of its compounds named
// by label, in one knowledge base. Activities are read at parse time, linked to the SDF records by
// label, filter molecule search, answer the question with and without a model path's tool, and
// make the document's SAR table and its CSV / SDF export.

type Placed = [text: string, x: number, y: number, size?: number];

/** A one-page PDF with text placed at the given points (Helvetica). */
function placedPdf(runs: Placed[]): Buffer {
  const ops = runs.map(([t, x, y, size = 10]) => `BT /F1 ${size} Tf ${x} ${y} Td (${t.replace(/[()\\]/g, (c) => `\\${c}`)}) Tj ET`).join('\n');
  const objects = [
    '',
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
    `<< /Length ${Buffer.byteLength(ops)} >>\nstream\n${ops}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out);
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const TABLE_ROWS: [string, string, string][] = [
  ['12a', '45', '3.0'],
  ['12b', '<10', '0.9'],
  ['12c', '850', '66'],
  ['12d', '60', '5.1'],
];
const paper = placedPdf([
  ['Discovery of CDK2 inhibitors', 72, 740, 18],
  ['Table 1. Inhibition of CDK2 by compounds 12a-12d', 72, 690, 10],
  ...[['Compound', 'CDK2 IC50 (nM)', 'Ki (nM)'], ...TABLE_ROWS].flatMap((cells, r) => cells.map((c, i): Placed => [c, 72 + i * 150, 670 - r * 16])),
  ['Compound 12c showed an IC50 of 0.9 uM against CDK9 in the same assay.', 72, 560, 10],
]);

/** The compounds by label: 12a, 12c and 12d carry a sulfonamide, 12b does not. */
const COMPOUNDS: [string, string][] = [
  ['12a', 'Nc1ccc(S(N)(=O)=O)cc1'],
  ['12b', 'CC(=O)Nc1ccc(O)cc1'],
  ['12c', 'CNS(=O)(=O)c1ccccc1'],
  ['12d', 'Cc1ccc(S(N)(=O)=O)cc1'],
];
const SULFONAMIDE = '[#16X4](=O)(=O)[#7]';
const CDK2_BELOW_100 = { target: 'CDK2', measure: 'IC50', relation: '<', value: 100 };

let server: TestServer;
let owner: Client;
let stranger: Client;
let pdfId: string;
let sdfId: string;

async function waitIndexed(docId: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const db = server.sqlite();
    try {
      if (db.prepare('select 1 from molecule_docs where doc_id = ?').get(docId)) return;
    } finally {
      db.close();
    }
    if (Date.now() > until) throw new Error(`molecules of ${docId} not indexed`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const rawGet = (c: Client, path: string) => fetch(`${c.base}${path}`, { headers: { cookie: [...c.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') } });

beforeAll(async () => {
  server = await startServer();
  owner = (await signedInUser(server, { name: '药化' })).client;
  stranger = (await signedInUser(server, { name: '外人' })).client;
  const folder = await owner.post<{ id: string }>(`${KB}/folder`, { name: 'CDK2 项目' });
  expect(folder.status).toBe(200);
  const engine = createChemEngine(await loadRdkit());
  const sdf = COMPOUNDS.map(([label, smiles]) => {
    const molfile = engine.molfile({ smiles });
    return `${label}${molfile.slice(molfile.indexOf('\n')).trimEnd()}\n$$$$\n`;
  }).join('');
  const up = await upload(owner, [{ name: 'cdk2-paper.pdf', data: paper }, { name: 'compounds.sdf', data: sdf }], folder.body.data.id);
  expect(up.status).toBe(200);
  [pdfId, sdfId] = up.body.data.name_id.map((d) => d.docId) as [string, string];
  for (const id of [pdfId, sdfId]) expect((await waitParsed(owner, id, 120_000)).parseStatus).toBe(2);
  for (const id of [pdfId, sdfId]) await waitIndexed(id);
}, 240_000);
afterAll(async () => server?.close());

describe('activities read at parse time', () => {
  it('stores the table rows and the sentence with target, relation, nM value, page and row box', () => {
    const db = server.sqlite();
    try {
      const rows = db.prepare('select label, target, measure, relation, value, unit, value_nm, page, bbox, source from doc_activities where doc_id = ? order by id').all(pdfId) as Array<Record<string, unknown>>;
      const ic50 = rows.filter((r) => r.measure === 'IC50' && r.source === 'table').map((r) => [r.label, r.target, r.relation, r.value_nm, r.page]);
      expect(ic50).toEqual([
        ['12a', 'CDK2', '=', 45, 1],
        ['12b', 'CDK2', '<', 10, 1],
        ['12c', 'CDK2', '=', 850, 1],
        ['12d', 'CDK2', '=', 60, 1],
      ]);
      expect(rows.filter((r) => r.measure === 'Ki')).toHaveLength(4);
      expect(rows.find((r) => r.source === 'text')).toMatchObject({ label: '12c', target: 'CDK9', measure: 'IC50', value_nm: 900 });
      // Each row's box lies inside the table, lower rows lower on the page.
      const boxes = rows.filter((r) => r.measure === 'IC50' && r.source === 'table').map((r) => JSON.parse(String(r.bbox)) as number[]);
      for (let i = 1; i < boxes.length; i++) expect(boxes[i]![3]!).toBeLessThanOrEqual(boxes[i - 1]![1]! + 0.01);
      expect(boxes[0]![3]!).toBeLessThan(690);
    } finally {
      db.close();
    }
  });
});

describe('molecule search with an activity filter', () => {
  it('finds the sulfonamides with CDK2 IC50 < 100 nM, each with its label and table row', async () => {
    const res = await owner.post<MolSearchResult>('/api/v1/mol/search', { query: SULFONAMIDE, mode: 'substructure', activity: CDK2_BELOW_100 });
    expect(res.status).toBe(200);
    const hits = res.body.data.hits;
    expect(hits.map((h) => h.label).sort()).toEqual(['12a', '12d']);
    const a = hits.find((h) => h.label === '12a')!;
    expect(a.doc_id).toBe(sdfId);
    const row = a.activities!.find((x) => x.matches)!;
    expect(row).toMatchObject({ doc_id: pdfId, page: 1, target: 'CDK2', measure: 'IC50', value_nm: 45, source: 'table' });
    expect(row.bbox).toHaveLength(4);
    expect(row.text).toContain('12a');
  });

  it('without the filter, hits still carry their labels and linked activities', async () => {
    const res = await owner.post<MolSearchResult>('/api/v1/mol/search', { query: SULFONAMIDE, mode: 'substructure' });
    expect(res.body.data.hits.map((h) => h.label).sort()).toEqual(['12a', '12c', '12d']);
    const c = res.body.data.hits.find((h) => h.label === '12c')!;
    expect(c.activities!.map((x) => [x.target, x.measure, x.value_nm]).sort()).toEqual([['CDK2', 'IC50', 850], ['CDK2', 'Ki', 66], ['CDK9', 'IC50', 900]].sort());
    // Exact and similarity searches are filtered the same way.
    const exact = await owner.post<MolSearchResult>('/api/v1/mol/search', { query: 'CNS(=O)(=O)c1ccccc1', mode: 'exact', activity: CDK2_BELOW_100 });
    expect(exact.body.data.hits).toEqual([]);
    const similar = await owner.post<MolSearchResult>('/api/v1/mol/search', { query: 'Nc1ccc(S(N)(=O)=O)cc1', mode: 'similarity', threshold: 0.1, activity: { target: 'cdk-2', measure: 'IC50', relation: '<=', value: 10 } });
    expect(similar.body.data.hits.map((h) => h.label)).toEqual(['12b']);
  });

  it('finds nothing for another reader of nothing', async () => {
    const res = await stranger.post<MolSearchResult>('/api/v1/mol/search', { query: SULFONAMIDE, mode: 'substructure', activity: CDK2_BELOW_100 });
    expect(res.status).toBe(200);
    expect(res.body.data.hits).toEqual([]);
  });

  it('answers a bad activity filter with a Chinese 400', async () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ relation: '<' }, /比较关系和活性数值必须同时给出/],
      [{ measure: 'pKa' }, /活性指标必须是/],
      [{ measure: 'IC50', relation: '<', value: -1 }, /活性数值必须是不小于 0 的数字/],
      [{ measure: 'IC50', relation: '!=', value: 1 }, /比较关系必须是/],
      ['CDK2', /活性条件必须是对象/],
      [{}, /活性条件至少要给出/],
      [{ target: 'CDK2', colour: 'red' }, /不支持的参数/],
      [{ target: '' }, /靶点不能为空/],
      [{ measure: 'IC50', relation: '<', value: '100' }, /活性数值必须是/],
    ];
    for (const [activity, message] of bad) {
      const res = await owner.post('/api/v1/mol/search', { query: SULFONAMIDE, mode: 'substructure', activity });
      expect(res.status, JSON.stringify(activity)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
  });
});

describe('the question answered from these records', () => {
  it('without a model: lists 12a and 12d, citing each record and its table row', async () => {
    const { questionId } = await ask(owner, '哪些化合物对 CDK2 的 IC50 小于 100 nM 且含磺酰胺');
    const { events } = await readEvents(owner, questionId);
    const call = events.find((e) => e.event === 'tool_call');
    expect(call?.data.name).toBe('intelligence_search');
    expect(JSON.parse(String(call?.data.arguments))).toMatchObject({ activity: CDK2_BELOW_100, structure: SULFONAMIDE, mode: 'substructure' });
    const text = answerText(events);
    expect(text).toContain(NO_MODEL_TOOLS);
    expect(text).toMatch(/化合物 12a/);
    expect(text).toMatch(/化合物 12d/);
    expect(text).not.toMatch(/化合物 12b|化合物 12c/);
    const citations = events.filter((e) => e.event === 'citation').map((e) => e.data as { docId: string; page: number | null; bbox: unknown; text: string });
    // Each compound cites its SDF record and its table row (page and box).
    expect(citations.filter((c) => c.docId === sdfId)).toHaveLength(2);
    const rows = citations.filter((c) => c.docId === pdfId);
    expect(rows.map((c) => c.page)).toEqual([1, 1]);
    expect(rows.every((c) => Array.isArray(c.bbox))).toBe(true);
    expect(rows.map((c) => c.text).join('\n')).toMatch(/12a[\s\S]*45/);
  });
});

describe('the SAR table of a document', () => {
  it('lists each label with its structure and activities', async () => {
    const res = await owner.get<SarResult>(`${KB}/doc/${pdfId}/sar`);
    expect(res.status).toBe(200);
    const { rows, columns, doc_type } = res.body.data;
    expect(doc_type).toBe(1); // a PDF: the viewer opens it as pages, not as a picture
    expect(rows.map((r) => [r.label, r.smiles !== null, r.mol_key?.startsWith(sdfId) ?? false])).toEqual([
      ['12a', true, true],
      ['12b', true, true],
      ['12c', true, true],
      ['12d', true, true],
    ]);
    expect(columns.map((c) => [c.measure, c.target])).toEqual([['IC50', 'CDK2'], ['Ki', 'CDK2'], ['IC50', 'CDK9']]);
  });

  it('exports CSV that a CSV parser reads', async () => {
    const res = await rawGet(owner, `${KB}/doc/${pdfId}/sar/export?format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const parsed = JSON.parse(execFileSync('python3', ['-c', 'import csv, io, json, sys; print(json.dumps(list(csv.DictReader(io.StringIO(sys.stdin.read().lstrip("\\ufeff"))))))'], { input: await res.text(), encoding: 'utf8' })) as Array<Record<string, string>>;
    expect(parsed.map((r) => [r.Label, r['CDK2 IC50 (nM)'], r['CDK2 IC50 (nM) page']])).toEqual([
      ['12a', '45', '1'],
      ['12b', '<10', '1'],
      ['12c', '850', '1'],
      ['12d', '60', '1'],
    ]);
    expect(parsed[2]!['CDK9 IC50 (nM)']).toBe('900');
  });

  it('exports SDF that RDKit reads back, activities as data fields', async () => {
    const res = await rawGet(owner, `${KB}/doc/${pdfId}/sar/export?format=sdf`);
    expect(res.status).toBe(200);
    const records = (await res.text()).split('$$$$\n').filter((r) => r.trim());
    expect(records).toHaveLength(4);
    const rdkit = await loadRdkit();
    const engine = createChemEngine(rdkit);
    records.forEach((record, i) => {
      const mol = rdkit.get_mol(record);
      expect(mol?.is_valid()).toBe(true);
      expect(engine.describe({ smiles: mol!.get_smiles() }).canonicalSmiles).toBe(engine.describe({ smiles: COMPOUNDS[i]![1] }).canonicalSmiles);
      mol?.delete();
    });
    expect(records[1]).toMatch(/> <Label>\n12b\n/);
    expect(records[1]).toMatch(/> <CDK2_IC50_nM>\n<10\n/);
    expect(records[0]).toMatch(/> <CDK2_Ki_nM>\n3\n/);
  });

  it('answers bad input and strangers with Chinese 4xx', async () => {
    const bad = await owner.get(`${KB}/doc/${pdfId}/sar/export?format=xlsx`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/导出格式必须是 csv 或 sdf/);
    const none = await owner.get(`${KB}/doc/${pdfId}/sar/export`);
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/[\u4e00-\u9fff]/);
    const extra = await owner.get(`${KB}/doc/${pdfId}/sar/export?format=csv&x=1`);
    expect(extra.status).toBe(400);
    const theirs = await stranger.get(`${KB}/doc/${pdfId}/sar`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toMatch(/[\u4e00-\u9fff]/);
    expect((await stranger.get(`${KB}/doc/${pdfId}/sar/export?format=sdf`)).status).toBe(404);
    expect((await owner.get(`${KB}/doc/nope/sar`)).status).toBe(404);
  });
});

describe('deleting the document', () => {
  it('removes its activities with it (foreign key cascade)', async () => {
    const res = await owner.request('DELETE', `${KB}/${pdfId}`);
    expect(res.status).toBe(200);
    const db = server.sqlite();
    try {
      expect((db.prepare('select count(*) as n from doc_activities where doc_id = ?').get(pdfId) as { n: number }).n).toBe(0);
    } finally {
      db.close();
    }
    const after = await owner.post<MolSearchResult>('/api/v1/mol/search', { query: SULFONAMIDE, mode: 'substructure', activity: CDK2_BELOW_100 });
    expect(after.body.data.hits).toEqual([]);
  });
});
