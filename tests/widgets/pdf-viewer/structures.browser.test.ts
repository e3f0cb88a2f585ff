// <csai-pdf-viewer> with the structures recognised in a document's drawings: boxes
// on their pages where the viewport transform puts them, the toolbar toggle, the review panel
// (drawing crop, molecule, label, confidence, method) and the correction's PUT, with the server's
// Chinese message for a structure it refuses. A real PDF (Debian's fduthesis), the CSAI API faked.
import '../../../src/widgets/pdf-viewer/pdf-viewer.element';
import { openPdf } from '../../../src/widgets/pdf-viewer/pdfjs';
import { methodText } from '../../../src/widgets/pdf-viewer/StructurePanel';
import { elementPage, expect, failOnConsoleErrors, realFetch, part, waitFor } from '../harness';
import { fail, ok as okJson, type Route } from '../fake-api';

const DOCS = '/.tmp/test-docs';

const waitLong = <T>(check: () => T | undefined | null | false, what: string) => waitFor(check, what, 40_000);

const record = {
  docId: 'd1', title: '论文.pdf', type: 1, parseStatus: 2, parse_progress: 100, progress_texts: [], img_id: null,
  download_url: '/api/v1/knowledge_base/download/d1', download_key: 'd1', folder_id: 'f1', size: 1, page_count: null,
  owner_id: 'u1', owner_name: '张三', is_owner: true, created_at: '2026-01-01T00:00:00Z',
};
type Structure = {
  id: number; page: number; bbox: [number, number, number, number]; smiles: string; recognized_smiles: string; confidence: number; method: string;
  label: string | null; corrected_by: string | null; corrected_by_name: string | null; corrected_at: string | null;
};
const structure = (id: number, page: number, bbox: Structure['bbox'], smiles: string, label: string | null): Structure => ({
  id, page, bbox, smiles, recognized_smiles: smiles, confidence: 0.83, method: 'osra region 300 dpi, repaired (C=O read as charged O), 2 readings agree', label, corrected_by: null, corrected_by_name: null, corrected_at: null,
});

/**
 * An image document's picture: 800 × 600 white pixels with a black ring (the "drawing") whose box,
 * in the image's pixels with the origin bottom-left, is RING.
 */
const RING: [number, number, number, number] = [100, 300, 300, 500];
const picture = (() => {
  const canvas = document.createElement('canvas');
  canvas.width = 800;
  canvas.height = 600;
  const g = canvas.getContext('2d')!;
  g.fillStyle = '#fff';
  g.fillRect(0, 0, 800, 600);
  g.strokeStyle = '#000';
  g.lineWidth = 8;
  g.beginPath();
  g.arc(200, 200, 90, 0, 2 * Math.PI); // top-down centre (200, 200): RING bottom-up
  g.stroke();
  return canvas.toDataURL('image/png');
})();

/** The routes of document d1 (fduthesis-en.pdf), image document d2 (the picture above) and their structures. */
function structuresRoutes(structures: Structure[]): Route[] {
  return [
    ['GET', '/knowledge_base/doc/d1', () => okJson(record)],
    ['GET', '/knowledge_base/download/d1', () => realFetch(`${DOCS}/fduthesis-en.pdf`)],
    ['GET', '/knowledge_base/doc/d1/structures', () => okJson({ structures })],
    ['GET', '/knowledge_base/doc/d2', () => okJson({ ...record, docId: 'd2', title: '扫描.png', type: 3, download_url: '/api/v1/knowledge_base/download/d2', download_key: 'd2' })],
    ['GET', '/knowledge_base/get_img/d2', () => okJson({ docId: 'd2', mime: 'image/png', img_base64: picture.split(',')[1] })],
    ['GET', '/knowledge_base/doc/d2/structures', () => okJson({ structures })],
    ['PUT', /^\/knowledge_base\/doc\/d1\/structures\/(\d+)$/, (req, [id]) => {
      const smiles = (req.body as { smiles?: string }).smiles ?? '';
      if (!/^[A-Za-z0-9()=#@+\-[\]\\/]+$/.test(smiles) || smiles.includes('(((')) return fail(400, `无法解析 SMILES：${smiles}`, 'invalid_smiles');
      const i = structures.findIndex((s) => s.id === Number(id));
      structures[i] = { ...structures[i]!, smiles, corrected_by: 'u2', corrected_by_name: '李化学', corrected_at: '2026-11-29T12:00:00Z' };
      return okJson(structures[i], '结构已更正');
    }],
    ['POST', '/mol/draw_svg', (req) =>
      okJson({ svg: '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="180"><path d="M10 10L50 50"/><path d="M50 50L90 10"/><path d="M90 10L130 50"/><path d="M130 50L170 10"/></svg>', formula: 'C2H6O', canonical_smiles: (req.body as { smiles?: string }).smiles ?? '', num_atoms: 3, highlighted_atoms: [], highlighted_bonds: [] })],
  ];
}

const pageEl = (el: Element, n: number) => el.shadowRoot?.querySelector<HTMLElement>(`[data-page-number="${n}"]`) ?? null;
const boxes = (el: Element) => [...(el.shadowRoot?.querySelectorAll<HTMLElement>('[part~="structure-box"]') ?? [])];

/** Types into a React-controlled field (through the native setter React listens to) and submits its form. */
function submit(input: HTMLInputElement, text: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.form!.requestSubmit();
}

describe('<csai-pdf-viewer> recognised structures', function (this: { timeout(ms: number): void }) {
  this.timeout(120_000);
  failOnConsoleErrors();
  const page = elementPage();
  const A: Structure['bbox'] = [72, 380, 540, 700];
  const open = async (attrs: string, structures = [structure(11, 7, A, 'CC(=O)Oc1ccccc1C(=O)O', '12a'), structure(12, 7, [72, 100, 300, 300], 'c1ccccc1', null), structure(13, 8, [80, 80, 200, 200], 'CCO', '7')]) => {
    const { box, api } = page.show(structuresRoutes(structures), `<csai-pdf-viewer style="display:block;width:1100px;height:700px" ${attrs}></csai-pdf-viewer>`);
    const el = box.querySelector('csai-pdf-viewer')!;
    return { el, calls: api.calls, structures };
  };

  it('draws each structure as a box on its own page where the viewport transform puts it, and the toggle hides them', async () => {
    const { el } = await open('doc-id="d1" page="7"');
    const two = await waitLong(() => pageEl(el, 7)?.dataset.rendered === 'true' && pageEl(el, 7), 'page 7 rendered');
    await waitLong(() => two.querySelectorAll('[part~="structure-box"]').length === 2, 'two boxes on page 7');
    const first = two.querySelector<HTMLElement>('[data-structure-id="11"]')!;
    expect(first.getAttribute('aria-label')).to.equal('识别的化学结构：化合物 12a，点击核对');
    // Where pdf.js puts the box (points, origin bottom-left) on page 7.
    const bytes = new Uint8Array(await (await realFetch(`${DOCS}/fduthesis-en.pdf`)).arrayBuffer());
    const doc = await openPdf(bytes);
    const p2 = await doc.getPage(7);
    const scale = two.getBoundingClientRect().width / p2.getViewport({ scale: 1 }).width;
    const [a, b, c, d] = p2.getViewport({ scale }).convertToViewportRectangle(A) as [number, number, number, number];
    const pr = two.getBoundingClientRect();
    const br = first.getBoundingClientRect();
    expect(br.left - pr.left).to.be.closeTo(Math.min(a, c), 1);
    expect(br.top - pr.top).to.be.closeTo(Math.min(b, d), 1);
    expect(br.width).to.be.closeTo(Math.abs(c - a), 1);
    expect(br.height).to.be.closeTo(Math.abs(d - b), 1);
    await doc.destroy();
    // No box on page 6; the page-8 structure is on page 8 once it renders.
    expect(pageEl(el, 6)?.querySelectorAll('[part~="structure-box"]').length ?? 0).to.equal(0);
    pageEl(el, 8)!.scrollIntoView();
    const three = await waitLong(() => pageEl(el, 8)?.dataset.rendered === 'true' && pageEl(el, 8), 'page 8 rendered');
    expect(three.querySelectorAll('[part~="structure-box"]').length).to.equal(1);
    await waitLong(() => three.querySelector('[data-structure-id="13"]'), 'the box on page 8');
    // The toggle: pressed, names the count; off hides every box, on shows them again.
    const toggle = part(el, 'structures-toggle')!;
    expect(toggle.getAttribute('aria-pressed')).to.equal('true');
    expect(toggle.getAttribute('aria-label')).to.equal('识别的结构（3）');
    toggle.click();
    await waitLong(() => boxes(el).length === 0, 'boxes hidden');
    expect(toggle.getAttribute('aria-pressed')).to.equal('false');
    toggle.click();
    await waitLong(() => boxes(el).length === 3, 'boxes shown again');
  });

  it('opens the review panel on a click: the drawing cropped from its page beside the molecule, label, confidence and method', async () => {
    const { el } = await open('doc-id="d1" page="7"');
    const first = await waitLong(() => el.shadowRoot?.querySelector<HTMLElement>('[data-structure-id="11"]'), 'the box');
    first.click();
    const panel = await waitLong(() => part(el, 'structure-panel'), 'the review panel');
    expect(first.getAttribute('aria-pressed')).to.equal('true');
    expect(panel.querySelector('h2')!.textContent).to.equal('化合物 12a');
    expect(part(el, 'structure-label')!.textContent).to.equal('12a');
    expect(part(el, 'structure-confidence')!.textContent).to.equal('83%');
    // How it was read, in the reader's language (the server's record in the tooltip).
    expect(part(el, 'structure-method')!.textContent).to.equal('OSRA 识别结构图区域（300 dpi）；已修正常见误读（把 C=O 读成了带负电的 O）；2 次识别结果一致');
    expect(part(el, 'structure-method')!.title).to.equal('osra region 300 dpi, repaired (C=O read as charged O), 2 readings agree');
    expect(part(el, 'structure-smiles')!.textContent).to.equal('CC(=O)Oc1ccccc1C(=O)O');
    // The drawing: page 7 rendered into a canvas the box's shape (plus its margin), not blank.
    const crop = part(el, 'structure-drawing') as HTMLCanvasElement;
    await waitLong(() => crop.dataset.rendered === 'true', 'the crop drawn');
    // The margin: 12 points on each side, room for a label just outside the box.
    expect(crop.width / crop.height).to.be.closeTo((468 + 24) / (320 + 24), 0.007);
    const pixels = crop.getContext('2d')!.getImageData(0, 0, crop.width, crop.height).data;
    let ink = 0;
    for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! < 200) ink++;
    expect(ink).to.be.greaterThan(50);
    // The molecule: <csai-molecule> with the structure's SMILES, drawn from the server's SVG.
    const molecule = part(el, 'structure-molecule')!;
    expect(molecule.getAttribute('smiles')).to.equal('CC(=O)Oc1ccccc1C(=O)O');
    await waitLong(() => molecule.shadowRoot?.querySelector('svg'), 'the molecule drawn');
    // Who may correct: every reader (as the server allows); the editor button is there.
    expect(panel.textContent).to.contain('能阅读此文档的用户都可以更正');
    expect(part(el, 'structure-edit')).to.not.equal(null);
    part(el, 'structure-close')!.click();
    await waitLong(() => !part(el, 'structure-panel'), 'the panel closed');
  });

  it('saves a correction with PUT, shows who made it, and shows the server message for a structure it refuses', async () => {
    const { el, calls } = await open('doc-id="d1" page="7"');
    (await waitLong(() => el.shadowRoot?.querySelector<HTMLElement>('[data-structure-id="12"]'), 'the box')).click();
    await waitLong(() => part(el, 'structure-panel'), 'the review panel');
    const input = part(el, 'structure-smiles-input') as HTMLInputElement;
    submit(input, 'C1CC(((');
    const error = await waitLong(() => part(el, 'structure-error'), 'the error');
    expect(error.textContent).to.equal('无法解析 SMILES：C1CC(((');
    expect(error.getAttribute('role')).to.equal('alert');
    expect(part(el, 'structure-corrected-by')).to.equal(null);
    submit(input, 'c1ccncc1');
    await waitLong(() => part(el, 'structure-saved'), 'saved');
    const put = calls.filter((c) => c.method === 'PUT');
    expect(put.map((c) => [c.target, c.body])).to.deep.equal([
      ['/api/v1/knowledge_base/doc/d1/structures/12', { smiles: 'C1CC(((' }],
      ['/api/v1/knowledge_base/doc/d1/structures/12', { smiles: 'c1ccncc1' }],
    ]);
    expect(part(el, 'structure-error')).to.equal(null);
    expect(part(el, 'structure-smiles')!.textContent).to.equal('c1ccncc1');
    expect(part(el, 'structure-recognised')!.textContent).to.equal('c1ccccc1');
    expect(part(el, 'structure-corrected-by')!.textContent).to.contain('已由 李化学 于');
    expect(part(el, 'structure-molecule')!.getAttribute('smiles')).to.equal('c1ccncc1');
    // The box marks the correction.
    await waitLong(() => el.shadowRoot!.querySelector<HTMLElement>('[data-structure-id="12"]')!.dataset.corrected === 'true', 'the box marked corrected');
  });

  it('opens the chemical editor at the structure and saves what it returns', async () => {
    const { el, calls } = await open('doc-id="d1" page="7" lang="zh"');
    (await waitLong(() => el.shadowRoot?.querySelector<HTMLElement>('[data-structure-id="11"]'), 'the box')).click();
    await waitLong(() => part(el, 'structure-panel'), 'the review panel');
    part(el, 'structure-edit')!.click();
    // <csai-chem-editor> inside the viewer, opened at the structure, with the viewer's language.
    const editor = await waitLong(() => el.shadowRoot?.querySelector('csai-chem-editor')?.hasAttribute('opened') && el.shadowRoot.querySelector('csai-chem-editor'), 'the editor opened');
    expect(editor.getAttribute('smiles')).to.equal('CC(=O)Oc1ccccc1C(=O)O');
    expect(editor.getAttribute('lang')).to.equal('zh');
    // What the editor returns (its event, as Ketcher's insert sends it) is saved.
    editor.dispatchEvent(new CustomEvent('csai-chem-smiles', { detail: { smiles: 'COC(=O)c1ccccc1OC(C)=O' }, bubbles: true, composed: true }));
    await waitLong(() => part(el, 'structure-saved'), 'saved');
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).to.deep.equal([{ smiles: 'COC(=O)c1ccccc1OC(C)=O' }]);
    expect(part(el, 'structure-smiles')!.textContent).to.equal('COC(=O)c1ccccc1OC(C)=O');
    editor.removeAttribute('opened');
  });

  it('opens a structure named by structure-id (a figure hit) with its box highlighted', async () => {
    const { el } = await open('doc-id="d1" page="8" highlight="80,80,200,200" structure-id="13"');
    const panel = await waitLong(() => part(el, 'structure-panel'), 'the review panel');
    expect(panel.querySelector('h2')!.textContent).to.equal('化合物 7');
    const three = await waitLong(() => pageEl(el, 8)?.dataset.rendered === 'true' && pageEl(el, 8), 'page 8 rendered');
    const selected = await waitLong(() => three.querySelector<HTMLElement>('[part~="structure-box-selected"]'), 'the selected box');
    expect(selected.dataset.structureId).to.equal('13');
    expect(three.querySelector('[part~="citation"]')).to.not.equal(null);
  });

  it('shows no toggle and no boxes when the document has no structures, or they cannot be listed', async () => {
    const { el, calls } = await open('doc-id="d1"', []);
    await waitLong(() => pageEl(el, 1)?.dataset.rendered === 'true', 'page 1 rendered');
    await waitLong(() => calls.some((c) => c.path.endsWith('/structures')), 'the structures asked for');
    expect(part(el, 'structures-toggle')).to.equal(null);
    expect(boxes(el)).to.have.length(0);
  });

  it('draws the structures of an image document over the picture and opens their review with the drawing cropped from it', async () => {
    const { el } = await open('doc-id="d2"', [structure(21, 1, RING, 'C1CCCCC1', '3')]);
    const img = await waitLong(() => {
      const i = part(el, 'image') as HTMLImageElement | null;
      return i?.complete && i.naturalWidth > 0 && i;
    }, 'the picture');
    const ring = await waitLong(() => el.shadowRoot?.querySelector<HTMLElement>('[data-structure-id="21"]'), 'the box over the picture');
    // Where the box is: the ring's pixels at the picture's shown scale.
    const k = img.getBoundingClientRect().width / 800;
    const ir = img.getBoundingClientRect();
    const br = ring.getBoundingClientRect();
    expect(br.left - ir.left).to.be.closeTo(100 * k, 1);
    expect(br.top - ir.top).to.be.closeTo((600 - 500) * k, 1);
    expect(br.width).to.be.closeTo(200 * k, 1);
    expect(br.height).to.be.closeTo(200 * k, 1);
    expect(part(el, 'structures-toggle')!.getAttribute('aria-label')).to.equal('识别的结构（1）');
    ring.click();
    await waitLong(() => part(el, 'structure-panel'), 'the review panel');
    expect(part(el, 'structure-smiles')!.textContent).to.equal('C1CCCCC1');
    // The crop: the ring's box of the picture (square), with ink in it.
    const crop = part(el, 'structure-drawing') as HTMLCanvasElement;
    await waitLong(() => crop.dataset.rendered === 'true', 'the crop drawn');
    expect(crop.width / crop.height).to.be.closeTo(1, 0.05);
    const pixels = crop.getContext('2d')!.getImageData(0, 0, crop.width, crop.height).data;
    let ink = 0;
    for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! < 100) ink++;
    expect(ink).to.be.greaterThan(crop.width * 2);
    // Zoomed in, the box follows the picture.
    const before = ir.width;
    part(el, 'zoom-in')!.click();
    await waitLong(() => {
      const shown = img.getBoundingClientRect().width;
      const now = el.shadowRoot!.querySelector<HTMLElement>('[data-structure-id="21"]')!.getBoundingClientRect();
      return Math.abs(shown - before) > 10 && Math.abs(now.width - (200 * shown) / 800) < 1;
    }, 'the box zoomed with the picture');
  });

  it("says how a structure was read from the server's record, and shows a record it does not know as it is", () => {
    const t = (key: string, o?: Record<string, unknown>) => `${key}${o ? JSON.stringify(o) : ''}`;
    expect(methodText(t, 'vector')).to.equal('method_vector');
    expect(methodText(t, 'osra page 200 dpi, 3 readings agree')).to.equal('method_osra_page{"dpi":"200"}method_agree{"count":3}');
    expect(methodText(t, 'osra region 300 dpi, repaired (radical filled with hydrogen)')).to.equal('method_osra_region{"dpi":"300"}method_repaired{"what":"repair_radical"}');
    expect(methodText(t, 'osra region 300 dpi, repaired (something new)')).to.equal('osra region 300 dpi, repaired (something new)');
    expect(methodText(t, 'osra region 300 dpi, repaired (crossed double bond read as an atom), repaired (benzene ring read with a double bond lost)')).to.equal(
      'method_osra_region{"dpi":"300"}method_repaired{"what":"repair_crossed"}method_repaired{"what":"repair_benzene"}',
    );
    // A nitrogen read with four bonds and no charge, charged again (recognize.ts, molfile.ts withChargedNitrogens).
    expect(methodText(t, 'osra region 300 dpi, repaired (N⁺ read without its charge)')).to.equal('method_osra_region{"dpi":"300"}method_repaired{"what":"repair_charged_nitrogen"}');
    // Atom labels read again: OSRA's element → the element read; an atom OSRA could not read (*) shows as '?'.
    expect(methodText(t, 'osra region 450 dpi, labels read again (*→N “HN”; I→Cl “c”), 2 readings agree')).to.equal(
      'method_osra_region{"dpi":"450"}method_relabelled{"changes":"?→Nlist_separatorI→Cl"}method_agree{"count":2}',
    );
    // A methyl's label OSRA read as two carbons: one carbon again.
    expect(methodText(t, 'osra region 300 dpi, labels read again (C=C→CH3 “H3C”; *→N “N”)')).to.equal('method_osra_region{"dpi":"300"}method_relabelled{"changes":"C=C→CH3list_separator?→N"}');
    expect(methodText(t, 'osra region 450 dpi, labels read again (nonsense)')).to.equal('osra region 450 dpi, labels read again (nonsense)');
    expect(methodText(t, 'imago 1.0')).to.equal('imago 1.0');
  });
});
