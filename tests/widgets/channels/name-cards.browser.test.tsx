// The name → SMILES and SMILES completion cards of an answer, rendered as the answer view renders
// a tool_result (toolCards map), with the structure drawings faked as draw_svg answers.
import type { ComponentType } from 'react';
import { toolCards, type ToolCardProps } from '../../../src/widgets/channels/tool-cards';
import { expect, failOnConsoleErrors, waitFor } from '../harness';
import { ok, ping } from '../fake-api';
import { partPage } from '../render-in-host';
import { untranslated } from '../untranslated';

const SVG = `<svg xmlns='http://www.w3.org/2000/svg' width='240px' height='180px' viewBox='0 0 240 180'><path d='M 10,10 L 100,100' /></svg>`;

describe('name and completion cards', () => {
  failOnConsoleErrors();
  let drawn: string[] = [];
  beforeEach(() => {
    drawn = [];
  });
  const view = partPage([
    ['GET', '/', () => ping()],
    ['POST', '/mol/draw_svg', (req) => {
      const { smiles } = req.body as { smiles: string };
      drawn.push(smiles);
      return ok({ svg: SVG, canonical_smiles: smiles, formula: 'C', num_atoms: 1, highlighted_atoms: [], highlighted_bonds: [] });
    }],
  ]);

  async function render(name: 'name_to_smiles' | 'smiles_completion', props: Omit<ToolCardProps, 'name'>, lang: 'zh' | 'en' = 'zh') {
    const Card: ComponentType<ToolCardProps> = await toolCards[name]!();
    return view.render(<Card name={name} {...props} />, lang);
  }

  it('shows the canonical SMILES, InChIKey, source and the picture of a resolved name', async () => {
    const shadow = await render('name_to_smiles', {
      ok: true,
      content: '阿司匹林：SMILES CC(=O)Oc1ccccc1C(=O)O',
      data: { found: true, name: '阿司匹林', canonical_smiles: 'CC(=O)Oc1ccccc1C(=O)O', inchi_key: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N', source: 'dictionary' },
    });
    await waitFor(() => shadow.querySelector('csai-molecule'), 'the card with its picture');
    const text = shadow.textContent ?? '';
    expect(text).to.contain('名称 → 结构：阿司匹林');
    expect(text).to.contain('CC(=O)Oc1ccccc1C(=O)O');
    expect(text).to.contain('BSYNRYMUTXBXSQ-UHFFFAOYSA-N');
    expect(text).to.contain('内置药物与试剂词典');
    expect(shadow.querySelector('csai-molecule')?.getAttribute('smiles')).to.equal('CC(=O)Oc1ccccc1C(=O)O');
    await waitFor(() => drawn.includes('CC(=O)Oc1ccccc1C(=O)O'), 'the drawing');
  });

  it('says so when a name is unknown, and draws nothing', async () => {
    const shadow = await render('name_to_smiles', { ok: true, content: '未找到', data: { found: false, name: '某药', message: '未找到“某药”对应的结构' } });
    await waitFor(() => shadow.querySelector('[part~="not-found"]'), 'the notice');
    expect(shadow.querySelector('[part~="not-found"]')!.textContent).to.contain('未找到“某药”对应的结构');
    expect(shadow.querySelector('csai-molecule')).to.equal(null);
  });

  it('lists each completion with its picture and what was changed', async () => {
    const shadow = await render('smiles_completion', {
      ok: true,
      content: '',
      data: {
        input: 'c1cccc',
        valid: false,
        message: 'SMILES 无效，找到 2 个可能的补全',
        candidates: [
          { smiles: 'c1ccccc1', inchi_key: 'UHOVQNZJYSORNB-UHFFFAOYSA-N', changes: ['补全芳香环：添加 1 个芳香碳并闭合环 1'] },
          { smiles: '*CC', inchi_key: '', changes: [] },
        ],
      },
    });
    await waitFor(() => shadow.querySelectorAll('csai-molecule').length === 2, 'the candidates with their pictures');
    const text = shadow.textContent ?? '';
    expect(text).to.contain('SMILES 补全：c1cccc');
    expect(text).to.contain('补全芳香环：添加 1 个芳香碳并闭合环 1');
    expect(text).to.contain('无 InChIKey');
    expect([...shadow.querySelectorAll('csai-molecule')].map((m) => m.getAttribute('smiles'))).to.deep.equal(['c1ccccc1', '*CC']);
  });

  it('shows the message of a failed call as text', async () => {
    const shadow = await render('smiles_completion', { ok: false, content: 'SMILES 不能为空', data: undefined });
    await waitFor(() => shadow.textContent?.includes('SMILES 不能为空'), 'the message');
    expect(shadow.querySelector('li')).to.equal(null);
  });

  // Issue 32 §2: the cards' own words in the language shown (data — SMILES, InChIKey, names — skipped).
  // The name asked for is data: written as a user of each language would.
  const resolved = (name: string) => ({ ok: true, content: name, data: { found: true, name, canonical_smiles: 'CC(=O)Oc1ccccc1C(=O)O', inchi_key: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N', source: 'opsin' } });
  const completed = { ok: true, content: '', data: { input: 'c1cccc', valid: false, message: '', candidates: [{ smiles: 'c1ccccc1', inchi_key: 'UHOVQNZJYSORNB-UHFFFAOYSA-N', changes: [] }, { smiles: '*CC', inchi_key: '', changes: [] }] } };
  const skip = 'csai-molecule, code, [data-field], .font-mono';
  for (const lang of ['zh', 'en'] as const) {
    it(`has no untranslated words in ${lang === 'zh' ? 'Chinese' : 'English'}: name card and completion card`, async () => {
      const named = await render('name_to_smiles', resolved(lang === 'zh' ? '阿司匹林' : 'aspirin'), lang);
      await waitFor(() => named.querySelector('csai-molecule'), 'the name card');
      await waitFor(() => (lang === 'en' ? !/[\u4e00-\u9fff]/.test(named.textContent ?? '') : true), 'its English strings');
      expect(untranslated(named, lang, skip)).to.deep.equal([]);
      view.again();
      const completion = await render('smiles_completion', completed, lang);
      await waitFor(() => completion.querySelectorAll('csai-molecule').length === 2, 'the completion card');
      expect(untranslated(completion, lang, skip)).to.deep.equal([]);
    });
  }
});
