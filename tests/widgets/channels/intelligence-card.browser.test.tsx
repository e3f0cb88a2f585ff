// The intelligence_search card of an answer: passages and molecules with links to their documents,
// or the tool's Chinese message when the call failed.
import { act } from '../../react-act';
import { createRoot, type Root } from 'react-dom/client';
import type { IntelligenceSearchOutput } from '../../../src/contract/molecules';
import { toolCards, type ToolCardProps } from '../../../src/widgets/channels/tool-cards/index';
import { untranslated } from '../untranslated';
import { HostContext } from '../../../src/widgets/shared/host-context';
import { expect, waitFor } from '../harness';

const output: IntelligenceSearchOutput = {
  query: '阿司匹林 CC(=O)Oc1ccccc1C(=O)O',
  documents: 3,
  passages: [{ doc_id: 'pdf1', title: '综述.pdf', page: 2, text: 'Aspirin was used as control.', score: 3.2 }],
  molecules: {
    mode: 'similarity',
    query: { form: 'mol', text: 'CC(=O)Oc1ccccc1C(=O)O' },
    hits: [{ molecule_id: 9, doc_id: 'pdf1', doc_title: '综述.pdf', doc_type: 1, source: 'text', page: 2, name: null, mol_key: null, smiles: 'CC(=O)Oc1ccccc1C(=O)O', inchikey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N', score: 1 }],
    truncated: true,
    searched: 40,
    took_ms: 3,
  },
};

let root: Root;
/** What the card shows of the documents (titles, passages, names, SMILES): data, not the card's words. */
const DATA = 'csai-molecule, a, code, blockquote, [data-field], .font-mono, .line-clamp-3';
let box: HTMLElement;

async function render(props: ToolCardProps, lang: 'zh' | 'en' = 'zh') {
  const Card = await toolCards.intelligence_search!();
  box = document.createElement('div');
  const shadow = box.attachShadow({ mode: 'open' });
  const mountPoint = document.createElement('div');
  shadow.append(mountPoint);
  document.body.append(box);
  root = createRoot(mountPoint);
  const info = { host: box, root: shadow, resolvedTheme: 'light' as const, apiOrigin: '', theme: undefined, lang, apiBase: undefined, accent: undefined, radius: undefined };
  await act(() => root.render(<HostContext.Provider value={info}><Card {...props} /></HostContext.Provider>));
  return shadow;
}

afterEach(() => {
  root.unmount();
  box.remove();
});

describe('the intelligence_search card', () => {
  it('lists passages and molecules, each opening its document at its page through csai-navigate', async () => {
    const shadow = await render({ name: 'intelligence_search', ok: true, content: '…', data: output });
    const links = await waitFor(() => (shadow.querySelectorAll('a').length === 2 ? [...shadow.querySelectorAll('a')] : null), 'two links');
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal(['/pdf_viewer?docId=pdf1&page=2', '/pdf_viewer?docId=pdf1&page=2']);
    expect(shadow.querySelector('csai-molecule')?.getAttribute('smiles')).to.equal('CC(=O)Oc1ccccc1C(=O)O');
    expect(shadow.textContent).to.contain('相似度 1.00');
    expect(shadow.textContent).to.contain('还有更多匹配的分子');
    const paths: string[] = [];
    box.addEventListener('csai-navigate', (e) => {
      e.preventDefault();
      paths.push((e as CustomEvent<{ path: string }>).detail.path);
    });
    links[1]!.click();
    expect(paths).to.deep.equal(['/pdf_viewer?docId=pdf1&page=2']);
  });

  it('draws a substructure hit with its matched atoms highlighted, and says when an exact hit matched its parent or is a stereoisomer', async () => {
    const hit = output.molecules!.hits[0]!;
    const molecules = {
      ...output.molecules!,
      mode: 'substructure' as const,
      hits: [
        { ...hit, score: null, highlight: { atoms: [4, 5, 6, 7, 8, 9], bonds: [4, 5, 6, 7, 8, 12] } },
        { ...hit, molecule_id: 10, smiles: 'CC(=O)Oc1ccccc1C(=O)[O-].[Na+]', score: 1, matched: 'parent' as const, parent_smiles: hit.smiles, highlight: null },
        { ...hit, molecule_id: 11, smiles: 'CC(=O)/C=C/c1ccccc1', score: 1, matched: 'stereo' as const, parent_smiles: null, highlight: null },
      ],
    };
    const shadow = await render({ name: 'intelligence_search', ok: true, content: '…', data: { ...output, molecules } });
    const drawings = await waitFor(() => (shadow.querySelectorAll('csai-molecule').length === 3 ? [...shadow.querySelectorAll('csai-molecule')] : null), 'three drawings');
    expect(drawings[0]!.getAttribute('highlight-atoms')).to.equal('4,5,6,7,8,9');
    expect(drawings[0]!.getAttribute('highlight-bonds')).to.equal('4,5,6,7,8,12');
    expect(drawings[1]!.hasAttribute('highlight-atoms')).to.equal(false);
    expect(shadow.textContent).to.contain('按母体结构匹配');
    expect(shadow.textContent).to.contain('立体异构体');
  });

  it('shows the Chinese message of a failed call', async () => {
    const shadow = await render({ name: 'intelligence_search', ok: false, content: '无法解析查询结构：[#6; 既不是有效的 SMILES，也不是有效的 SMARTS', data: undefined });
    await waitFor(() => shadow.querySelector('[part="tool-error"]'), 'the message');
    expect(shadow.querySelector('[part="tool-error"]')?.textContent).to.contain('既不是有效的 SMILES');
  });

  // Issue 32 §2: the card's own words in the language shown; the documents' titles and passages are data.
  for (const lang of ['zh', 'en'] as const) {
    it(`has no untranslated words in ${lang === 'zh' ? 'Chinese' : 'English'}`, async () => {
      const shadow = await render({ name: 'intelligence_search', ok: true, content: '…', data: output }, lang);
      await waitFor(() => shadow.querySelector('csai-molecule'), 'the card');
      if (lang === 'en') await waitFor(() => !/相似度/.test(shadow.textContent ?? ''), 'its English strings');
      expect(untranslated(shadow, lang, DATA)).to.deep.equal([]);
    });
  }
});
