// <csai-molecule-3d> with a real PDB entry and a real SDF (Debian rdkit-data, via
// `node scripts/fetch-test-docs.mjs`), the CSAI API faked. WebGL is Chromium's software one (SwiftShader).
import axe from 'axe-core';
import '../../../src/widgets/molecule/molecule-3d.element';
import { hasWebGl } from '../../../src/widgets/molecule/Molecule3d';
import { elementPage, expect, failOnConsoleErrors, realFetch, part, waitFor } from '../harness';
import { fail, ok as okJson, type Route } from '../fake-api';

const DOCS = '/.tmp/test-docs';

const waitLong = <T>(check: () => T | undefined | null | false, what: string) => waitFor(check, what, 15_000);

const sdfDoc = {
  docId: 'sdf1', title: 'cdk2.sdf', type: 5, parseStatus: 2, parse_progress: 100, progress_texts: [], img_id: null,
  download_url: '/api/v1/knowledge_base/download/sdf1', download_key: 'sdf1', folder_id: 'f', size: 1, page_count: null,
  owner_id: 'u', owner_name: '张三', is_owner: true, created_at: '2026-01-01T00:00:00Z',
};

const routes: Route[] = [
  ['GET', '/mol/get_pdb_string', async (req) => {
    if (req.query.get('pdb_id') !== '5DPV') return fail(404, '离线模式下无法获取该 PDB 结构', 'pdb_not_available');
    return okJson({ pdb_id: '5DPV', pdb: await (await realFetch(`${DOCS}/5dpv.pdb`)).text(), source: 'document', doc_id: 'p1' });
  }],
  ['GET', '/knowledge_base/doc/sdf1', () => okJson(sdfDoc)],
  ['GET', '/knowledge_base/download/sdf1', () => realFetch(`${DOCS}/cdk2.sdf`)],
];

describe('<csai-molecule-3d>', () => {
  failOnConsoleErrors();
  const page = elementPage();
  const open = (attrs: string) => page.show(routes, `<csai-molecule-3d style="display:block;width:600px;height:420px" ${attrs}></csai-molecule-3d>`).box.querySelector('csai-molecule-3d')!;

  it('has WebGL in the test browser (SwiftShader)', () => {
    expect(hasWebGl()).to.equal(true);
  });

  it('shows a PDB entry in 3Dmol with cartoon, stick and sphere styles and ligand focus', async () => {
    const el = open('pdb-id="5DPV"');
    const atoms = await waitLong(() => part(el, 'atoms'), 'the structure');
    expect(Number(/\d+/.exec(atoms.textContent ?? '')?.[0])).to.be.greaterThan(2000);
    const canvas = part(el, 'canvas')!.querySelector('canvas')!;
    expect(canvas.width).to.be.greaterThan(100);
    const style = part(el, 'style') as HTMLSelectElement;
    expect([...style.options].map((o) => o.textContent)).to.deep.equal(['卡通', '棍棒', '球体']);
    expect(style.value).to.equal('cartoon');
    const ligand = part(el, 'ligand') as HTMLButtonElement;
    expect(ligand.disabled).to.equal(false);
    ligand.click();
    style.value = 'sphere';
    style.dispatchEvent(new Event('change', { bubbles: true }));
    part(el, 'spin')!.click();
    await waitLong(() => part(el, 'spin')!.getAttribute('aria-pressed') === 'true', 'spinning');
  });

  it('shows an SDF document as sticks', async () => {
    const el = open('doc-id="sdf1"');
    await waitLong(() => part(el, 'atoms'), 'the molecule');
    expect((part(el, 'style') as HTMLSelectElement).value).to.equal('stick');
    expect(part(el, 'ligand')).to.equal(null);
  });

  it('says in Chinese when the structure is not available', async () => {
    const el = open('pdb-id="9XYZ"');
    const err = await waitLong(() => part(el, 'error'), 'the error');
    expect(err.textContent).to.equal('三维结构加载失败：离线模式下无法获取该 PDB 结构');
  });

  it('has no serious or critical axe violations', async () => {
    const el = open('pdb-id="5DPV"');
    await waitLong(() => part(el, 'atoms'), 'the structure');
    const results = await axe.run(el, { resultTypes: ['violations'] });
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => v.id)).to.deep.equal([]);
  });
});
