import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockingTask } from '../../../src/contract/docking';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { makeAdmin, signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { upload, waitParsed } from '../knowledge-helpers';
import { answerText, ask, readEvents } from '../answering-helpers';

// Docking with the real programs: Debian's Open Babel and AutoDock Vina 1.2.3, on
// rdkit-data's 5DPV (Aurora A kinase with ligands 5DN and SKE). Low exhaustiveness keeps it short.

const PDB = '/usr/share/RDKit/Contrib/CalcLigRMSD/data/5dpv.pdb';
/** 5DN (2-(3-bromophenyl)-8-fluoroquinoline-4-carboxylic acid), as Open Babel reads it from the PDB's HETATM records. */
const REF_SMILES = 'Brc1cccc(c1)c1cc(C(=O)O)c2c(n1)c(F)ccc2';
const TASKS = '/api/v1/tasks';

let server: TestServer;
let dataDir: string;
let alice: { client: Client; id: string };
let bob: { client: Client; id: string };
let pdbDocId: string;

/** The processes (pid → program) whose working directory is this task's folder: Open Babel and Vina run there. */
function processesIn(dir: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readlinkSync(`/proc/${entry}/cwd`) === dir) out.set(Number(entry), fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim());
    } catch {
      // gone, or not ours
    }
  }
  return out;
}

async function waitTask(client: Client, id: string, until: (t: DockingTask) => boolean, timeoutMs = 120_000): Promise<DockingTask> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get<DockingTask>(`${TASKS}/${id}`);
    if (res.status !== 200) throw new Error(`task ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    if (until(res.body.data)) return res.body.data;
    if (Date.now() > end) throw new Error(`task ${id} still ${JSON.stringify(res.body.data)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const finished = (t: DockingTask) => t.state === 'done' || t.state === 'failed' || t.state === 'cancelled';
const vinaRunning = (t: DockingTask) => t.state === 'running' && t.message.startsWith('Vina 对接中');

const ENV = { CSAI_DOCKING_MAX_EXHAUSTIVENESS: '8', CSAI_DOCKING_MAX_ACTIVE_PER_USER: '2', CSAI_DOCKING_CPUS: '2' };
const redock = { smiles: REF_SMILES, ligand_name: '5DN', receptor: '5DPV', reference_ligand: '5DN', exhaustiveness: 2, seed: 42 };

beforeAll(async () => {
  server = await startServer(ENV);
  dataDir = server.dataDir;
  alice = await signedInUser(server, { name: '爱丽丝' });
  bob = await signedInUser(server, { name: '鲍勃' });
  const up = await upload(alice.client, [{ name: '5dpv.pdb', data: fs.readFileSync(PDB) }], 'folder_for_question_channel');
  pdbDocId = up.body.data.name_id[0]!.docId;
  await waitParsed(alice.client, pdbDocId);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('docking', () => {
  let first: DockingTask;

  it('redocks the reference ligand within 2 Å, and the same seed gives the same scores twice', async () => {
    const a = await alice.client.post<DockingTask>(`${TASKS}/docking`, redock);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const b = await alice.client.post<DockingTask>(`${TASKS}/docking`, redock);
    expect(b.status).toBe(200);
    expect(a.body.data.state).toBe('queued');
    expect(a.body.data.box.source).toBe('ligand');
    expect(a.body.data.box.label).toBe('5DN A:401');
    // Vina searched with the server's evaluation budget (CSAI_DOCKING_MAX_EVALS, default 500,000).
    expect(a.body.data.max_evals).toBe(500_000);

    first = await waitTask(alice.client, a.body.data.id, finished);
    const second = await waitTask(alice.client, b.body.data.id, finished);
    expect(first.state, first.message).toBe('done');
    expect(second.state).toBe('done');
    const poses = first.result!.poses;
    expect(poses.length).toBeGreaterThan(1);
    expect(poses[0]!.rmsd_to_best).toBe(0);
    expect(poses.every((p, i) => i === 0 || p.score >= poses[i - 1]!.score)).toBe(true);
    expect(poses.slice(1).every((p) => p.rmsd_to_best > 0)).toBe(true);
    expect(poses[0]!.rmsd_to_reference).not.toBeNull();
    expect(poses[0]!.rmsd_to_reference!).toBeLessThan(2);
    expect(first.result!.heavy_atoms).toBe(21);
    expect(second.result!.poses.map((p) => p.score)).toEqual(poses.map((p) => p.score));
    expect(first.progress).toBe(1);
  }, 180_000);

  it('downloads the poses as SDF and PDBQT and the receptor as PDB, to the owner only', async () => {
    const sdf = await fetch(`${server.url}${TASKS}/${first.id}/download?format=sdf`, { headers: { cookie: cookie(alice.client) } });
    expect(sdf.status).toBe(200);
    const sdfText = await sdf.text();
    expect(sdfText.split('$$$$').length - 1).toBe(first.result!.poses.length);
    expect(sdfText).toMatch(/V2000/);
    const pdbqt = await (await fetch(`${server.url}${TASKS}/${first.id}/download?format=pdbqt`, { headers: { cookie: cookie(alice.client) } })).text();
    expect(pdbqt.match(/^MODEL/gm)?.length).toBe(first.result!.poses.length);
    expect(pdbqt).toMatch(/REMARK VINA RESULT/);
    const receptor = await (await fetch(`${server.url}${TASKS}/${first.id}/download?format=receptor`, { headers: { cookie: cookie(alice.client) } })).text();
    expect(receptor).toMatch(/^ATOM {2}/m);
    expect(receptor).not.toMatch(/^HETATM/m);

    for (const format of ['sdf', 'pdbqt', 'receptor']) {
      const other = await fetch(`${server.url}${TASKS}/${first.id}/download?format=${format}`, { headers: { cookie: cookie(bob.client) } });
      expect(other.status).toBe(404);
    }
    expect((await bob.client.get(`${TASKS}/${first.id}`)).status).toBe(404);
    const cancel = await bob.client.post(`${TASKS}/${first.id}/cancel`);
    expect(cancel.status).toBe(404);
    expect(cancel.body.message).toBe('任务不存在');
    expect((await bob.client.get<DockingTask[]>(TASKS)).body.data).toEqual([]);
    const mine = await alice.client.get<DockingTask[]>(TASKS);
    expect(mine.body.data.map((t) => t.id)).toContain(first.id);
    // Bob cannot dock into Alice's structure either: her PDB is not his to read.
    const his = await bob.client.post(`${TASKS}/docking`, redock);
    expect(his.status).toBe(404);
    expect(his.body.message).toMatch(/5DPV/);
  });

  it('refuses bad requests with a Chinese message and queues nothing', async () => {
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ ...redock, smiles: 'C1CC(' }, 400, /无法解析 SMILES/],
      [{ ...redock, smiles: 'CCO.CCN' }, 400, /只提交一个分子/],
      [{ ...redock, receptor: '9ZZZ' }, 404, /9ZZZ.*不可用/],
      [{ ...redock, reference_ligand: undefined, center: [0, 0, 0], size: [50, 20, 20] }, 400, /对接盒子过大/],
      [{ ...redock, reference_ligand: undefined, residues: ['LYS999', 'A:XYZ1'] }, 400, /找不到这些残基：LYS999、A:XYZ1/],
      [{ ...redock, reference_ligand: 'ABC' }, 400, /找不到配体“ABC”.*5DN A:401/],
      [{ ...redock, exhaustiveness: 9 }, 400, /exhaustiveness 不能超过 8/],
      [{ ...redock, exhaustiveness: 0 }, 400, /exhaustiveness 不能小于 1/],
      [{ ...redock, reference_ligand: undefined, center: [1, 2, 3] }, 400, /盒子尺寸/],
      [{ ...redock, smiles: '' }, 400, /SMILES/],
      [{ ...redock, bogus: 1 }, 400, /bogus/],
      // A ligand far larger than a drug (one like it made Vina take 8 GB and more), a wildcard atom,
      // a box away from the protein (Vina searched empty space and gave scores of 0), an absurd centre.
      [{ ...redock, smiles: `c1ccccc1${'c1ccc(cc1)'.repeat(30)}` }, 400, /^配体过大：含 186 个原子，对接的上限为 150 个$/],
      [{ ...redock, smiles: '*' }, 400, /连接点或未知原子（\*）/],
      [{ ...redock, reference_ligand: undefined, center: [5000, 5000, 5000], size: [20, 20, 20] }, 400, /对接盒子里没有受体的原子：盒子中心 \[5000, 5000, 5000\] 离蛋白太远/],
      [{ ...redock, reference_ligand: undefined, center: [1e308, 0, 0], size: [10, 10, 10] }, 400, /盒子中心必须在 -9999 到 9999 Å 之间/],
      [{ ...redock, seed: 3_000_000_000 }, 400, /^seed 必须在 -2147483648 到 2147483647 之间$/],
      [{ ...redock, seed: 1.5 }, 400, /^seed 必须是整数$/],
    ];
    const before = (await alice.client.get<DockingTask[]>(TASKS)).body.data.length;
    for (const [body, status, message] of cases) {
      const res = await alice.client.post(`${TASKS}/docking`, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message, JSON.stringify(body)).toMatch(message);
      expect(res.body.message).toMatch(/\p{Script=Han}/u);
    }
    expect((await alice.client.get<DockingTask[]>(TASKS)).body.data.length).toBe(before);
    expect((await alice.client.get(`${TASKS}/nope`)).status).toBe(404);
    expect((await alice.client.get(`${TASKS}/${first.id}/download?format=mol2`)).status).toBe(400);
  });

  it('builds the box from named residues', async () => {
    const res = await alice.client.post<DockingTask>(`${TASKS}/docking`, { ...redock, reference_ligand: undefined, residues: ['A:LEU139', 'ALA213', 'LEU263'], exhaustiveness: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.box.source).toBe('residues');
    expect(res.body.data.box.size.every((s) => s > 8 && s <= 40)).toBe(true);
    const cancelled = await alice.client.post<DockingTask>(`${TASKS}/${res.body.data.id}/cancel`);
    expect(cancelled.body.data.state).toBe('cancelled');
    const again = await alice.client.post(`${TASKS}/${res.body.data.id}/cancel`);
    expect(again.status).toBe(409);
  });

  it('cancels a running job: its processes are gone within 2 s', async () => {
    // A small ligand (quick to prepare) with a long search.
    const res = await alice.client.post<DockingTask>(`${TASKS}/docking`, { ...redock, smiles: 'Oc1ccccc1', exhaustiveness: 8 });
    const id = res.body.data.id;
    await waitTask(alice.client, id, vinaRunning);
    const dir = fs.realpathSync(path.join(dataDir, 'tasks', id));
    expect([...processesIn(dir).values()]).toContain('vina');
    const t0 = Date.now();
    const cancelled = await alice.client.post<DockingTask>(`${TASKS}/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.state).toBe('cancelled');
    while (processesIn(dir).size > 0) {
      expect(Date.now() - t0).toBeLessThan(2000);
      await new Promise((r) => setTimeout(r, 50));
    }
    // It stays cancelled (the runner does not overwrite it).
    await new Promise((r) => setTimeout(r, 500));
    expect((await alice.client.get<DockingTask>(`${TASKS}/${id}`)).body.data.state).toBe('cancelled');
  });

  it('limits the jobs one user may have queued or running', async () => {
    const a = await alice.client.post<DockingTask>(`${TASKS}/docking`, { ...redock, exhaustiveness: 8 });
    const b = await alice.client.post<DockingTask>(`${TASKS}/docking`, { ...redock, exhaustiveness: 8 });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const c = await alice.client.post(`${TASKS}/docking`, redock);
    expect(c.status).toBe(429);
    expect(c.body.message).toBe('你已有 2 个对接任务在排队或运行，已达上限。请等其完成，或取消其中一个后再提交');
    await alice.client.post(`${TASKS}/${a.body.data.id}/cancel`);
    await alice.client.post(`${TASKS}/${b.body.data.id}/cancel`);
  });

  it('offers docking_submit and task_query as tools: the id comes back at once, and task_query shows only the caller\'s tasks', async () => {
    const mcp = async (client: Client) => {
      const token = (await client.post<{ token: string }>('/api/v1/auth/tokens', { name: '对接测试' })).body.data.token;
      const c = new McpClient({ name: 'csai-test', version: '1.0.0' });
      await c.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      return c;
    };
    const a = await mcp(alice.client);
    const b = await mcp(bob.client);
    try {
      const submitted = await a.callTool({ name: 'docking_submit', arguments: { ...redock, exhaustiveness: 1 } });
      expect(submitted.isError, JSON.stringify(submitted.content)).toBe(false);
      const task = (submitted.structuredContent as { task: DockingTask }).task;
      expect(task.state).toBe('queued');
      const [text] = submitted.content as Array<{ text: string }>;
      expect(text!.text).toContain(task.id);
      expect(text!.text).toContain('不是实测的结合亲和力');

      const listed = await a.callTool({ name: 'task_query', arguments: {} });
      expect((listed.structuredContent as { tasks: DockingTask[] }).tasks.map((t) => t.id)).toContain(task.id);
      const one = await a.callTool({ name: 'task_query', arguments: { task_id: first.id } });
      const [oneText] = one.content as Array<{ text: string }>;
      expect(oneText!.text).toMatch(/与参考配体 RMSD/);
      expect(oneText!.text).toContain('不是实测的结合亲和力');

      const theirs = await b.callTool({ name: 'task_query', arguments: { task_id: task.id } });
      expect(theirs.isError).toBe(true);
      expect((theirs.content as Array<{ text: string }>)[0]!.text).toContain('任务不存在');
      const none = await b.callTool({ name: 'task_query', arguments: {} });
      expect((none.structuredContent as { tasks: DockingTask[] }).tasks).toEqual([]);

      const bad = await a.callTool({ name: 'docking_submit', arguments: { ...redock, smiles: 'C1CC(' } });
      expect(bad.isError).toBe(true);
      expect((bad.content as Array<{ text: string }>)[0]!.text).toMatch(/无法解析 SMILES/);
      await alice.client.post(`${TASKS}/${task.id}/cancel`);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('lists the docking tools disabled with the install line when Vina or Open Babel is missing', async () => {
    type Group = { tools: Array<{ value: string; enabled: boolean; description: string }> };
    // The install line is for an administrator's eyes.
    const admin = await signedInUser(server);
    makeAdmin(server, admin.email);
    const tools = async () => (await admin.client.get<Group[]>('/api/v1/tools')).body.data.flatMap((g) => g.tools);
    expect((await tools()).find((t) => t.value === 'docking_submit')!.enabled).toBe(true);
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const submit = (await tools()).find((t) => t.value === 'docking_submit')!;
      expect(submit.enabled).toBe(false);
      expect(submit.description).toContain('apt-get install -y autodock-vina openbabel');
      const res = await alice.client.post(`${TASKS}/docking`, redock);
      expect(res.status).toBe(503);
      expect(res.body.message).toContain('apt-get install -y autodock-vina openbabel');
    } finally {
      process.env.PATH = saved;
    }
  });

  it('without a model, "把 <SMILES> 对接到 5DPV 的口袋里" submits the job and the answer shows its card', async () => {
    const { questionId } = await ask(alice.client, `把 ${REF_SMILES} 对接到 5DPV 的口袋里`);
    const { events } = await readEvents(alice.client, questionId);
    const call = events.find((e) => e.event === 'tool_call')?.data as { name: string; arguments: string };
    expect(call.name).toBe('docking_submit');
    expect(JSON.parse(call.arguments)).toEqual({ smiles: REF_SMILES, receptor: '5DPV' });
    const result = events.find((e) => e.event === 'tool_result')?.data as { ok: boolean; data: { task: DockingTask }; content: string };
    expect(result.ok, result.content).toBe(true);
    expect(result.data.task.state).toBe('queued');
    // The text does not claim a state the job will leave, names no tool, and adds no "nothing found".
    const text = answerText(events);
    expect(text).toContain('任务已提交，进度和结果见上方任务卡片');
    expect(text).not.toMatch(/正在排队|task_query|docking_submit|exhaustiveness [0-9]/);
    expect(result.content).not.toMatch(/task_query|正在排队/);
    await alice.client.post(`${TASKS}/${result.data.task.id}/cancel`);
    // Asked with the PDB file attached: the docking answer, not "在所选文档中没有找到与问题相关的段落".
    const withFile = await ask(alice.client, `把 ${REF_SMILES} 对接到这个蛋白的口袋里`, { docIdList: [pdbDocId] });
    const attached = await readEvents(alice.client, withFile.questionId);
    const attachedResult = attached.events.find((e) => e.event === 'tool_result')?.data as { ok: boolean; data: { task: DockingTask }; content: string };
    expect(attachedResult.ok, attachedResult.content).toBe(true);
    const attachedText = answerText(attached.events);
    expect(attachedText).toContain('任务已提交');
    expect(attachedText).not.toContain('没有找到与问题相关的段落');
    expect(attachedText).not.toMatch(/task_query|docking_submit/);
    await alice.client.post(`${TASKS}/${attachedResult.data.task.id}/cancel`);
    const { questionId: q2 } = await ask(alice.client, '我的任务进度如何？');
    const { events: e2 } = await readEvents(alice.client, q2);
    const listed = e2.find((e) => e.event === 'tool_result')?.data as { ok: boolean; data: { tasks: DockingTask[] } };
    expect(listed.data.tasks.map((t) => t.id)).toContain(result.data.task.id);
  });

  it('refuses docking over HTTP with the restricted tool list (SPEC §6)', async () => {
    const restricted = await startServer({ ...ENV, CSAI_TOOLS_RESTRICTED: '1' });
    try {
      const carol = await signedInUser(restricted);
      const res = await carol.client.post(`${TASKS}/docking`, redock);
      expect(res.status).toBe(403);
      expect(res.body.message).toContain('CSAI_TOOLS_RESTRICTED');
    } finally {
      await restricted.close();
    }
  });

  it('re-runs a job that was running when the server stopped', async () => {
    // A small ligand other than the reference: quick, and its RMSD to the reference is not computed.
    const res = await alice.client.post<DockingTask>(`${TASKS}/docking`, { ...redock, smiles: 'Oc1ccccc1', exhaustiveness: 2 });
    const id = res.body.data.id;
    await waitTask(alice.client, id, (t) => t.state === 'running');
    const dir = fs.realpathSync(path.join(dataDir, 'tasks', id));
    await server.close();
    expect(processesIn(dir).size).toBe(0);

    server = await startServer(ENV, dataDir);
    alice.client = new (alice.client.constructor as new (base: string, ip: string) => Client)(server.url, alice.client.ip);
    const signIn = await alice.client.post('/api/v1/auth/sign-in', { account: await emailOf(alice.id), password: 'passw0rd-ok' });
    expect(signIn.status).toBe(200);
    const done = await waitTask(alice.client, id, finished);
    expect(done.state, done.message).toBe('done');
    expect(done.result!.heavy_atoms).toBe(7);
    expect(done.result!.poses[0]!.rmsd_to_reference).toBeNull();
    expect(done.result!.reference_note).toMatch(/未计算与参考配体的 RMSD/);
  }, 180_000);
});

function cookie(client: Client) {
  return [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
}

async function emailOf(userId: string): Promise<string> {
  const db = server.sqlite();
  try {
    return (db.prepare('select email from users where id = ?').get(userId) as { email: string }).email;
  } finally {
    db.close();
  }
}
