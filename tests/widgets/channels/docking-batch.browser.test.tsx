// The batch card of an answer (issue 30 §6): docking_submit with `ligands` returns a batch, followed
// by polling to its end; the table is ranked by Vina score with ligand efficiency, key interactions
// and pose sanity, a failed molecule says why, "cancel all" cancels the batch, and the table downloads
// as CSV. The CSAI API is faked.
import type { ComponentType } from 'react';
import type { BatchEntry, DockingBatch } from '../../../src/contract/docking';
import { toolCards, type ToolCardProps } from '../../../src/widgets/channels/tool-cards';
import { expect, failOnConsoleErrors, waitFor } from '../harness';
import { partPage } from '../render-in-host';
import { ok as okJson, ping } from '../fake-api';
import { untranslated } from '../untranslated';

const entry = (index: number, over: Partial<BatchEntry> = {}): BatchEntry => ({
  index, rank: null, name: '', smiles: 'CCO', docked_smiles: 'CCO', task_id: `t${index}`, state: 'queued', progress: 0, message: '排队中',
  score: null, ligand_efficiency: null, heavy_atoms: null, interactions: null, sanity_passed: null, ...over,
});
const counts = (queued: number, running: number, done: number, failed: number, cancelled: number) => ({ queued, running, done, failed, cancelled });
const queued: DockingBatch = {
  id: 'b1', kind: 'docking_batch', title: '批量对接 3 个分子 → 5DPV', state: 'queued', progress: 0, counts: counts(3, 0, 0, 0, 0), receptor: '5DPV',
  box: { center: [-6.9, -10.6, 13.1], size: [18.5, 16.2, 15.1], source: 'ligand', label: '5DN A:401' }, exhaustiveness: 8, num_modes: 9, seed: 42,
  entries: [entry(1, { name: '5DN' }), entry(2, { smiles: 'OC(=O)c1ccccc1' }), entry(3, { name: 'bad' })], created_at: '2026-01-01T00:00:00Z',
};
const running: DockingBatch = {
  ...queued, state: 'running', progress: 0.5, counts: counts(1, 1, 1, 0, 0),
  entries: [
    entry(2, { rank: 1, smiles: 'OC(=O)c1ccccc1', state: 'done', progress: 1, message: '完成', score: -6.1, ligand_efficiency: 0.678, heavy_atoms: 9, interactions: [], sanity_passed: true }),
    entry(1, { name: '5DN', state: 'running', progress: 0.5, message: 'Vina 对接中（50%）' }),
    entry(3, { name: 'bad' }),
  ],
};
const done: DockingBatch = {
  ...queued, state: 'done', progress: 1, counts: counts(0, 0, 2, 1, 0),
  entries: [
    entry(1, {
      rank: 1, name: '5DN', state: 'done', progress: 1, message: '完成', score: -9.26, ligand_efficiency: 0.441, heavy_atoms: 21, sanity_passed: false,
      interactions: [
        { type: 'hydrophobic', residue: 'LEU139A', restype: 'LEU', resnr: 139, reschain: 'A', distance: 3.71, ligand_xyz: [-6, -10, 13], protein_xyz: [-8, -12, 14] },
        { type: 'hbond', residue: 'ALA213A', restype: 'ALA', resnr: 213, reschain: 'A', distance: 2.05, ligand_xyz: [-7, -11, 12], protein_xyz: [-8, -13, 11] },
      ],
    }),
    running.entries[0]!,
    entry(3, { name: 'bad', state: 'failed', progress: 0.1, message: 'Open Babel 未能为该分子生成三维结构' }),
  ].map((e, i) => (i === 1 ? { ...e, rank: 2 } : e)),
};

const waitLong = <T,>(check: () => T | undefined | null | false, what: string) => waitFor(check, what, 15_000);

describe('docking batch card', () => {
  failOnConsoleErrors();
  let polls = 0;
  let cancelled = 0;
  let csv = 0;
  beforeEach(() => {
    polls = 0;
    cancelled = 0;
    csv = 0;
  });
  const view = partPage(
    [
      ['GET', '/', () => ping()],
      ['GET', '/tasks/batches/b1', () => okJson(++polls === 1 ? running : done)],
      ['GET', '/tasks/batches/b2', () => okJson({ ...running, id: 'b2' })],
      ['POST', '/tasks/batches/b2/cancel', () => {
        cancelled++;
        return okJson({ ...running, id: 'b2', state: 'cancelled', counts: counts(0, 0, 1, 0, 2), entries: running.entries.map((e) => (e.state === 'done' ? e : { ...e, state: 'cancelled', message: '已取消' })) });
      }],
      ['GET', '/tasks/batches/b1/download', (req) => {
        if (req.query.get('format') !== 'csv') return undefined;
        csv++;
        return new Response('rank,name\r\n1,5DN\r\n', { headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="docking-batch-b1.csv"' } });
      }],
    ],
    900,
  );

  async function render(name: 'docking_submit' | 'task_query', props: Omit<ToolCardProps, 'name'>, lang: 'zh' | 'en' = 'zh') {
    const Card: ComponentType<ToolCardProps> = await toolCards[name]!();
    return view.render(<Card name={name} {...props} />, lang);
  }
  const q = (shadow: ShadowRoot, part: string) => shadow.querySelector<HTMLElement>(`[part~="${part}"]`);
  const rows = (shadow: ShadowRoot) => [...shadow.querySelectorAll('[part~="docking-batch-row"]')].map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent));

  it('follows a batch to its ranked table: score, ligand efficiency, key interactions, sanity, and why a molecule failed', async () => {
    const shadow = await render('docking_submit', { ok: true, content: '已提交批量对接 b1', data: { batch: queued } });
    await waitLong(() => q(shadow, 'docking-batch-table'), 'the table');
    expect(q(shadow, 'docking-batch-counts')!.textContent).to.equal('3 个分子：已完成 0 个，运行中 0 个，排队 3 个，失败 0 个，取消 0 个');
    expect(rows(shadow).map((r) => r[0])).to.deep.equal(['—', '—', '—']);
    // Progress per molecule while it runs.
    await waitLong(() => (shadow.textContent ?? '').includes('运行中 50%'), 'the running molecule');
    expect(rows(shadow)[0]!.slice(0, 4)).to.deep.equal(['1', 'OC(=O)c1ccccc1', '-6.10', '0.68']);
    await waitLong(() => q(shadow, 'docking-batch-counts')!.textContent!.includes('已完成 2 个'), 'the end');
    const table = rows(shadow);
    expect(table.map((r) => r[0])).to.deep.equal(['1', '2', '—']);
    expect(table[0]!.slice(0, 6)).to.deep.equal(['1', '5DN', '-9.26', '0.44', '氢键 · ALA213A · 2.0 Å；疏水 LEU139A', '未通过']);
    expect(table[2]![6]).to.equal('失败：Open Babel 未能为该分子生成三维结构');
    expect(q(shadow, 'docking-note')!.textContent).to.contain('不是实测的结合亲和力');
    expect(q(shadow, 'docking-batch-cancel')).to.equal(null);
    expect(untranslated(shadow, 'zh', 'code, header strong, td:nth-child(2), [part~="docking-batch-message"]')).to.deep.equal([]);
    q(shadow, 'docking-batch-download-csv')!.click();
    await waitLong(() => csv === 1, 'the CSV download');
  });

  it('cancels the whole batch with one button', async () => {
    const shadow = await render('task_query', { ok: true, content: '批次 b2', data: { tasks: [], batch: { ...running, id: 'b2' } } });
    const button = await waitLong(() => q(shadow, 'docking-batch-cancel'), 'the cancel button');
    expect(button.textContent).to.equal('全部取消');
    button.click();
    await waitLong(() => q(shadow, 'docking-state')!.textContent === '已取消', 'the cancelled state');
    expect(cancelled).to.equal(1);
    expect(rows(shadow).map((r) => r[6])).to.deep.equal(['已完成', '已取消', '已取消']);
    expect(q(shadow, 'docking-batch-cancel')).to.equal(null);
  });

  it('speaks English when the interface is in English', async () => {
    const shadow = await render('task_query', { ok: true, content: 'batch b2', data: { tasks: [], batch: { ...running, id: 'b2' } } }, 'en');
    await waitLong(() => q(shadow, 'docking-batch-cancel'), 'the cancel button');
    expect(q(shadow, 'docking-batch-cancel')!.textContent).to.equal('Cancel all');
    expect(untranslated(shadow, 'en', 'code, header strong, td:nth-child(2)')).to.deep.equal([]);
  });
});
