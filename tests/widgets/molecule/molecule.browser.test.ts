// <csai-molecule>: the draw_svg call is faked with an SVG as the server sends it.
import axe from 'axe-core';
import '../../../src/widgets/molecule/molecule.element';
import { expect, failOnConsoleErrors, mount, part, waitFor } from '../harness';
import { fail, fakeApi, ok, ping, type ApiRequest } from '../fake-api';

const SVG = `<?xml version='1.0' encoding='iso-8859-1'?>
<svg version='1.1' baseProfile='full' xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='240px' height='180px' viewBox='0 0 240 180'>
<rect style='opacity:1.0;fill:#FFFFFF;stroke:none' width='240.0' height='180.0' x='0.0' y='0.0'> </rect>
<path class='bond-0 atom-0 atom-1' d='M 10,10 L 100,100' style='fill:none;stroke:#000000;stroke-width:2.0px' />
<text x='100' y='100' class='atom-1' onclick='alert(1)'>O</text>
<script>window.__pwned = true</script>
</svg>`;

function drawServer() {
  return fakeApi([
    ['GET', '/', () => {
      document.cookie = 'XSRF-TOKEN=tok123; path=/';
      return ping();
    }],
    ['POST', '/mol/draw_svg', (req) => {
      if ((req.body as { smiles?: string }).smiles === 'C1CC') return fail(400, '无法解析 SMILES：C1CC，请检查结构式是否正确', 'invalid_smiles', 'smiles');
      return ok({ svg: SVG, canonical_smiles: 'CCO', formula: 'C2H6O', num_atoms: 3, highlighted_atoms: [], highlighted_bonds: [] });
    }],
    ['GET', '/mol/get_mol_string', () => ok({ mol_key: 'doc1:0', molfile: 'MOLFILE', name: '乙醇', smiles: 'CCO' })],
  ]);
}

describe('<csai-molecule>', () => {
  failOnConsoleErrors();
  let restore: () => void = () => {};
  let box: HTMLElement | undefined;
  let calls: ApiRequest[] = [];
  beforeEach(() => {
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    const server = drawServer();
    calls = server.calls;
    restore = server.restore;
  });
  afterEach(() => {
    box?.remove();
    box = undefined;
    restore();
  });

  it('draws a SMILES through draw_svg with the CSRF headers, as parsed SVG nodes without active content', async () => {
    box = mount('<csai-molecule smiles="OCC" width="300" height="200" caption></csai-molecule>');
    const el = box.querySelector('csai-molecule')!;
    const svg = await waitFor(() => part(el, 'drawing')?.querySelector('svg'), 'the drawing');
    expect(svg.namespaceURI).to.equal('http://www.w3.org/2000/svg');
    expect(svg.querySelector('path')).to.not.equal(null);
    expect(svg.querySelector('script')).to.equal(null);
    expect(svg.querySelector('text')!.hasAttribute('onclick')).to.equal(false);
    expect((window as { __pwned?: boolean }).__pwned).to.equal(undefined);
    const draw = calls.find((c) => c.url.endsWith('/api/v1/mol/draw_svg'))!;
    expect(draw.body).to.deep.equal({ smiles: 'OCC', width: 300, height: 200 });
    expect(draw.headers.get('X-Requested-With')).to.equal('XMLHttpRequest');
    expect(draw.headers.get('X-CSRF-TOKEN')).to.equal('tok123');
    expect(part(el, 'formula')!.textContent).to.equal('分子式 C2H6O');
    expect(part(el, 'drawing')!.getAttribute('aria-label')).to.equal('化学结构：OCC');
    expect(part(el, 'drawing')!.getBoundingClientRect().width).to.equal(300);
  });

  it('shares one drawing between elements showing the same structure', async () => {
    box = mount('<csai-molecule smiles="CCN"></csai-molecule><csai-molecule smiles="CCN"></csai-molecule>');
    const [a, b] = [...box.querySelectorAll('csai-molecule')];
    await waitFor(() => part(a!, 'drawing')?.querySelector('svg') && part(b!, 'drawing')?.querySelector('svg'), 'both drawings');
    expect(calls.filter((c) => c.url.endsWith('draw_svg'))).to.have.length(1);
  });

  it('asks for the atoms and bonds of highlight-atoms / highlight-bonds highlighted, ignoring what is not an index', async () => {
    box = mount('<csai-molecule smiles="CCOc1ccccc1" highlight-atoms="3,4, 5,x,-1" highlight-bonds="3,4"></csai-molecule><csai-molecule smiles="CCOc1ccccc1" highlight-atoms="nonsense"></csai-molecule>');
    const [a, b] = [...box.querySelectorAll('csai-molecule')];
    await waitFor(() => part(a!, 'drawing')?.querySelector('svg') && part(b!, 'drawing')?.querySelector('svg'), 'both drawings');
    const bodies = calls.filter((c) => c.url.endsWith('draw_svg')).map((c) => c.body);
    expect(bodies).to.deep.include({ smiles: 'CCOc1ccccc1', width: 240, height: 180, highlight: { atoms: [3, 4, 5], bonds: [3, 4] } });
    // Nothing usable: drawn without a highlight.
    expect(bodies).to.deep.include({ smiles: 'CCOc1ccccc1', width: 240, height: 180 });
  });

  it('draws a molecule of an SDF document from its mol-key', async () => {
    box = mount('<csai-molecule mol-key="doc1:0"></csai-molecule>');
    const el = box.querySelector('csai-molecule')!;
    await waitFor(() => part(el, 'drawing')?.querySelector('svg'), 'the drawing');
    expect(calls.find((c) => c.url.endsWith('draw_svg'))!.body).to.deep.equal({ molfile: 'MOLFILE', width: 240, height: 180 });
    expect(calls.some((c) => c.url.endsWith('/api/v1/mol/get_mol_string?mol_key=doc1%3A0'))).to.equal(true);
  });

  it('shows the server’s message inline in Chinese for an invalid SMILES and tells the page', async () => {
    const errors: string[] = [];
    box = mount('<csai-molecule smiles="C1CC"></csai-molecule>');
    const el = box.querySelector('csai-molecule')!;
    el.addEventListener('csai-error', (e) => errors.push(e.detail.code));
    const err = await waitFor(() => part(el, 'error'), 'the error');
    expect(err.textContent).to.equal('结构绘制失败：无法解析 SMILES：C1CC，请检查结构式是否正确');
    expect(errors).to.deep.equal(['invalid_smiles']);
    expect(part(el, 'drawing')!.querySelector('svg')).to.equal(null);
  });

  it('asks for input when it has none', async () => {
    box = mount('<csai-molecule></csai-molecule>');
    const el = box.querySelector('csai-molecule')!;
    const err = await waitFor(() => part(el, 'error'), 'the error');
    expect(err.textContent).to.equal('请提供 SMILES、Molfile 或分子编号');
    expect(calls).to.have.length(0);
  });

  it('copies the SMILES', async () => {
    const copied: string[] = [];
    const original = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (s: string) => void copied.push(s) } });
    try {
      box = mount('<csai-molecule smiles="OCC"></csai-molecule>');
      const el = box.querySelector('csai-molecule')!;
      const button = await waitFor(() => part(el, 'copy'), 'the copy button');
      expect(button.textContent).to.equal('复制SMILES');
      button.click();
      await waitFor(() => part(el, 'copy')!.textContent === '已复制', 'the copied state');
      expect(copied).to.deep.equal(['OCC']);
    } finally {
      delete (navigator as { clipboard?: unknown }).clipboard;
      if (original) Object.defineProperty(Navigator.prototype, 'clipboard', original);
    }
  });

  it('has no serious or critical axe violations', async () => {
    box = mount('<csai-molecule smiles="OCC" caption></csai-molecule><csai-molecule smiles="C1CC"></csai-molecule>');
    const els = [...box.querySelectorAll('csai-molecule')];
    await waitFor(() => part(els[0]!, 'copy') && part(els[1]!, 'error'), 'both states');
    for (const el of els) {
      const results = await axe.run(el, { resultTypes: ['violations'] });
      const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => v.id)).to.deep.equal([]);
    }
  });
});
