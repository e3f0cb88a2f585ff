// The patent_search card of an answer, rendered as the answer view renders a tool_result.
import type { Root } from 'react-dom/client';
import type { ComponentType } from 'react';
import { toolCards, type ToolCardProps } from '../../../src/widgets/channels/tool-cards';
import { untranslated } from '../untranslated';
import { expect, failOnConsoleErrors, waitFor } from '../harness';
import { renderInHost } from '../render-in-host';

describe('the patent card', () => {
  failOnConsoleErrors();
  let host: HTMLElement;
  let root: Root | undefined;

  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
  });
  afterEach(() => {
    root?.unmount();
    host.remove();
  });

  async function render(props: Omit<ToolCardProps, 'name'>, lang: 'zh' | 'en' = 'zh') {
    const Card: ComponentType<ToolCardProps> = await toolCards.patent_search!();
    let shadow: ShadowRoot;
    ({ shadow, root } = renderInHost(host, <Card name="patent_search" {...props} />, lang));
    return shadow;
  }

  it('lists each patent with number, title, assignee, date and source, linking out in a new tab; a failed source says why', async () => {
    const shadow = await render({
      ok: true,
      content: '…',
      data: {
        query: { kind: 'structure', value: 'OC(=O)c1ccccc1OC(C)=O', canonical_smiles: 'CC(=O)Oc1ccccc1C(=O)O', inchi_key: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N' },
        hits: [
          { number: 'US-10000000-B2', title: 'Acetylsalicylic acid formulation', assignee: 'BAYER AG', date: '2018-06-19', url: 'https://www.surechembl.org/patent/US-10000000-B2', source: 'surechembl' },
          { number: 'CN-101234567-A', title: null, assignee: null, date: null, url: 'https://pubchem.ncbi.nlm.nih.gov/patent/CN-101234567-A', source: 'pubchem' },
        ],
        sources: [{ source: 'surechembl', ok: true, hits: 1 }, { source: 'pubchem', ok: false, hits: 0, message: 'PubChem 暂时不可用（HTTP 503），请稍后再试' }],
      },
    });
    await waitFor(() => shadow.querySelector('table'), 'the patent table');
    const rows = [...shadow.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
    expect(rows).to.deep.equal([
      ['US-10000000-B2', 'Acetylsalicylic acid formulation', 'BAYER AG', '2018-06-19', 'SureChEMBL'],
      ['CN-101234567-A', '—', '—', '—', 'PubChem'],
    ]);
    const link = shadow.querySelector('a')!;
    expect(link.getAttribute('href')).to.equal('https://www.surechembl.org/patent/US-10000000-B2');
    expect(link.getAttribute('target')).to.equal('_blank');
    expect(link.getAttribute('rel')).to.equal('noopener noreferrer');
    expect(shadow.textContent).to.contain('分子专利检索：CC(=O)Oc1ccccc1C(=O)O');
    expect(shadow.textContent).to.contain('PubChem 检索失败：PubChem 暂时不可用（HTTP 503），请稍后再试');
  });

  it('says when nothing was found, and shows a failed call as its message', async () => {
    const shadow = await render({ ok: true, content: '', data: { query: { kind: 'text', value: 'zzz' }, hits: [], sources: [{ source: 'surechembl', ok: true, hits: 0 }] } });
    await waitFor(() => shadow.querySelector('[part="not-found"]'), 'the not-found line');
    expect(shadow.textContent).to.contain('未找到相关专利');
    root?.unmount();
    host.remove();
    host = document.createElement('div');
    document.body.append(host);
    const failed = await render({ ok: false, content: '无法识别的结构', data: undefined });
    await waitFor(() => failed.querySelector('p'), 'the message');
    expect(failed.textContent).to.equal('无法识别的结构');
  });

  // Issue 32 §2: the card's own words in the language shown; patent numbers, titles, applicants and the query are data.
  for (const lang of ['zh', 'en'] as const) {
    it(`has no untranslated words in ${lang === 'zh' ? 'Chinese' : 'English'}`, async () => {
      const shadow = await render({
        ok: true,
        content: '…',
        data: {
          // Asked by name, as a user of each language writes it (a SMILES in the heading would be data inside the card's words).
          query: { kind: 'text', value: lang === 'zh' ? '阿司匹林' : 'aspirin' },
          hits: [{ number: 'US-10000000-B2', title: 'Acetylsalicylic acid formulation', assignee: 'BAYER AG', date: '2018-06-19', url: 'https://www.surechembl.org/patent/US-10000000-B2', source: 'surechembl' }],
          sources: [{ source: 'surechembl', ok: true, hits: 1 }],
        },
      }, lang);
      await waitFor(() => shadow.querySelector('table'), 'the patent table');
      if (lang === 'en') await waitFor(() => !/[\u4e00-\u9fff]/.test(shadow.textContent ?? ''), 'its English strings');
      expect(untranslated(shadow, lang, 'td, a, code, csai-molecule, .font-mono')).to.deep.equal([]);
    });
  }
});
