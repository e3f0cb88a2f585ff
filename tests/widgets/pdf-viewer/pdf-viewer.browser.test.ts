// <csai-pdf-viewer> against real PDFs from Debian packages (`node scripts/fetch-test-docs.mjs`
// puts them in .tmp/test-docs, which the test server serves), with the CSAI API faked.
import axe from 'axe-core';
import '../../../src/widgets/pdf-viewer/pdf-viewer.element';
import { openPdf } from '../../../src/widgets/pdf-viewer/pdfjs';
import { elementPage, expect, failOnConsoleErrors, realFetch, part, waitFor } from '../harness';
import { fail, ok as okJson, type Route } from '../fake-api';

const DOCS = '/.tmp/test-docs';

const waitLong = <T>(check: () => T | undefined | null | false, what: string) => waitFor(check, what, 15_000);

const docRecord = (docId: string, type: 1 | 3, title: string) => ({
  docId, title, type, parseStatus: 2, parse_progress: 100, progress_texts: [], img_id: null,
  download_url: `/api/v1/knowledge_base/download/${docId}`, download_key: docId, folder_id: 'f1', size: 1, page_count: null,
  owner_id: 'u1', owner_name: '张三', is_owner: true, created_at: '2026-01-01T00:00:00Z',
});

/** The API with one PDF document (d1 → file), one image document (img1) and their markdown. */
function routes(file: string): Route[] {
  return [
    ['GET', /^\/knowledge_base\/doc\/[^/]+$/, () => fail(404, '文档不存在', 'not_found')],
    ['GET', '/knowledge_base/doc/d1', () => okJson(docRecord('d1', 1, '论文.pdf'))],
    ['GET', '/knowledge_base/doc/img1', () => okJson(docRecord('img1', 3, '结构图.png'))],
    ['GET', '/knowledge_base/download/d1', () => realFetch(`${DOCS}/${file}`)],
    ['GET', '/knowledge_base/doc_markdown/d1', () => okJson({ docId: 'd1', markdown: '<!-- page 1 -->\n# 第一章\n\n正文 **加粗** <script>alert(1)</script> [链接](javascript:alert(1))\n\n<!-- page 7 -->\n\n第七页 <!-- 解析器的注释 -->的文字' })],
    ['GET', '/knowledge_base/get_img/img1', async () => {
      const bytes = new Uint8Array(await (await realFetch(`${DOCS}/zhlipsum-page2.png`)).arrayBuffer());
      let bin = '';
      for (const b of bytes) bin += String.fromCharCode(b);
      return okJson({ docId: 'img1', img_base64: btoa(bin), mime: 'image/png' });
    }],
    ['GET', '/knowledge_base/download/img1', () => realFetch(`${DOCS}/zhlipsum-page2.png`)],
  ];
}

/** Types into a React-controlled field (through the native setter React listens to) and submits its form. */
function submit(input: HTMLInputElement, text: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.form!.requestSubmit();
}

const pages = (el: Element) => [...(el.shadowRoot?.querySelectorAll<HTMLElement>('[part~="page"]') ?? [])];
const pageEl = (el: Element, n: number) => el.shadowRoot?.querySelector<HTMLElement>(`[data-page-number="${n}"]`) ?? null;
/** The whole column of pages is laid out (no spacer stands for pages far from the start page). */
const columnComplete = (el: Element) => pages(el).length > 0 && !el.shadowRoot?.querySelector('[data-spacer]');
const visible = (scroller: HTMLElement, target: HTMLElement) => {
  const a = scroller.getBoundingClientRect();
  const b = target.getBoundingClientRect();
  return b.bottom > a.top && b.top < a.bottom;
};

describe('<csai-pdf-viewer>', () => {
  failOnConsoleErrors();
  const page = elementPage();
  const open = async (attrs: string, file = 'fduthesis-en.pdf') => {
    const { box, api } = page.show(routes(file), `<csai-pdf-viewer style="display:block;width:900px;height:700px" ${attrs}></csai-pdf-viewer>`);
    const el = box.querySelector('csai-pdf-viewer')!;
    return { el, urls: api.urls };
  };
  const openPdfDoc = async (attrs = 'doc-id="d1"', file?: string) => {
    const r = await open(attrs, file);
    await waitLong(() => pages(r.el).length > 0 && pageEl(r.el, 1)?.dataset.rendered === 'true' || (r.el.shadowRoot?.querySelector('[data-rendered="true"]') ?? false), 'a rendered page');
    await waitLong(() => columnComplete(r.el), 'every page laid out');
    return r;
  };

  it('renders a real multi-page PDF lazily, with a selectable text layer', async () => {
    const { el } = await openPdfDoc();
    expect(pages(el)).to.have.length(14);
    expect(part(el, 'page-count')!.textContent).to.equal('/ 14');
    const first = pageEl(el, 1)!;
    const canvas = first.querySelector('canvas')!;
    expect(canvas.width).to.be.greaterThan(100);
    await waitLong(() => (first.querySelector('.textLayer')?.textContent ?? '').includes('fduthesis'), 'the text layer of page 1');
    // Far pages stay placeholders of the right size (no canvas bitmap, nor a text layer).
    const last = pageEl(el, 14)!;
    expect(last.dataset.rendered).to.equal('false');
    expect(last.querySelector('canvas')?.width ?? 0).to.equal(0);
    expect(last.querySelector('.textLayer')).to.equal(null);
    expect(Math.round(last.getBoundingClientRect().width)).to.equal(Math.round(first.getBoundingClientRect().width));
  });

  it('asks for the record and the bytes once each (the element starts them, the view takes them over)', async () => {
    const { el, urls } = await openPdfDoc();
    expect(pages(el)).to.have.length(14);
    expect(urls().filter((u) => u.endsWith('/api/v1/knowledge_base/doc/d1'))).to.have.length(1);
    expect(urls().filter((u) => u.endsWith('/api/v1/knowledge_base/download/d1'))).to.have.length(1);
  });

  it('reaches page 7 from the page field, the buttons and the keyboard', async () => {
    const { el } = await openPdfDoc();
    const input = part(el, 'page-input') as HTMLInputElement;
    submit(input, '7');
    const scroller = part(el, 'pages')!;
    const seven = pageEl(el, 7)!;
    await waitLong(() => seven.dataset.rendered === 'true', 'page 7 rendered');
    expect(visible(scroller, seven)).to.equal(true);
    await waitLong(() => (seven.querySelector('.textLayer')?.textContent ?? '').includes('User’s guide'), 'the text of page 7');
    part(el, 'next')!.click();
    await waitLong(() => (part(el, 'page-input') as HTMLInputElement).value === '8', 'page 8');
    scroller.focus();
    scroller.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, composed: true }));
    await waitLong(() => (part(el, 'page-input') as HTMLInputElement).value === '7', 'back to page 7 by key');
    // Out-of-range input is clamped to the last page.
    submit(input, '999');
    await waitLong(() => (part(el, 'page-input') as HTMLInputElement).value === '14', 'the last page');
  });

  it('opens at the page its page attribute names, and renders that page first', async () => {
    const { el } = await open('doc-id="d1" page="9"');
    const nine = await waitLong(() => pageEl(el, 9)?.dataset.rendered === 'true' && pageEl(el, 9), 'page 9 rendered');
    expect(visible(part(el, 'pages')!, nine)).to.equal(true);
    // The pages far from it join the column once page 9 is drawn, without moving it.
    const top = nine.getBoundingClientRect().top;
    await waitLong(() => columnComplete(el), 'every page laid out');
    expect(pages(el)).to.have.length(14);
    expect(Math.round(nine.getBoundingClientRect().top)).to.equal(Math.round(top));
    expect((part(el, 'page-input') as HTMLInputElement).value).to.equal('9');
    expect(pageEl(el, 1)!.dataset.rendered).to.equal('false');
  });

  it('jumps to a far page as soon as the first page shows (before every page is laid out)', async () => {
    const { el } = await open('doc-id="d1"');
    await waitLong(() => pageEl(el, 1)?.dataset.rendered === 'true', 'page 1 rendered');
    submit(part(el, 'page-input') as HTMLInputElement, '12');
    const twelve = await waitLong(() => pageEl(el, 12)?.dataset.rendered === 'true' && pageEl(el, 12), 'page 12 rendered');
    expect(visible(part(el, 'pages')!, twelve)).to.equal(true);
    expect((part(el, 'page-input') as HTMLInputElement).value).to.equal('12');
    expect(pages(el)).to.have.length(14);
  });

  it('goes to the page a later page attribute names', async () => {
    const { el } = await openPdfDoc();
    el.setAttribute('page', '11');
    const eleven = await waitLong(() => pageEl(el, 11)?.dataset.rendered === 'true' && pageEl(el, 11), 'page 11 rendered');
    expect(visible(part(el, 'pages')!, eleven)).to.equal(true);
    await waitLong(() => (part(el, 'page-input') as HTMLInputElement).value === '11', 'the page field at 11');
  });

  it('finds a term, steps through the matches and marks the current one on the page', async () => {
    const { el } = await openPdfDoc();
    const input = part(el, 'search-input') as HTMLInputElement;
    submit(input, 'bibliography');
    const status = await waitLong(() => /共 \d+ 个/.test(part(el, 'search-status')!.textContent ?? '') && part(el, 'search-status')!, 'the match count');
    const total = Number(/共 (\d+) 个/.exec(status.textContent ?? '')![1]);
    expect(total).to.be.greaterThan(1);
    const mark = await waitLong(() => el.shadowRoot!.querySelector<HTMLElement>('[data-current="true"]'), 'the current match mark');
    const page = mark.closest<HTMLElement>('[data-page-number]')!;
    // The mark covers text of the match on that page.
    const spans = [...page.querySelectorAll('.textLayer span')].filter((s) => /bibliography/i.test(s.textContent ?? ''));
    expect(spans.length).to.be.greaterThan(0);
    const m = mark.getBoundingClientRect();
    expect(spans.some((s) => {
      const r = s.getBoundingClientRect();
      return m.left >= r.left - 1 && m.right <= r.right + 1 && Math.abs(m.top - r.top) < r.height;
    })).to.equal(true);
    expect(visible(part(el, 'pages')!, mark)).to.equal(true);
    part(el, 'search-next')!.click();
    await waitLong(() => (part(el, 'search-status')!.textContent ?? '').startsWith('第 2 个'), 'the second match');
    submit(input, 'zzzz-not-in-the-pdf');
    await waitLong(() => part(el, 'search-status')!.textContent === '没有找到匹配内容', 'no matches');
  });

  it('outlines a cited box on page 7 where the viewport transform puts it', async () => {
    // The cited passage: the box of a text run of page 7, in PDF points.
    const bytes = new Uint8Array(await (await realFetch(`${DOCS}/fduthesis-en.pdf`)).arrayBuffer());
    const doc = await openPdf(bytes);
    const p7 = await doc.getPage(7);
    const item = (await p7.getTextContent()).items.find((i) => 'str' in i && i.str.length > 20);
    if (!item || !('str' in item)) throw new Error('no text run on page 7');
    const [x, y] = [item.transform[4] as number, item.transform[5] as number];
    const bbox = [x, y, x + item.width, y + item.height];
    const { el } = await openPdfDoc(`doc-id="d1" page="7" highlight="${bbox.join(',')}"`);
    const cite = await waitLong(() => part(el, 'citation'), 'the citation box');
    const seven = pageEl(el, 7)!;
    expect(cite.parentElement).to.equal(seven);
    const scale = seven.getBoundingClientRect().width / p7.getViewport({ scale: 1 }).width;
    const [a, b, c, d] = p7.getViewport({ scale }).convertToViewportRectangle(bbox) as [number, number, number, number];
    const pr = seven.getBoundingClientRect();
    const cr = cite.getBoundingClientRect();
    expect(cr.left - pr.left).to.be.closeTo(Math.min(a, c), 1);
    expect(cr.top - pr.top).to.be.closeTo(Math.min(b, d), 1);
    expect(cr.width).to.be.closeTo(Math.abs(c - a), 1);
    expect(cr.height).to.be.closeTo(Math.abs(d - b), 1);
    await waitLong(() => visible(part(el, 'pages')!, cite), 'the cited box scrolled into view');
    expect(getComputedStyle(cite).outlineStyle).to.equal('solid');
    // The run's text lies inside the box.
    await waitLong(() => seven.dataset.rendered === 'true', 'page 7 rendered');
    await doc.destroy();
  });

  it('shows the outline and the sanitised parsed markdown', async () => {
    const { el } = await openPdfDoc();
    const toggle = await waitLong(() => part(el, 'outline-toggle'), 'the outline button');
    toggle.click();
    const nav = await waitLong(() => part(el, 'outline'), 'the outline');
    expect(nav.querySelectorAll('button').length).to.be.greaterThan(3);
    part(el, 'markdown-toggle')!.click();
    const md = await waitLong(() => part(el, 'markdown')?.querySelector('h1') && part(el, 'markdown'), 'the markdown');
    expect(md.querySelector('h1')!.textContent).to.equal('第一章');
    expect(md.querySelector('strong')!.textContent).to.equal('加粗');
    expect(md.querySelector('script')).to.equal(null);
    expect([...md.querySelectorAll('a')].some((a) => /^javascript:/i.test(a.getAttribute('href') ?? ''))).to.equal(false);
    // The parser's page markers are page labels, never comments shown as text.
    expect(md.textContent).not.to.contain('<!--');
    expect(md.textContent).not.to.contain('-->');
    expect(md.textContent).to.contain('第七页 的文字');
    const labels = [...md.querySelectorAll<HTMLButtonElement>('button[data-page]')];
    expect(labels.map((b) => b.textContent)).to.deep.equal(['第 1 页', '第 7 页']);
    // A label takes the pages there.
    labels[1]!.click();
    await waitLong(() => (part(el, 'page-input') as HTMLInputElement).value === '7', 'page 7 from its label');
    const seven = await waitLong(() => pageEl(el, 7)?.dataset.rendered === 'true' && pageEl(el, 7), 'page 7 rendered');
    expect(visible(part(el, 'pages')!, seven)).to.equal(true);
  });

  it('fits its toolbar in two rows on a phone, the secondary controls as named icons', async () => {
    const { el } = await openPdfDoc();
    el.setAttribute('style', 'display:block;width:375px;height:700px');
    const toolbar = part(el, 'toolbar')!;
    const button = part(el, 'prev')!;
    // Two rows of buttons, the gap between them and the toolbar's padding and border.
    const twoRows = () => 2 * button.getBoundingClientRect().height + 8 + 16 + 2;
    await waitLong(() => part(el, 'outline-toggle'), 'the outline button');
    await waitLong(() => toolbar.getBoundingClientRect().height <= twoRows() && part(el, 'search-input')!.getBoundingClientRect().width === 0, 'a toolbar of two rows');
    // Page navigation and zoom stay in sight.
    for (const name of ['prev', 'page-input', 'next', 'zoom-out', 'zoom-level', 'zoom-in']) expect(part(el, name)!.getBoundingClientRect().width, name).to.be.greaterThan(0);
    // The secondary controls: icons with a name and a tooltip.
    for (const [name, label] of [['outline-toggle', '目录'], ['markdown-toggle', '解析结果'], ['download', '下载'], ['search-toggle', '在文档中搜索'], ['fit-width', '适合宽度']] as const) {
      const b = part(el, name)!;
      expect(b.getAttribute('aria-label'), name).to.equal(label);
      expect(b.title, name).not.to.equal('');
      expect(b.getBoundingClientRect().width, name).to.be.lessThan(48);
    }
    // Search opens from its button, on a row of its own, and closes with Escape.
    part(el, 'search-toggle')!.click();
    const input = part(el, 'search-input') as HTMLInputElement;
    await waitLong(() => input.getBoundingClientRect().width > 150, 'the search field');
    submit(input, 'bibliography');
    await waitLong(() => /共 \d+ 个/.test(part(el, 'search-status')!.textContent ?? ''), 'the matches');
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await waitLong(() => input.getBoundingClientRect().width === 0 && toolbar.getBoundingClientRect().height <= twoRows(), 'the search closed');
    // Wide, the words are back and the search field is always there.
    el.setAttribute('style', 'display:block;width:1400px;height:700px');
    await waitLong(() => input.getBoundingClientRect().width > 100 && part(el, 'markdown-toggle')!.textContent === '解析结果', 'the wide toolbar');
    expect(part(el, 'search-toggle')!.getBoundingClientRect().width).to.equal(0);
  });

  it('zooms in, out and back to the width', async () => {
    const { el } = await openPdfDoc();
    const width = () => pageEl(el, 1)!.getBoundingClientRect().width;
    const fit = width();
    part(el, 'zoom-in')!.click();
    await waitLong(() => width() > fit + 1, 'a wider page');
    part(el, 'fit-page')!.click();
    await waitLong(() => width() < fit - 1, 'the whole page in view');
    part(el, 'fit-width')!.click();
    await waitLong(() => Math.abs(width() - fit) < 1, 'the width again');
  });

  it('renders a Chinese PDF with its CJK fonts', async () => {
    const { el } = await openPdfDoc('doc-id="d1"', 'zhlipsum.pdf');
    const first = pageEl(el, 1)!;
    await waitLong(() => /[\u4e00-\u9fff]/.test(first.querySelector('.textLayer')?.textContent ?? ''), 'Chinese text');
  });

  it('downloads the file through the API as a blob', async () => {
    const { el, urls } = await openPdfDoc();
    const clicked: HTMLAnchorElement[] = [];
    const originalClick = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(this);
    };
    try {
      part(el, 'download')!.click();
      const a = await waitLong(() => clicked[0], 'the download link');
      expect(a.download).to.equal('论文.pdf');
      expect(a.href.startsWith('blob:')).to.equal(true);
      const blob = await (await realFetch(a.href)).blob();
      expect(blob.size).to.be.greaterThan(100_000);
      expect(urls().filter((u) => u.endsWith('/api/v1/knowledge_base/download/d1'))).to.have.length(2);
    } finally {
      HTMLAnchorElement.prototype.click = originalClick;
    }
  });

  it('shows an image document with zoom', async () => {
    const { el } = await open('doc-id="img1"');
    const img = await waitLong(() => (part(el, 'image') as HTMLImageElement | null)?.complete && (part(el, 'image') as HTMLImageElement), 'the image');
    expect(img.naturalWidth).to.be.greaterThan(100);
    expect(img.alt).to.equal('结构图.png（图片文档）');
    const before = img.getBoundingClientRect().width;
    part(el, 'zoom-in')!.click();
    part(el, 'zoom-in')!.click();
    await waitLong(() => img.getBoundingClientRect().width > before * 1.05 || img.getBoundingClientRect().width !== before, 'a zoomed image');
    expect(part(el, 'page-input')).to.equal(null);
  });

  it('says in Chinese when the document cannot be loaded', async () => {
    const errors: string[] = [];
    const { el } = await open('doc-id="missing"');
    el.addEventListener('csai-error', (e) => errors.push(e.detail.message));
    const err = await waitLong(() => part(el, 'error'), 'the error');
    expect(err.textContent).to.equal('文档加载失败：文档不存在');
    expect(errors).to.deep.equal(['文档不存在']);
  });

  it('says so when no document is given', async () => {
    const { el } = await open('');
    const err = await waitLong(() => part(el, 'error'), 'the error');
    expect(err.textContent).to.equal('请提供要查看的文档');
  });

  it('has no serious or critical axe violations', async () => {
    const { el } = await openPdfDoc();
    const results = await axe.run(el, { resultTypes: ['violations'] });
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).to.deep.equal([]);
  });
});
