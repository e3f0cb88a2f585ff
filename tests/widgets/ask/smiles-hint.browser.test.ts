import axe from 'axe-core';
import '../../../src/widgets/ask/ask.element';
import type { CsaiAskElement } from '../../../src/widgets/ask/ask.element';
import { expect, failOnConsoleErrors, part, waitFor } from '../harness';
import { fakeCsaiPage, ok, typeInto, type Route } from './fake-csai';

const input = (el: Element) => part(el, 'input') as HTMLTextAreaElement;
const candidates = (el: Element) => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part~="smiles-hint-candidate"]')];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The server's completion: benzaldehyde for the broken branch, nothing to say about a valid SMILES. */
const completionRoute: Route = ['*', '/mol/smiles_completion', (c) => {
  const smiles = (c.body as { smiles: string }).smiles;
  if (smiles === 'CCO(C)') return ok({ input: smiles, valid: true, candidates: [{ smiles: 'CC(C)O', inchi_key: 'KFZMGEQAYNKOFK-UHFFFAOYSA-N', changes: [] }], message: '已是有效的 SMILES' });
  return ok({
    input: smiles,
    valid: false,
    candidates: [
      { smiles: 'O=Cc1ccccc1', inchi_key: 'HUMNYLRZRPPJDN-UHFFFAOYSA-N', changes: ['补全 1 个未闭合的支链 “)”'] },
      { smiles: 'CC(=O)c1ccccc1', inchi_key: 'KWOLFJPFCHCOCG-UHFFFAOYSA-N', changes: ['补全支链并添加甲基'] },
    ],
    message: 'SMILES 无效，找到 2 个可能的补全',
  });
}];

describe('<csai-ask> SMILES completion hint', () => {
  failOnConsoleErrors();
  const page = fakeCsaiPage();
  beforeEach(() => void page.serve([completionRoute]));

  const show = async () => {
    const el = page.mount<CsaiAskElement>('<csai-ask navigate="false"></csai-ask>');
    await waitFor(() => input(el), 'the question box');
    return el;
  };
  const asked = () => page.calls.filter((c) => c.path === '/mol/smiles_completion').map((c) => (c.body as { smiles: string }).smiles);

  it('offers valid molecules for a broken SMILES once typing pauses, and puts the chosen one into the question', async () => {
    const el = await show();
    for (const text of ['这个分子 c', '这个分子 c1cc', '这个分子 c1ccccc1', '这个分子 c1ccccc1C(=O']) typeInto(input(el), text);
    await waitFor(() => candidates(el).length === 2, 'the candidates');
    expect(asked()).to.deep.equal(['c1ccccc1C(=O']);
    expect(part(el, 'smiles-hint')!.textContent).to.contain('补全 1 个未闭合的支链');
    const results = await axe.run(el.shadowRoot!.querySelector('[part~="smiles-hint"]')!);
    expect(results.violations.map((v) => v.id)).to.deep.equal([]);
    candidates(el)[0]!.click();
    await waitFor(() => input(el).value === '这个分子 O=Cc1ccccc1', 'the chosen SMILES in the question');
    await waitFor(() => !part(el, 'smiles-hint'), 'the hint closed');
  });

  it('stays quiet for plain text and for a valid SMILES, and can be dismissed', async () => {
    const el = await show();
    typeInto(input(el), '布洛芬的作用机制是什么');
    typeInto(input(el), 'CCO(C)');
    await waitFor(() => asked().length === 1, 'the check of the SMILES');
    await sleep(100);
    expect(part(el, 'smiles-hint')).to.equal(null);
    typeInto(input(el), 'CC(=O');
    await waitFor(() => candidates(el).length === 2, 'the candidates');
    part(el, 'smiles-hint-dismiss')!.click();
    await waitFor(() => !part(el, 'smiles-hint'), 'the hint closed');
    expect(input(el).value).to.equal('CC(=O');
  });
});
