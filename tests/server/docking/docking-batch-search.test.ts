import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockingBatch, DockingTask } from '../../../src/contract/docking';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { upload, waitParsed } from '../knowledge-helpers';

// Batch docking from a molecule search: the search's molecules by id, or the search
// itself, docked into 5DPV; only molecules the user may read; bad requests refused with Chinese 4xx
// messages and nothing written. The accepted batches are cancelled at once (docking itself is
// covered by docking-batch.test.ts).

const PDB = '/usr/share/RDKit/Contrib/CalcLigRMSD/data/5dpv.pdb';
const TASKS = '/api/v1/tasks';
const SETTINGS = { receptor: '5DPV', reference_ligand: '5DN', exhaustiveness: 1, num_modes: 2, seed: 7 };
const DIPHENHYDRAMINE = 'CN(C)CCOC(c1ccccc1)c1ccccc1';

/** An SDF written by RDKit (Debian's Python) from [name, SMILES] pairs. */
function sdfOf(mols: Array<[string, string]>): string {
  const script = `
import json, sys
from rdkit import Chem
from rdkit.Chem import AllChem
w = Chem.SDWriter(sys.stdout)
for name, smi in json.load(sys.stdin):
    m = Chem.MolFromSmiles(smi)
    AllChem.Compute2DCoords(m)
    m.SetProp('_Name', name)
    w.write(m)
w.close()
`;
  return execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(mols) }).toString();
}

let server: TestServer;
type User = { client: Client; id: string };
let alice: User;
let bob: User;
let aliceSdf = '';
let bobSdf = '';

async function uploaded(user: User, name: string, data: string | Buffer): Promise<string> {
  const up = await upload(user.client, [{ name, data }], 'folder_for_question_channel');
  const docId = up.body.data.name_id[0]!.docId;
  await waitParsed(user.client, docId, 240_000);
  return docId;
}

/** Waits until the document's molecules are in the table (the indexing job ran). */
async function waitIndexed(docId: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const db = server.sqlite();
    try {
      if (db.prepare('select molecules from molecule_docs where doc_id = ?').get(docId)) return;
    } finally {
      db.close();
    }
    if (Date.now() > until) throw new Error(`molecules of ${docId} not indexed`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The ids of a document's molecules by name (SDF record title). */
function idsOf(docId: string): Map<string, number> {
  const db = server.sqlite();
  try {
    const rows = db.prepare('select id, name from molecules where doc_id = ? order by ordinal').all(docId) as Array<{ id: number; name: string }>;
    return new Map(rows.map((r) => [r.name, r.id]));
  } finally {
    db.close();
  }
}

const counts = async (c: Client) => ({
  batches: (await c.get<DockingBatch[]>(`${TASKS}/batches`)).body.data.length,
  tasks: (await c.get<DockingTask[]>(TASKS)).body.data.length,
});

beforeAll(async () => {
  server = await startServer({ CSAI_DOCKING_MAX_EXHAUSTIVENESS: '8', CSAI_DOCKING_MAX_ACTIVE_PER_USER: '5', CSAI_DOCKING_CPUS: '1', CSAI_DOCKING_MAX_TASKS_PER_USER: '20' });
  alice = await signedInUser(server, { name: '爱丽丝' });
  bob = await signedInUser(server, { name: '鲍勃' });
  // Alice's series: a salt (docked as its parent), two acids and 55 primary alcohols (a search with more than 50 hits).
  const alcohols = Array.from({ length: 55 }, (_, i): [string, string] => [`alcohol-${i + 1}`, `${'C'.repeat(i + 1)}O`]);
  const [, a, b] = await Promise.all([
    uploaded(alice, '5dpv.pdb', fs.readFileSync(PDB)),
    uploaded(alice, 'series.sdf', sdfOf([['diphenhydramine HCl', `${DIPHENHYDRAMINE}.Cl`], ['benzoic acid', 'OC(=O)c1ccccc1'], ['salicylic acid', 'OC(=O)c1ccccc1O'], ...alcohols])),
    uploaded(bob, 'bobs.sdf', sdfOf([['bobs pyridine', 'Oc1ccncc1']])),
  ]);
  aliceSdf = a;
  bobSdf = b;
  await Promise.all([waitIndexed(aliceSdf), waitIndexed(bobSdf)]);
}, 400_000);

afterAll(async () => {
  await server?.close();
});

describe('batch docking from a molecule search', () => {
  it("docks the search's molecules by id, a salt as its parent, with their names", async () => {
    const ids = idsOf(aliceSdf);
    const res = await alice.client.post<DockingBatch>(`${TASKS}/docking/batch`, { ...SETTINGS, molecule_ids: [ids.get('benzoic acid')!, ids.get('diphenhydramine HCl')!, ids.get('benzoic acid')!] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const batch = res.body.data;
    // A repeated id is docked once; the list keeps the order given.
    expect(batch.entries.map((e) => [e.index, e.name, e.smiles])).toEqual([
      [1, 'benzoic acid', 'O=C(O)c1ccccc1'],
      [2, 'diphenhydramine HCl', DIPHENHYDRAMINE],
    ]);
    expect(batch.box.label).toBe('5DN A:401');
    expect((await alice.client.post<DockingBatch>(`${TASKS}/batches/${batch.id}/cancel`)).body.data.state).toBe('cancelled');
  }, 120_000);

  it('docks what a search finds when given the search itself', async () => {
    const res = await alice.client.post<DockingBatch>(`${TASKS}/docking/batch`, { ...SETTINGS, search: { query: 'OC(=O)c1ccccc1', mode: 'substructure' }, name: '苯甲酸类' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.title).toMatch(/^苯甲酸类 → 5DPV/);
    expect(res.body.data.entries.map((e) => e.name).sort()).toEqual(['benzoic acid', 'salicylic acid']);
    await alice.client.post(`${TASKS}/batches/${res.body.data.id}/cancel`);
  }, 120_000);

  it("refuses empty and long lists, other users' molecules, a bad receptor and bad searches with Chinese messages, writing nothing", async () => {
    const mine = idsOf(aliceSdf);
    const theirs = [...idsOf(bobSdf).values()][0]!;
    const benzoic = mine.get('benzoic acid')!;
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ ...SETTINGS, molecule_ids: [] }, 400, /^分子 id 列表不能为空$/],
      [{ ...SETTINGS, molecule_ids: [...mine.values()] }, 400, /^一批最多对接 50 个分子，这里有 58 个：请分成几批提交$/],
      [{ ...SETTINGS, molecule_ids: Array.from({ length: 501 }, (_, i) => i + 1) }, 400, /molecule_ids 最多 500 个/],
      [{ ...SETTINGS, molecule_ids: [benzoic, theirs] }, 400, new RegExp(`^有 1 个分子不存在或你无权读取（id：${theirs}），整批未提交$`)],
      [{ ...SETTINGS, molecule_ids: [987654321] }, 400, /^有 1 个分子不存在或你无权读取（id：987654321）/],
      [{ ...SETTINGS, molecule_ids: ['x'] }, 400, /分子 id 必须是正整数/],
      [{ ...SETTINGS, molecule_ids: [1.5] }, 400, /分子 id 必须是正整数/],
      [{ ...SETTINGS, molecule_ids: [benzoic], ligands: [{ smiles: 'CCO' }] }, 400, /^要对接的分子只能用一种方式给出/],
      [{ ...SETTINGS, molecule_ids: [benzoic], search: { query: 'CCO', mode: 'exact' } }, 400, /^要对接的分子只能用一种方式给出/],
      [{ ...SETTINGS, molecule_ids: [benzoic], receptor: '9ZZZ' }, 404, /9ZZZ/],
      [{ ...SETTINGS, molecule_ids: [benzoic], reference_ligand: 'ABC' }, 400, /找不到配体“ABC”/],
      [{ ...SETTINGS, search: { query: '[CX4][OH]', mode: 'substructure' } }, 400, /^一批最多对接 50 个分子，这次检索找到 55 个：请缩小检索范围，或在检索结果中选出要对接的分子$/],
      [{ ...SETTINGS, search: { query: 'Oc1ccncc1', mode: 'exact' } }, 400, /^这次分子检索没有找到分子/],
      [{ ...SETTINGS, search: { query: 'C1CC(', mode: 'substructure' } }, 400, /\p{Script=Han}/u],
      [{ ...SETTINGS, search: { query: 'CCO', mode: 'fuzzy' } }, 400, /检索方式必须是/],
      [{ ...SETTINGS, search: { query: 'CCO', mode: 'exact', top_k: 5 } }, 400, /top_k/],
    ];
    const before = await counts(alice.client);
    for (const [body, status, message] of cases) {
      const res = await alice.client.post(`${TASKS}/docking/batch`, body);
      const what = JSON.stringify(body).slice(0, 160);
      expect(res.status, what).toBe(status);
      expect(res.body.message, what).toMatch(message);
      expect(res.body.message, what).toMatch(/\p{Script=Han}/u);
    }
    expect(await counts(alice.client)).toEqual(before);
    // Bob reads his own molecule, not Alice's.
    const his = await bob.client.post(`${TASKS}/docking/batch`, { ...SETTINGS, molecule_ids: [benzoic] });
    expect(his.status).toBe(400);
    expect(his.body.message).toBe(`有 1 个分子不存在或你无权读取（id：${benzoic}），整批未提交`);
  }, 180_000);

  it('offers the same through the docking_submit tool: molecule_ids from a search, or the search itself', async () => {
    const token = (await alice.client.post<{ token: string }>('/api/v1/auth/tokens', { name: '检索对接' })).body.data.token;
    const mcp = new McpClient({ name: 'csai-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const text = (r: Awaited<ReturnType<McpClient['callTool']>>) => (r.content as Array<{ text: string }>)[0]!.text;
    try {
      const ids = idsOf(aliceSdf);
      const byIds = await mcp.callTool({ name: 'docking_submit', arguments: { ...SETTINGS, molecule_ids: [ids.get('salicylic acid')!, ids.get('diphenhydramine HCl')!] } });
      expect(byIds.isError, text(byIds)).toBe(false);
      const batch = (byIds.structuredContent as { batch: DockingBatch }).batch;
      expect(batch.entries.map((e) => [e.name, e.smiles])).toEqual([
        ['salicylic acid', 'O=C(O)c1ccccc1O'],
        ['diphenhydramine HCl', DIPHENHYDRAMINE],
      ]);
      await alice.client.post(`${TASKS}/batches/${batch.id}/cancel`);

      const bySearch = await mcp.callTool({ name: 'docking_submit', arguments: { ...SETTINGS, search: { query: 'OC(=O)c1ccccc1', mode: 'substructure' } } });
      expect(bySearch.isError, text(bySearch)).toBe(false);
      const found = (bySearch.structuredContent as { batch: DockingBatch }).batch;
      expect(found.entries.map((e) => e.name).sort()).toEqual(['benzoic acid', 'salicylic acid']);
      await alice.client.post(`${TASKS}/batches/${found.id}/cancel`);

      // Refused, in Chinese, nothing queued: Bob's molecule, a single SMILES beside a batch.
      const before = await counts(alice.client);
      const theirs = await mcp.callTool({ name: 'docking_submit', arguments: { ...SETTINGS, molecule_ids: [[...idsOf(bobSdf).values()][0]!] } });
      expect(theirs.isError).toBe(true);
      expect(text(theirs)).toMatch(/^有 1 个分子不存在或你无权读取/);
      const both = await mcp.callTool({ name: 'docking_submit', arguments: { ...SETTINGS, smiles: 'CCO', molecule_ids: [ids.get('benzoic acid')!] } });
      expect(both.isError).toBe(true);
      expect(text(both)).toMatch(/只能给出其中一个/);
      expect(await counts(alice.client)).toEqual(before);
    } finally {
      await mcp.close();
    }
  }, 120_000);
});
