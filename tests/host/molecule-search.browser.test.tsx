// /molecules: the molecule search screen, with the server's POST /mol/search answered by a fake
// fetch (the search itself is tested against the real server in tests/server/molecules/molecules.test.ts).
import { act } from '../react-act';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import type { MolSearchResult } from '../../src/contract/molecules';
import { hostI18n } from '../../src/host/i18n';
import MoleculeSearchPage from '../../src/host/pages/MoleculeSearchPage';
import { expect, jsonResponse, waitFor } from '../core/harness';
import { fakeApi } from '../widgets/fake-api';

const result: MolSearchResult = {
  mode: 'substructure',
  query: { form: 'mol', text: 'c1ccccc1' },
  hits: [
    { molecule_id: 1, doc_id: 'pdf1', doc_title: '综述.pdf', doc_type: 1, source: 'text', page: 3, name: null, mol_key: null, smiles: 'CC(=O)Oc1ccccc1C(=O)O', inchikey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N', score: null, highlight: { atoms: [4, 5, 6, 7, 8, 9], bonds: [4, 5, 6, 7, 8, 12] } },
    { molecule_id: 2, doc_id: 'sdf1', doc_title: 'cdk2.sdf', doc_type: 5, source: 'sdf', page: null, name: 'ZINC1', mol_key: 'sdf1:7', smiles: 'c1ccccc1CN', inchikey: 'X', score: null, highlight: null },
  ],
  truncated: false,
  searched: 120,
  took_ms: 4.2,
};

let root: Root;
let host: HTMLDivElement;
let bodies: unknown[];
let answer: () => Response;
let restoreFetch = () => {};

beforeEach(async () => {
  bodies = [];
  answer = () => jsonResponse(200, { success: true, data: result, message: '' });
  document.cookie = 'XSRF-TOKEN=t.k; path=/';
  restoreFetch = fakeApi([
    ['POST', '/mol/search', (req) => {
      bodies.push(req.body);
      return answer();
    }],
  ]).restore;
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(() => root.render(<I18nextProvider i18n={hostI18n()}><MoleculeSearchPage /></I18nextProvider>));
});
afterEach(() => {
  root.unmount();
  host.remove();
  restoreFetch();
});

const queryInput = () => host.querySelector<HTMLInputElement>('input[name="query"]')!;
async function type(value: string) {
  await act(() => {
    queryInput().value = value;
    queryInput().dispatchEvent(new Event('input', { bubbles: true }));
  });
}
const submit = () => act(() => host.querySelector<HTMLButtonElement>('button[type="submit"]')!.click());

describe('the molecule search screen', () => {
  it('searches a typed substructure and shows each hit drawn, with a link to its document page', async () => {
    expect(host.querySelector('h1')?.textContent).to.equal('分子检索');
    expect(host.querySelector<HTMLButtonElement>('button[type="submit"]')!.disabled).to.equal(true);
    await type('c1ccccc1');
    await submit();
    const hits = await waitFor(() => (host.querySelectorAll('.molsearch__hit').length === 2 ? host.querySelectorAll('.molsearch__hit') : null), 'two hits');
    expect(bodies).to.deep.equal([{ query: 'c1ccccc1', mode: 'substructure', top_k: 50 }]);
    expect(host.querySelector('.molsearch__summary')?.textContent).to.contain('在 120 个分子中找到 2 个');
    const first = hits[0]!;
    expect(first.querySelector('csai-molecule')?.getAttribute('smiles')).to.equal('CC(=O)Oc1ccccc1C(=O)O');
    // The matched atoms go to the drawing, which asks the server to highlight them.
    expect(first.querySelector('csai-molecule')?.getAttribute('highlight-atoms')).to.equal('4,5,6,7,8,9');
    expect(first.querySelector('csai-molecule')?.getAttribute('highlight-bonds')).to.equal('4,5,6,7,8,12');
    expect(hits[1]!.querySelector('csai-molecule')?.hasAttribute('highlight-atoms')).to.equal(false);
    expect(first.querySelector('a')?.getAttribute('href')).to.equal('/pdf_viewer?docId=pdf1&page=3');
    expect(first.textContent).to.contain('文中第 3 页');
    const second = hits[1]!;
    expect(second.querySelector('a')?.getAttribute('href')).to.equal('/pdf_viewer?docId=sdf1&type=5&mol=7');
    expect(second.textContent).to.contain('SDF 第 7 个分子');
  });

  it('links a hit read from a drawing to its page with the drawing highlighted, and to the review of its structure', async () => {
    answer = () =>
      jsonResponse(200, {
        success: true,
        data: { ...result, hits: [{ ...result.hits[0], source: 'figure', page: 2, label: '12a', bbox: [72.123, 400, 300.5, 550], structure_id: 41, activities: [] }] },
        message: '',
      });
    await type('c1ccccc1');
    await submit();
    const hit = await waitFor(() => host.querySelector('.molsearch__hit'), 'a hit');
    expect(hit.textContent).to.contain('第 2 页的结构图，化合物 12a');
    expect(hit.querySelector('.molsearch__doc')?.getAttribute('href')).to.equal('/pdf_viewer?docId=pdf1&page=2&bbox=72.12%2C400%2C300.5%2C550');
    const review = hit.querySelector('.molsearch__review');
    expect(review?.textContent).to.equal('核对识别的结构');
    expect(review?.getAttribute('href')).to.equal('/pdf_viewer?docId=pdf1&page=2&bbox=72.12%2C400%2C300.5%2C550&structure=41');
    // Other hits have no review link.
    answer = () => jsonResponse(200, { success: true, data: result, message: '' });
    await submit();
    await waitFor(() => host.querySelectorAll('.molsearch__hit').length === 2, 'two hits');
    expect(host.querySelector('.molsearch__review')).to.equal(null);
  });

  it('says when an exact hit matched by its parent structure (a salt of the query)', async () => {
    answer = () =>
      jsonResponse(200, {
        success: true,
        data: { ...result, mode: 'exact', hits: [{ ...result.hits[1], smiles: 'CN(C)CCOC(c1ccccc1)c1ccccc1.Cl', score: 1, matched: 'parent', parent_smiles: 'CN(C)CCOC(c1ccccc1)c1ccccc1', highlight: null }] },
        message: '',
      });
    await type('CN(C)CCOC(c1ccccc1)c1ccccc1');
    await submit();
    const hit = await waitFor(() => host.querySelector('.molsearch__hit'), 'a hit');
    expect(hit.querySelector('.molsearch__parent')?.textContent).to.equal('按母体结构匹配：CN(C)CCOC(c1ccccc1)c1ccccc1');
  });

  it('says when an exact hit is a stereoisomer of a query given without stereo', async () => {
    answer = () =>
      jsonResponse(200, {
        success: true,
        data: { ...result, mode: 'exact', hits: [{ ...result.hits[1], smiles: 'CC(=O)/C=C/c1ccccc1', score: 1, matched: 'stereo', parent_smiles: null, highlight: null }] },
        message: '',
      });
    await type('CC(=O)C=Cc1ccccc1');
    await submit();
    const hit = await waitFor(() => host.querySelector('.molsearch__hit'), 'a hit');
    expect(hit.querySelector('.molsearch__parent')?.textContent).to.equal('立体异构体（查询未指定立体构型）');
  });

  it('sends the threshold of a similarity search and shows the scores', async () => {
    answer = () => jsonResponse(200, { success: true, data: { ...result, mode: 'similarity', hits: [{ ...result.hits[0], score: 0.82 }] }, message: '' });
    await type('CC(=O)Oc1ccccc1C(=O)O');
    await act(() => host.querySelector<HTMLInputElement>('input[value="similarity"]')!.click());
    const threshold = await waitFor(() => host.querySelector<HTMLInputElement>('input[name="threshold"]'), 'the threshold field');
    await act(() => {
      threshold.value = '0.7';
      threshold.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await submit();
    await waitFor(() => host.querySelector('.molsearch__hit'), 'a hit');
    expect(bodies).to.deep.equal([{ query: 'CC(=O)Oc1ccccc1C(=O)O', mode: 'similarity', top_k: 50, threshold: 0.7 }]);
    expect(host.querySelector('.molsearch__hit')?.textContent).to.contain('相似度 0.82');
  });

  it('takes a structure drawn in the chemical editor as the query', async () => {
    const editor = host.querySelector('csai-chem-editor')!;
    await act(() => host.querySelector<HTMLButtonElement>('.field-row__action')!.click());
    expect(editor.hasAttribute('opened')).to.equal(true);
    await act(() => void editor.dispatchEvent(new CustomEvent('csai-chem-smiles', { detail: { smiles: 'c1ccc2[nH]ccc2c1' }, bubbles: true, composed: true })));
    expect(queryInput().value).to.equal('c1ccc2[nH]ccc2c1');
    await submit();
    await waitFor(() => bodies.length === 1, 'the search');
    expect(bodies[0]).to.deep.equal({ query: 'c1ccc2[nH]ccc2c1', mode: 'substructure', top_k: 50 });
  });

  it('shows the server’s message for a refused query beside the field', async () => {
    answer = () => jsonResponse(400, { success: false, message: '无法解析查询结构：[#6; 既不是有效的 SMILES，也不是有效的 SMARTS', code: 'invalid_smarts', field: 'query' });
    await type('[#6;');
    await submit();
    const alert = await waitFor(() => host.querySelector('[role="alert"]'), 'the error');
    expect(alert.textContent).to.contain('既不是有效的 SMILES');
    expect(queryInput().getAttribute('aria-invalid')).to.equal('true');
    expect(host.querySelector('.molsearch__results')).to.equal(null);
  });
});
