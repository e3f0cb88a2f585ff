import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { DockingBatch, DockingTask } from '../../../src/contract/docking';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { upload, waitParsed } from '../knowledge-helpers';

// Batch docking with the real programs (Open Babel, AutoDock Vina, RDKit, PLIP) on
// rdkit-data's 5DPV. Exhaustiveness 1 and two poses keep each molecule to seconds.

const PDB = '/usr/share/RDKit/Contrib/CalcLigRMSD/data/5dpv.pdb';
const TASKS = '/api/v1/tasks';
const PYTHON = '/usr/bin/python3';
/** 5DN as Open Babel reads it from the structure, and two small fragments. */
const LIGANDS = [
  { smiles: 'Brc1cccc(c1)c1cc(C(=O)O)c2c(n1)c(F)ccc2', name: '5DN' },
  { smiles: 'OC(=O)c1ccccc1', name: 'benzoic acid' },
  { smiles: 'Oc1ccc(cc1)c1ccncc1', name: 'pyridinyl phenol, "quoted"' },
];
const SETTINGS = { receptor: '5DPV', reference_ligand: '5DN', exhaustiveness: 1, num_modes: 2, seed: 7 };

let server: TestServer;
type User = { client: Client; id: string };
let alice: User;
let bob: User;
let carol: User;

async function withPdb(user: User) {
  const up = await upload(user.client, [{ name: '5dpv.pdb', data: fs.readFileSync(PDB) }], 'folder_for_question_channel');
  await waitParsed(user.client, up.body.data.name_id[0]!.docId, 240_000);
}

async function waitBatch(client: Client, id: string, until: (b: DockingBatch) => boolean, timeoutMs = 240_000): Promise<DockingBatch> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get<DockingBatch>(`${TASKS}/batches/${id}`);
    if (res.status !== 200) throw new Error(`batch ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    if (until(res.body.data)) return res.body.data;
    if (Date.now() > end) throw new Error(`batch ${id} still ${JSON.stringify(res.body.data.counts)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
const cookie = (client: Client) => [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
const download = (client: Client, id: string, format: string) => fetch(`${server.url}${TASKS}/batches/${id}/download?format=${format}`, { headers: { cookie: cookie(client) } });
const batchDirs = () => (fs.existsSync(path.join(server.dataDir, 'docking-batches')) ? fs.readdirSync(path.join(server.dataDir, 'docking-batches')).length : 0);
const taskDirs = () => (fs.existsSync(path.join(server.dataDir, 'tasks')) ? fs.readdirSync(path.join(server.dataDir, 'tasks')).length : 0);

/** The processes whose working directory is this folder (Open Babel and Vina run in the task's folder). */
function processesIn(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readlinkSync(`/proc/${entry}/cwd`) === dir) out.push(fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim());
    } catch {
      // gone, or not ours
    }
  }
  return out;
}

beforeAll(async () => {
  server = await startServer({ CSAI_DOCKING_MAX_EXHAUSTIVENESS: '8', CSAI_DOCKING_MAX_ACTIVE_PER_USER: '2', CSAI_DOCKING_CPUS: '2', CSAI_DOCKING_MAX_TASKS_PER_USER: '12' });
  alice = await signedInUser(server, { name: '爱丽丝' });
  bob = await signedInUser(server, { name: '鲍勃' });
  carol = await signedInUser(server, { name: '卡罗尔' });
  await Promise.all([withPdb(alice), withPdb(bob), withPdb(carol)]);
}, 400_000);

afterAll(async () => {
  await server?.close();
});

describe('batch docking', () => {
  let done: DockingBatch;

  it("docks a list into one receptor, ranked by score as molecules finish; another user's job does not wait for the batch", async () => {
    const res = await alice.client.post<DockingBatch>(`${TASKS}/docking/batch`, { ...SETTINGS, ligands: LIGANDS });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const batch = res.body.data;
    expect(batch.entries.map((e) => [e.index, e.state, e.rank])).toEqual([
      [1, 'queued', null],
      [2, 'queued', null],
      [3, 'queued', null],
    ]);
    expect(batch.box.label).toBe('5DN A:401');
    // Bob docks one molecule while Alice's batch runs: his job starts before her batch ends.
    const his = await bob.client.post<DockingTask>(`${TASKS}/docking`, { ...SETTINGS, smiles: 'Oc1ccccc1', ligand_name: 'phenol' });
    expect(his.status, JSON.stringify(his.body)).toBe(200);

    const seen = new Set<string>();
    done = await waitBatch(alice.client, batch.id, (b) => {
      for (const e of b.entries) seen.add(`${e.index}:${e.state}`);
      return b.state !== 'queued' && b.state !== 'running';
    });
    // Progress per molecule: each was seen running (or done) on its own.
    expect([...seen].filter((s) => s.endsWith(':done')).length).toBe(3);
    expect([...seen].filter((s) => s.endsWith(':running')).length).toBeGreaterThan(0);
    expect(done.state).toBe('done');
    expect(done.counts).toEqual({ queued: 0, running: 0, done: 3, failed: 0, cancelled: 0 });
    expect(done.progress).toBe(1);
    const scores = done.entries.map((e) => e.score!);
    expect(done.entries.map((e) => e.rank)).toEqual([1, 2, 3]);
    expect([...scores].sort((a, b) => a - b)).toEqual(scores);
    for (const e of done.entries) {
      expect(e.ligand_efficiency).toBeCloseTo(-e.score! / e.heavy_atoms!, 3);
      expect(Array.isArray(e.interactions)).toBe(true);
      expect(typeof e.sanity_passed).toBe('boolean');
    }
    // 5DN (21 heavy atoms) scores best of the three in its own pocket.
    expect(done.entries[0]!.name).toBe('5DN');
    expect(done.entries[0]!.heavy_atoms).toBe(21);
    // The receptor was prepared once and shared: every task reports the same preparation.
    const preps = await Promise.all(done.entries.map(async (e) => (await alice.client.get<DockingTask>(`${TASKS}/${e.task_id}`)).body.data));
    expect(new Set(preps.map((t) => JSON.stringify(t.result!.receptor_prep))).size).toBe(1);
    expect(preps.every((t) => t.batch_id === batch.id)).toBe(true);
    const bobs = (await bob.client.get<DockingTask>(`${TASKS}/${his.body.data.id}`)).body.data;
    expect(bobs.started_at).not.toBeNull();
    const batchEnd = preps.map((t) => t.finished_at!).sort().at(-1)!;
    expect(bobs.started_at! < batchEnd).toBe(true);
  }, 300_000);

  it('exports the table as CSV (read by a CSV parser) and the best poses as SDF (read by RDKit, with the batch properties)', async () => {
    const csvRes = await download(alice.client, done.id, 'csv');
    expect(csvRes.status).toBe(200);
    expect(csvRes.headers.get('content-type')).toMatch(/text\/csv/);
    const csv = await csvRes.text();
    const rows = JSON.parse(
      execFileSync(PYTHON, ['-c', 'import csv, io, json, sys; print(json.dumps(list(csv.DictReader(io.StringIO(sys.stdin.read().lstrip("\\ufeff"))))))'], { input: csv }).toString(),
    ) as Array<Record<string, string>>;
    expect(rows.map((r) => r.rank)).toEqual(['1', '2', '3']);
    expect(rows.map((r) => Number(r.vina_score_kcal_mol))).toEqual(done.entries.map((e) => e.score));
    expect(rows.map((r) => r.name)).toEqual(done.entries.map((e) => e.name));
    expect(rows.find((r) => r.name!.includes('quoted'))!.name).toBe('pyridinyl phenol, "quoted"');
    expect(rows.every((r) => r.state === 'done' && r.task_id && r.pose_sanity)).toBe(true);

    const sdfRes = await download(alice.client, done.id, 'sdf');
    expect(sdfRes.status).toBe(200);
    const sdf = await sdfRes.text();
    const script = `
import json, sys
from rdkit import Chem
out = []
for m in Chem.ForwardSDMolSupplier(sys.stdin.buffer, sanitize=True, removeHs=False):
    assert m is not None
    out.append({"radicals": sum(a.GetNumRadicalElectrons() for a in m.GetAtoms()), "props": m.GetPropsAsDict(), "smiles": Chem.MolToSmiles(Chem.RemoveHs(m))})
print(json.dumps(out))
`;
    const mols = JSON.parse(execFileSync(PYTHON, ['-c', script], { input: sdf }).toString()) as Array<{ radicals: number; props: Record<string, string | number>; smiles: string }>;
    expect(mols.length).toBe(3);
    expect(mols.map((m) => m.radicals)).toEqual([0, 0, 0]);
    expect(mols.map((m) => Number(m.props.BATCH_RANK))).toEqual([1, 2, 3]);
    expect(mols.map((m) => Number(m.props.VINA_SCORE))).toEqual(done.entries.map((e) => e.score));
    expect(mols.map((m) => Number(m.props.LIGAND_EFFICIENCY))).toEqual(done.entries.map((e) => e.ligand_efficiency));
    expect(mols.every((m) => typeof m.props.KEY_INTERACTIONS === 'string' || typeof m.props.KEY_INTERACTIONS === 'number')).toBe(true);
    expect(mols[0]!.props.LIGAND_NAME).toBe('5DN');
    // Each record is the molecule docked (its pH 7.4 form), as RDKit writes the docked SMILES.
    const canonical = JSON.parse(execFileSync(PYTHON, ['-c', 'import json, sys\nfrom rdkit import Chem\nprint(json.dumps([Chem.MolToSmiles(Chem.MolFromSmiles(s)) for s in json.load(sys.stdin)]))'], { input: JSON.stringify(done.entries.map((e) => e.docked_smiles)) }).toString()) as string[];
    expect(mols.map((m) => m.smiles)).toEqual(canonical);
    expect(String(mols[0]!.props.KEY_INTERACTIONS)).toMatch(/hydrophobic|hbond|pi_stacking|salt_bridge|none/);

    // Someone else's batch is not found: read, download, cancel, delete.
    for (const [method, url] of [
      ['GET', `${TASKS}/batches/${done.id}`],
      ['GET', `${TASKS}/batches/${done.id}/download?format=csv`],
      ['POST', `${TASKS}/batches/${done.id}/cancel`],
      ['DELETE', `${TASKS}/batches/${done.id}`],
    ] as const) {
      const res = await bob.client.request(method, url);
      expect(res.status, url).toBe(404);
      expect(res.body.message).toBe('批次不存在');
    }
    expect((await bob.client.get<DockingBatch[]>(`${TASKS}/batches`)).body.data).toEqual([]);
    expect((await alice.client.get<DockingBatch[]>(`${TASKS}/batches`)).body.data.map((b) => b.id)).toEqual([done.id]);
    expect((await alice.client.get(`${TASKS}/batches/nope`)).status).toBe(404);
    const badFormat = await alice.client.get(`${TASKS}/batches/${done.id}/download?format=xml`);
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.message).toMatch(/format 只能是 csv 或 sdf/);
    const ended = await alice.client.post(`${TASKS}/batches/${done.id}/cancel`);
    expect(ended.status).toBe(409);
    expect(ended.body.message).toMatch(/都已结束/);
  });

  it('refuses bad batches with a Chinese message per molecule and writes nothing', async () => {
    const many = Array.from({ length: 51 }, (_, i) => ({ smiles: `C${'C'.repeat(i % 5)}O` }));
    const atom = (x: number) => `    ${x.toFixed(4)}    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0`;
    // A carbon with five bonds: RDKit refuses the record.
    const badSdf = [
      'methane\n  RDKit\n\n  1  0  0  0  0  0  0  0  0  0999 V2000', atom(0), 'M  END', '$$$$',
      'broken\n  RDKit\n\n  6  5  0  0  0  0  0  0  0  0999 V2000', ...[0, 1, 2, 3, 4, 5].map(atom), '  1  2  1  0', '  2  3  1  0', '  2  4  1  0', '  2  5  1  0', '  2  6  1  0', 'M  END', '$$$$', '',
    ].join('\n');
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ ...SETTINGS, ligands: many }, 400, /^一批最多对接 50 个分子$/],
      [{ ...SETTINGS, ligands: [] }, 400, /^分子列表不能为空$/],
      [{ ...SETTINGS }, 400, /请提供要对接的分子/],
      [{ ...SETTINGS, ligands: [{ smiles: 'CCO' }, { smiles: 'C1CC(', name: '坏分子' }, { smiles: 'CCN.Cl' }, { smiles: 'c1ccccc1' }] }, 400, /^4 个分子中有 2 个无法对接，整批未提交：第 2 个分子（坏分子）：无法解析 SMILES“C1CC\(”.*；第 3 个分子：请只提交一个分子/],
      [{ ...SETTINGS, ligands: [{ smiles: 'CCO', weight: 1 }] }, 400, /weight/],
      [{ ...SETTINGS, ligands: [{ smiles: '' }] }, 400, /每个分子都要给出 SMILES/],
      [{ ...SETTINGS, ligands: ['CCO'] }, 400, /每个分子必须是 \{smiles, name\} 对象/],
      [{ ...SETTINGS, ligands: [{ smiles: 'CCO' }], file: 'CCO ethanol\n' }, 400, /ligands 与 file 只能给出其中一个/],
      [{ ...SETTINGS, file: '\n# nothing\n' }, 400, /SMILES 文件中没有分子/],
      [{ ...SETTINGS, file: badSdf }, 400, /^2 个分子中有 1 个无法对接，整批未提交：第 2 个分子（broken）：RDKit 无法读取这一记录（Explicit valence/],
      [{ ...SETTINGS, file: 'CCO', file_format: 'mol2' }, 400, /file_format 只能是 sdf 或 smi/],
      [{ ...SETTINGS, file: `${'CCO x\n'.repeat(60)}` }, 400, /^一批最多对接 50 个分子，这里有 60 个：请分成几批提交$/],
      [{ ...SETTINGS, ligands: [{ smiles: 'CCO' }], exhaustiveness: 9 }, 400, /exhaustiveness 不能超过 8/],
      [{ ...SETTINGS, ligands: [{ smiles: 'CCO' }], receptor: '9ZZZ' }, 404, /9ZZZ/],
      [{ ...SETTINGS, ligands: [{ smiles: 'CCO' }], reference_ligand: 'ABC' }, 400, /找不到配体“ABC”/],
    ];
    const before = { batches: (await alice.client.get<DockingBatch[]>(`${TASKS}/batches`)).body.data.length, tasks: (await alice.client.get<DockingTask[]>(TASKS)).body.data.length, dirs: batchDirs(), taskDirs: taskDirs() };
    for (const [body, status, message] of cases) {
      const res = await alice.client.post(`${TASKS}/docking/batch`, body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(status);
      expect(res.body.message, JSON.stringify(body).slice(0, 200)).toMatch(message);
      expect(res.body.message).toMatch(/\p{Script=Han}/u);
    }
    expect((await alice.client.get<DockingBatch[]>(`${TASKS}/batches`)).body.data.length).toBe(before.batches);
    expect((await alice.client.get<DockingTask[]>(TASKS)).body.data.length).toBe(before.tasks);
    expect(batchDirs()).toBe(before.dirs);
    expect(taskDirs()).toBe(before.taskDirs);
  }, 120_000);

  it('counts a batch as one open submission and each molecule as one kept task (CSAI_DOCKING_MAX_TASKS_PER_USER)', async () => {
    // 12 kept at most: 13 molecules are refused before anything is checked or written.
    const tooMany = await carol.client.post(`${TASKS}/docking/batch`, { ...SETTINGS, ligands: Array.from({ length: 13 }, () => ({ smiles: 'CCO' })) });
    expect(tooMany.status).toBe(403);
    expect(tooMany.body.message).toMatch(/^这一批有 13 个分子，每个分子是一个对接任务；你已保存 0 个任务，上限 12 个，最多还能提交 12 个。/);
    // Two open submissions at most (CSAI_DOCKING_MAX_ACTIVE_PER_USER=2): a batch of 3 and a single one.
    const batch = await carol.client.post<DockingBatch>(`${TASKS}/docking/batch`, { ...SETTINGS, exhaustiveness: 8, file: 'CCO ethanol\nCCN ethylamine\nCCCl\n' });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    expect(batch.body.data.entries.map((e) => e.name)).toEqual(['ethanol', 'ethylamine', '']);
    const single = await carol.client.post<DockingTask>(`${TASKS}/docking`, { ...SETTINGS, exhaustiveness: 8, smiles: 'CCO' });
    expect(single.status).toBe(200);
    const third = await carol.client.post(`${TASKS}/docking/batch`, { ...SETTINGS, ligands: [{ smiles: 'CCO' }] });
    expect(third.status).toBe(429);
    expect(third.body.message).toBe('你已有 2 个对接任务在排队或运行，已达上限。请等其完成，或取消其中一个后再提交');
    const open = await carol.client.request('DELETE', `${TASKS}/batches/${batch.body.data.id}`);
    expect(open.status).toBe(409);
    expect(open.body.message).toMatch(/请先全部取消/);

    // Cancel all: every molecule is cancelled and the running one's processes are gone within 2 s.
    const running = await waitBatch(carol.client, batch.body.data.id, (b) => b.entries.some((e) => e.state === 'running' && e.message.startsWith('Vina 对接中')), 120_000);
    const runningTask = running.entries.find((e) => e.state === 'running')!.task_id;
    const dir = fs.realpathSync(path.join(server.dataDir, 'tasks', runningTask));
    const t0 = Date.now();
    const cancelled = await carol.client.post<DockingBatch>(`${TASKS}/batches/${batch.body.data.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.state).toBe('cancelled');
    expect(cancelled.body.data.entries.every((e) => e.state === 'cancelled')).toBe(true);
    while (processesIn(dir).length > 0) {
      expect(Date.now() - t0).toBeLessThan(2000);
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 500));
    expect((await carol.client.get<DockingBatch>(`${TASKS}/batches/${batch.body.data.id}`)).body.data.counts.cancelled).toBe(3);
    const sdf = await download(carol.client, batch.body.data.id, 'sdf');
    expect(sdf.status).toBe(409);
    expect(((await sdf.json()) as { message: string }).message).toMatch(/还没有完成对接的分子/);
    await carol.client.post(`${TASKS}/${single.body.data.id}/cancel`);

    // Deleting the ended batch removes its tasks and files.
    const removed = await carol.client.request<{ deleted: number }>('DELETE', `${TASKS}/batches/${batch.body.data.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data.deleted).toBe(3);
    expect(fs.existsSync(dir)).toBe(false);
    expect((await carol.client.get(`${TASKS}/batches/${batch.body.data.id}`)).status).toBe(404);
  }, 240_000);

  it('offers the batch through the docking_submit tool (ligands) and task_query (batch_id)', async () => {
    const token = (await alice.client.post<{ token: string }>('/api/v1/auth/tokens', { name: '批量对接' })).body.data.token;
    const mcp = new McpClient({ name: 'csai-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      const submitted = await mcp.callTool({ name: 'docking_submit', arguments: { ...SETTINGS, ligands: [{ smiles: 'CCO', name: 'ethanol' }, { smiles: 'CCN' }] } });
      expect(submitted.isError, JSON.stringify(submitted.content)).toBe(false);
      const batch = (submitted.structuredContent as { batch: DockingBatch }).batch;
      expect(batch.entries.length).toBe(2);
      expect((submitted.content as Array<{ text: string }>)[0]!.text).toContain(batch.id);
      await alice.client.post(`${TASKS}/batches/${batch.id}/cancel`);

      const queried = await mcp.callTool({ name: 'task_query', arguments: { batch_id: done.id } });
      const text = (queried.content as Array<{ text: string }>)[0]!.text;
      expect(text).toMatch(/\| 排名 \| 分子 \| Vina 打分/);
      expect(text).toContain('| 1 | 5DN |');
      expect(text).toContain('不是实测的结合亲和力');

      const both = await mcp.callTool({ name: 'docking_submit', arguments: { ...SETTINGS, smiles: 'CCO', ligands: [{ smiles: 'CCN' }] } });
      expect(both.isError).toBe(true);
      expect((both.content as Array<{ text: string }>)[0]!.text).toMatch(/smiles 与 ligands（或 molecule_ids、search）只能给出其中一个/);
      const bad = await mcp.callTool({ name: 'docking_submit', arguments: { ...SETTINGS, ligands: [{ smiles: 'CCO' }, { smiles: 'C1CC(' }] } });
      expect(bad.isError).toBe(true);
      expect((bad.content as Array<{ text: string }>)[0]!.text).toMatch(/第 2 个分子：无法解析 SMILES/);
      const foreign = await mcp.callTool({ name: 'task_query', arguments: { batch_id: 'nope' } });
      expect(foreign.isError).toBe(true);
      expect((foreign.content as Array<{ text: string }>)[0]!.text).toContain('批次不存在');
    } finally {
      await mcp.close();
    }
  }, 60_000);
});
