// The batch docking form (issue 30 §6, <csai-docking-batch>): a SMILES list, an SDF file or a
// molecule search's molecules (molecule-ids), the receptor, box and settings, submitted as one
// POST /tasks/docking/batch; more than 50 molecules get the limit message and nothing is sent; a
// refusal shows the server's Chinese message; the submitted batch's ranked table follows it to the
// end. The CSAI API is faked (its requests are recorded with their bodies).
import type { BatchEntry, DockingBatch } from '../../../src/contract/docking';
import { DockingBatch as Form, type DockingBatchProps } from '../../../src/widgets/docking/DockingBatch';
import { expect, failOnConsoleErrors, nextFrame } from '../harness';
import { partPage } from '../render-in-host';
import { fail, ok as okJson } from '../fake-api';
import { untranslated } from '../untranslated';

const entry = (index: number, over: Partial<BatchEntry> = {}): BatchEntry => ({
  index, rank: null, name: '', smiles: 'CCO', docked_smiles: 'CCO', task_id: `t${index}`, state: 'queued', progress: 0, message: '排队中',
  score: null, ligand_efficiency: null, heavy_atoms: null, interactions: null, sanity_passed: null, ...over,
});
const counts = (queued: number, running: number, done: number) => ({ queued, running, done, failed: 0, cancelled: 0 });
const queued: DockingBatch = {
  id: 'b1', kind: 'docking_batch', title: '批量对接 2 个分子 → 5DPV', state: 'queued', progress: 0, counts: counts(2, 0, 0), receptor: '5DPV',
  box: { center: [-6.9, -10.6, 13.1], size: [18.5, 16.2, 15.1], source: 'ligand', label: '5DN A:401' }, exhaustiveness: 4, num_modes: 9, seed: 42,
  entries: [entry(1, { name: '阿司匹林' }), entry(2, { name: 'paracetamol' })], created_at: '2026-01-01T00:00:00Z',
};
const done: DockingBatch = {
  ...queued, state: 'done', progress: 1, counts: counts(0, 0, 2),
  entries: [
    entry(2, { rank: 1, name: 'paracetamol', state: 'done', progress: 1, message: '完成', score: -6.4, ligand_efficiency: 0.582, heavy_atoms: 11, interactions: [], sanity_passed: true }),
    entry(1, { rank: 2, name: '阿司匹林', state: 'done', progress: 1, message: '完成', score: -6.1, ligand_efficiency: 0.469, heavy_atoms: 13, interactions: [], sanity_passed: true }),
  ],
};

async function waitFor<T>(check: () => T | undefined | null | false, what: string): Promise<T> {
  const started = performance.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (performance.now() - started > 15000) throw new Error(`timed out waiting for ${what}`);
    await nextFrame();
  }
}

/** Sets a controlled field's value as typing does (React reads the native input event). */
function type(el: Element | null, value: string) {
  const field = el as HTMLInputElement | HTMLTextAreaElement;
  const proto = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('batch docking form', () => {
  failOnConsoleErrors();
  let posted: unknown[] = [];
  let refuse: { status: number; message: string } | null = null;
  let polls = 0;

  beforeEach(() => {
    posted = [];
    refuse = null;
    polls = 0;
  });
  const view = partPage(
    [
      ['POST', '/tasks/docking/batch', (req) => {
        posted.push(req.body);
        return refuse ? fail(refuse.status, refuse.message, 'invalid_docking_input') : okJson(queued);
      }],
      ['GET', '/tasks/batches/b1', () => okJson(++polls === 1 ? queued : done)],
    ],
    900,
  );

  function render(props: Partial<DockingBatchProps> = {}, lang: 'zh' | 'en' = 'zh') {
    return view.render(<Form {...({ moleculeIds: '', receptor: '', ...props } as DockingBatchProps)} />, lang);
  }
  const q = (shadow: ShadowRoot, part: string) => shadow.querySelector<HTMLElement>(`[part~="${part}"]`);
  const byLabel = (shadow: ShadowRoot, text: string) => [...shadow.querySelectorAll('label')].find((l) => l.textContent!.startsWith(text))!.querySelector('input, textarea');

  it('submits a SMILES list with the receptor, box and settings, then follows the ranked table to the end', async () => {
    const shadow = render();
    await waitFor(() => q(shadow, 'docking-batch-smiles'), 'the form');
    type(q(shadow, 'docking-batch-smiles'), 'CC(=O)Oc1ccccc1C(=O)O 阿司匹林\n\nCC(=O)Nc1ccc(O)cc1 paracetamol\n');
    type(q(shadow, 'docking-batch-receptor'), ' 5DPV ');
    type(byLabel(shadow, '参考配体（'), '5DN');
    type(byLabel(shadow, '搜索强度'), '4');
    type(byLabel(shadow, '随机种子'), '42');
    type(byLabel(shadow, '只保留这些链'), 'A');
    await waitFor(() => (shadow.textContent ?? '').includes('共 2 个分子'), 'the count');
    q(shadow, 'docking-batch-submit')!.click();
    await waitFor(() => q(shadow, 'docking-batch-table'), 'the batch table');
    expect(posted).to.deep.equal([
      {
        receptor: '5DPV', exhaustiveness: 4, num_modes: 9, reference_ligand: '5DN', seed: 42,
        receptor_prep: { missing_residues: false, waters: false, chains: ['A'] },
        file: 'CC(=O)Oc1ccccc1C(=O)O 阿司匹林\n\nCC(=O)Nc1ccc(O)cc1 paracetamol\n', file_format: 'smi',
      },
    ]);
    // The table updates as molecules finish: ranked by score.
    await waitFor(() => q(shadow, 'docking-state')?.textContent === '已完成', 'the end of the batch');
    const names = [...shadow.querySelectorAll('[part~="docking-batch-row"]')].map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent));
    expect(names).to.deep.equal([['1', 'paracetamol', '-6.40'], ['2', '阿司匹林', '-6.10']]);
    expect(q(shadow, 'docking-batch-download-csv')).to.not.equal(null);
    expect(q(shadow, 'docking-batch-download-sdf')).to.not.equal(null);
    expect(untranslated(shadow, 'zh', 'code, header strong, td:nth-child(2), textarea')).to.deep.equal([]);
  });

  it('refuses more than 50 molecules with the limit message and sends nothing', async () => {
    const shadow = render({ receptor: '5DPV' });
    await waitFor(() => q(shadow, 'docking-batch-smiles'), 'the form');
    type(q(shadow, 'docking-batch-smiles'), Array.from({ length: 51 }, (_, i) => `${'C'.repeat(i + 1)}O`).join('\n'));
    const alert = await waitFor(() => q(shadow, 'docking-batch-error'), 'the limit message');
    expect(alert.textContent).to.equal('一批最多对接 50 个分子，这里有 51 个：请分成几批提交');
    expect((q(shadow, 'docking-batch-submit') as HTMLButtonElement).disabled).to.equal(true);
    q(shadow, 'docking-batch-form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await nextFrame();
    expect(posted).to.deep.equal([]);
  });

  it("docks a molecule search's molecules by id; more than 50 get the limit message; a refusal shows the server's message", async () => {
    const many = render({ moleculeIds: Array.from({ length: 60 }, (_, i) => i + 1).join(','), receptor: '5DPV' });
    const alert = await waitFor(() => q(many, 'docking-batch-error'), 'the limit message');
    expect(alert.textContent).to.equal('一批最多对接 50 个分子，检索结果有 60 个：请缩小检索范围，或分几次对接');
    expect((q(many, 'docking-batch-submit') as HTMLButtonElement).disabled).to.equal(true);
    view.again();

    refuse = { status: 400, message: '有 1 个分子不存在或你无权读取（id：7），整批未提交' };
    const shadow = render({ moleculeIds: '3,5,7', receptor: '5DPV' });
    await waitFor(() => q(shadow, 'docking-batch-searched'), 'the searched molecules');
    expect(q(shadow, 'docking-batch-searched')!.textContent).to.equal('对接分子检索结果中的 3 个分子');
    expect(q(shadow, 'docking-batch-smiles')).to.equal(null);
    q(shadow, 'docking-batch-submit')!.click();
    const refused = await waitFor(() => q(shadow, 'docking-batch-error'), 'the refusal');
    expect(refused.textContent).to.equal('提交失败：有 1 个分子不存在或你无权读取（id：7），整批未提交');
    expect(posted).to.deep.equal([{ receptor: '5DPV', exhaustiveness: 8, num_modes: 9, molecule_ids: [3, 5, 7] }]);
    expect(q(shadow, 'docking-batch')).to.equal(null);
  });

  it('sends an SDF file as text with an explicit box, and says what is missing before sending', async () => {
    const shadow = render();
    await waitFor(() => q(shadow, 'docking-batch-smiles'), 'the form');
    q(shadow, 'docking-batch-submit')!.click();
    await waitFor(() => q(shadow, 'docking-batch-error')?.textContent === '请填写受体：PDB 编号或知识库中 PDB 文档的编号', 'the receptor message');
    type(q(shadow, 'docking-batch-receptor'), 'doc-123');
    q(shadow, 'docking-batch-submit')!.click();
    await waitFor(() => q(shadow, 'docking-batch-error')?.textContent === '请先给出要对接的分子：每行一个 SMILES，或选择 SDF 文件', 'the molecules message');
    (shadow.querySelector('input[value="sdf"]') as HTMLInputElement).click();
    const file = await waitFor(() => q(shadow, 'docking-batch-sdf') as HTMLInputElement | null, 'the file input');
    const sdf = 'benzene\n  RDKit          2D\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n$$$$\n';
    const transfer = new DataTransfer();
    transfer.items.add(new File([sdf], 'series.sdf', { type: 'chemical/x-mdl-sdfile' }));
    file.files = transfer.files;
    file.dispatchEvent(new Event('change', { bubbles: true }));
    await waitFor(() => (shadow.textContent ?? '').includes('已选：series.sdf'), 'the chosen file');
    (shadow.querySelector('input[value="explicit"]') as HTMLInputElement).click();
    await waitFor(() => byLabel(shadow, '中心 x'), 'the centre field');
    type(byLabel(shadow, '中心 x'), '1, 2, x');
    type(byLabel(shadow, '尺寸 x'), '20 20 20');
    q(shadow, 'docking-batch-submit')!.click();
    await waitFor(() => q(shadow, 'docking-batch-error')?.textContent === '中心 x, y, z（Å）必须是 3 个用逗号分开的数字', 'the centre message');
    type(byLabel(shadow, '中心 x'), '-6.9, -10.6, 13.1');
    q(shadow, 'docking-batch-submit')!.click();
    await waitFor(() => posted.length === 1, 'the request');
    expect(posted[0]).to.deep.equal({ receptor: 'doc-123', exhaustiveness: 8, num_modes: 9, center: [-6.9, -10.6, 13.1], size: [20, 20, 20], file: sdf, file_format: 'sdf' });
  });

  it('speaks English when the interface is in English', async () => {
    const shadow = render({}, 'en');
    await waitFor(() => q(shadow, 'docking-batch-smiles'), 'the form');
    expect(q(shadow, 'docking-batch-submit')!.textContent).to.equal('Submit the batch');
    expect(untranslated(shadow, 'en', 'textarea')).to.deep.equal([]);
  });
});
