// The docking and task cards of an answer (issue 13 §1), rendered as the answer view renders a
// tool_result: a queued task followed by polling to its end, then the poses and the 3D view of the
// receptor with the chosen pose (<csai-molecule-3d task-id pose>). The CSAI API is faked; the
// receptor is rdkit-data's 5DPV and the "poses" a real SDF (`node scripts/fetch-test-docs.mjs`).
import type { ComponentType } from 'react';
import type { DockingTask } from '../../../src/contract/docking';
import { toolCards, type ToolCardProps } from '../../../src/widgets/channels/tool-cards';
import { expect, failOnConsoleErrors, realFetch, waitFor } from '../harness';
import { partPage } from '../render-in-host';
import { ok as okJson, ping } from '../fake-api';
import { untranslated } from '../untranslated';

const DOCS = '/.tmp/test-docs';

const queued: DockingTask = {
  id: 't1', kind: 'docking', state: 'queued', progress: 0, message: '排队中', title: '5DN → 5DPV', smiles: 'Brc1cccc(c1)c1cc(C(=O)O)c2c(n1)c(F)ccc2', docked_smiles: 'Brc1cccc(c1)c1cc(C(=O)[O-])c2c(n1)c(F)ccc2', receptor: '5DPV',
  box: { center: [-6.9, -10.6, 13.1], size: [18.5, 16.2, 15.1], source: 'ligand', label: '5DN A:401' },
  exhaustiveness: 8, num_modes: 9, seed: 42, cpu: 2, max_evals: 500000, check_of: null, batch_id: null, result: null, created_at: '2026-01-01T00:00:00Z', started_at: null, finished_at: null,
};
function sanity(passed: boolean) {
  const checks = { bond_lengths: true, bond_angles: true, internal_clash: true, aromatic_rings_flat: true, protein_clash: true, stereochemistry: true };
  return { passed, checks, bad_bonds: 0, bad_angles: 0, internal_clashes: 0, ring_deviation: 0.01, closest_contact_ratio: passed ? 0.9 : 0.6, closest_contact: passed ? 3.1 : 2.0, stereo_changed: [] };
}
const running: DockingTask = { ...queued, state: 'running', progress: 0.5, message: 'Vina 对接中（50%）', started_at: '2026-01-01T00:00:01Z' };
const done: DockingTask = {
  ...running, state: 'done', progress: 1, message: '完成', finished_at: '2026-01-01T00:00:30Z',
  result: {
    poses: [
      {
        mode: 1, score: -9.26, rmsd_to_best: 0, rmsd_to_reference: 0.84, sanity: sanity(true),
        interactions: [
          { type: 'hydrophobic', residue: 'LEU139A', restype: 'LEU', resnr: 139, reschain: 'A', distance: 3.71, ligand_xyz: [-6, -10, 13], protein_xyz: [-8, -12, 14] },
          { type: 'hbond', residue: 'ALA213A', restype: 'ALA', resnr: 213, reschain: 'A', distance: 2.05, ligand_xyz: [-7, -11, 12], protein_xyz: [-8, -13, 11], distance_donor_acceptor: 2.98, angle: 160.2, protein_is_donor: true },
        ],
      },
      { mode: 2, score: -8.55, rmsd_to_best: 3.1, rmsd_to_reference: 3.4, sanity: { ...sanity(false), checks: { ...sanity(true).checks, protein_clash: false } }, interactions: [] },
    ],
    heavy_atoms: 21, rotatable_bonds: 2, vina_seconds: 12.3,
    receptor_prep: { heavy_atoms_added: 1, residues_completed: ['LYS389A'], residues_added: 0, nonstandard_replaced: [], altlocs_dropped: 12, chains: ['A'], waters_kept: 0 },
  },
};

const waitLong = <T,>(check: () => T | undefined | null | false, what: string) => waitFor(check, what, 15_000);

describe('docking cards', () => {
  failOnConsoleErrors();
  let polls = 0;
  let cancelled = 0;
  beforeEach(() => {
    polls = 0;
    cancelled = 0;
  });
  const view = partPage(
    [
      ['GET', '/', () => ping()],
      ['GET', '/tasks/t1', () => okJson(++polls === 1 ? running : done)],
      ['POST', '/tasks/t2/cancel', () => {
        cancelled++;
        return okJson({ ...queued, id: 't2', state: 'cancelled', message: '已取消' });
      }],
      ['GET', '/tasks/t1/download', async (req) => {
        const format = req.query.get('format');
        if (format === 'sdf') return realFetch(`${DOCS}/cdk2.sdf`);
        if (format !== 'receptor') return undefined;
        const pdb = await (await realFetch(`${DOCS}/5dpv.pdb`)).text();
        return new Response(pdb.split('\n').filter((l) => l.startsWith('ATOM')).join('\n'), { headers: { 'Content-Type': 'chemical/x-pdb' } });
      }],
    ],
    800,
  );

  async function render(name: 'docking_submit' | 'task_query', props: Omit<ToolCardProps, 'name'>) {
    const Card: ComponentType<ToolCardProps> = await toolCards[name]!();
    return view.render(<Card name={name} {...props} />);
  }
  const q = (shadow: ShadowRoot, part: string) => shadow.querySelector<HTMLElement>(`[part~="${part}"]`);

  it('follows a submitted job to its poses and shows receptor + the chosen pose in 3D', async function (this: { timeout(ms: number): void }) {
    // Several long waits in a row (the job's states, the 3D structure): more than the default 20 s on a loaded machine.
    this.timeout(60_000);
    const shadow = await render('docking_submit', { ok: true, content: '已提交对接任务 t1', data: { task: queued } });
    await waitLong(() => q(shadow, 'docking-progress'), 'the progress bar');
    expect(shadow.textContent).to.contain('排队中');
    expect(shadow.textContent).to.contain('来自参考配体 5DN A:401');
    // The search budget the server ran Vina with (CSAI_DOCKING_MAX_EVALS) is part of the parameters.
    expect(shadow.textContent).to.contain('每轮蒙特卡洛搜索至多评分 500,000 次');
    await waitLong(() => (shadow.textContent ?? '').includes('Vina 对接中（50%）'), 'the running state');
    const table = await waitLong(() => q(shadow, 'docking-poses'), 'the poses');
    expect(q(shadow, 'docking-note')!.textContent).to.equal('Vina 打分（kcal/mol）是打分函数的估计值，不是实测的结合亲和力，只适合在同一受体的分子之间粗略比较。');
    expect(table.querySelectorAll('tbody tr').length).to.equal(2);
    expect(table.textContent).to.contain('-9.26');
    expect(table.textContent).to.contain('0.84');
    // Issue 32 §2: Chinese throughout (the SMILES, the receptor name and the 3D viewer's own controls aside).
    expect(untranslated(shadow, 'zh', 'code, csai-molecule-3d, h3, header strong')).to.deep.equal([]);
    expect(q(shadow, 'docking-receptor-prep')!.textContent).to.equal('受体准备（PDBFixer）：链 A；补全重原子 1 个（LYS389A）；补全缺失残基 0 个；舍弃备选位置原子 12 个；保留晶体水 0 个。');
    // Pose 1: its sanity and its PLIP interactions, hydrogen bonds before hydrophobic contacts.
    expect(q(shadow, 'docking-sanity')!.textContent).to.contain('构象 1 通过几何检查');
    const items = [...q(shadow, 'docking-interactions')!.querySelectorAll('li')].map((li) => li.textContent);
    expect(items).to.deep.equal(['氢键 · ALA213A · 2.05 Å', '疏水作用 · LEU139A · 3.71 Å']);
    const viewer = shadow.querySelector('csai-molecule-3d')!;
    expect(viewer.getAttribute('task-id')).to.equal('t1');
    expect(viewer.getAttribute('pose')).to.equal('1');
    // The 3D view loads the receptor and the poses.
    await waitLong(() => viewer.shadowRoot?.querySelector('[part~="atoms"]'), 'the 3D structure');
    table.querySelectorAll<HTMLButtonElement>('tbody button')[1]!.click();
    await waitLong(() => viewer.getAttribute('pose') === '2', 'pose 2');
    expect(table.querySelectorAll('tbody tr')[1]!.getAttribute('aria-selected')).to.equal('true');
    expect(q(shadow, 'docking-sanity')!.textContent).to.equal('构象 2 未通过检查：与蛋白原子碰撞');
    expect(table.querySelectorAll('tbody tr')[1]!.textContent).to.contain('未通过');
    expect(q(shadow, 'docking-interactions')!.textContent).to.contain('PLIP 未发现相互作用');
    const canvas = viewer.shadowRoot!.querySelector('[part~="canvas"]')!;
    await waitLong(() => canvas.getAttribute('data-pose') === '2', 'pose 2 drawn');
    // Issue 32 §2: the view fills its box (no empty strip below the canvas).
    const frame = viewer.parentElement!.getBoundingClientRect();
    const drawn = canvas.getBoundingClientRect();
    expect(viewer.getBoundingClientRect().height).to.be.closeTo(frame.height, 1);
    expect(drawn.bottom).to.be.closeTo(frame.bottom, 2);
    // A page may set the attribute itself: a fraction is its whole pose, anything unreadable or
    // below 1 the best pose.
    viewer.setAttribute('pose', '3.7');
    await waitLong(() => canvas.getAttribute('data-pose') === '3', 'pose 3 for pose="3.7"');
    viewer.setAttribute('pose', 'best');
    await waitLong(() => canvas.getAttribute('data-pose') === '1', 'the best pose for pose="best"');
    viewer.setAttribute('pose', '2');
    await waitLong(() => canvas.getAttribute('data-pose') === '2', 'pose 2 again');
    viewer.setAttribute('pose', '-4');
    await waitLong(() => canvas.getAttribute('data-pose') === '1', 'the best pose for pose="-4"');
    expect(q(shadow, 'docking-download-sdf')).to.not.equal(null);
  });

  it('cancels a queued job from the card', async () => {
    const shadow = await render('docking_submit', { ok: true, content: '', data: { task: { ...queued, id: 't2' } } });
    const button = await waitLong(() => q(shadow, 'docking-cancel') as HTMLButtonElement | null, 'the cancel button');
    button.click();
    await waitLong(() => (shadow.textContent ?? '').includes('已取消'), 'the cancelled state');
    expect(cancelled).to.equal(1);
    expect(q(shadow, 'docking-progress')).to.equal(null);
  });

  it('lists the caller\'s tasks and shows a failed tool call as its message', async () => {
    const shadow = await render('task_query', { ok: true, content: '', data: { tasks: [{ ...queued, id: 't2', state: 'cancelled' }, { ...done, id: 't3', title: 'X → 5DPV' }] } });
    await waitLong(() => q(shadow, 'task-card'), 'the list');
    expect(shadow.textContent).to.contain('我的任务（2）');
    expect(shadow.textContent).to.contain('已取消');
    view.again();
    const failed = await render('task_query', { ok: false, content: '任务不存在', data: undefined });
    // React renders a root's first tree in a task of its own.
    await waitLong(() => failed.textContent?.includes('任务不存在'), 'the failure message');
  });
});
