import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAGE_MARGIN, viewerModel, type ColumnLayout, type Opened, type OutlineNode, type ViewerDocument, type ViewerSource } from '../../src/core/viewer-model';
import type { KbDocument } from '../../src/contract/knowledge';

// The viewer model without a browser: a document of plain page texts and a column whose page
// boxes stand one after another at the model's scale, as the element lays them out.

const A4 = { width: 600, height: 800 };
const record = (type: number, title = '论文.pdf') => ({ docId: 'd1', title, type }) as KbDocument;

interface FakeDoc extends ViewerDocument {
  closed: number;
  textReads: number;
}

function fakeDocument(pages: string[][], outline: OutlineNode[] | null = null): FakeDoc {
  const doc: FakeDoc = {
    numPages: pages.length,
    closed: 0,
    textReads: 0,
    async pageText(n) {
      doc.textReads++;
      const items = pages[n - 1]!;
      return { items, eol: items.map(() => true) };
    },
    outline: async () => outline,
    destinationPage: async (dest) => (typeof dest === 'string' ? Number(dest.replace('p', '')) : null),
    close() {
      doc.closed++;
    },
  };
  return doc;
}

function source(opened: Opened<FakeDoc> | Error, extra: Partial<ViewerSource<FakeDoc>> = {}, info: KbDocument | null = record(1)): ViewerSource<FakeDoc> {
  return {
    async open(_signal, tell) {
      tell(info);
      if (opened instanceof Error) throw opened;
      return opened;
    },
    ...extra,
  };
}

/** The column as the element lays it out: every box of pages first…last at the model's scale, after the spacer. */
function column(model: ReturnType<typeof viewerModel<FakeDoc>>, clientHeight = 700): ColumnLayout & { scrolls: number[] } {
  const scrolls: number[] = [];
  let top = 0;
  return {
    scrolls,
    pageTop(n) {
      const c = model.$column.peek();
      if (!c || n < c.first || n > c.last) return null;
      const scale = model.$scale.peek();
      let y = c.before + PAGE_MARGIN;
      for (let k = c.first; k < n; k++) y += (model.$sizes.peek().get(k) ?? model.$firstSize.peek()).height * scale + PAGE_MARGIN;
      return y;
    },
    get scrollTop() {
      return top;
    },
    set scrollTop(v) {
      top = v;
      scrolls.push(v);
    },
    clientHeight,
    get complete() {
      const c = model.$column.peek();
      return !!c && c.first === 1 && c.last === model.$numPages.peek();
    },
  };
}

const failures: string[] = [];
const fail = (error: unknown, what: string) => {
  const message = `${what}: ${error instanceof Error ? error.message : String(error)}`;
  failures.push(message);
  return message;
};

const pagesOf = (n: number, text = (i: number) => [`第${i}页`, '正文']) => Array.from({ length: n }, (_, i) => text(i + 1));

async function openPdf(pages = pagesOf(50), start: { startPage?: number; highlight?: string } = {}, outline: OutlineNode[] | null = null) {
  const model = viewerModel<FakeDoc>({ fail }, start);
  const doc = fakeDocument(pages, outline);
  model.open(source({ state: 'pdf', document: doc, firstPage: A4 }));
  // Promise turns only (vi.waitFor would move fake timers on).
  for (let i = 0; i < 20 && model.$load.value.state !== 'pdf'; i++) await Promise.resolve();
  expect(model.$load.value.state).toBe('pdf');
  model.resized(632, 700);
  const layout = column(model);
  model.attach(layout);
  model.laidOut({ scale: model.$scale.value, width: 632 });
  return { model, doc, layout };
}

beforeEach(() => {
  failures.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('opening a document', () => {
  it('shows a PDF at its start page, with only the pages around it laid out until one is drawn', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { model, layout } = await openPdf(pagesOf(200), { startPage: 120 });
    expect(model.$record.value?.title).toBe('论文.pdf');
    expect(model.$page.value).toBe(120);
    expect(model.$pageInput.value).toBe('120');
    // Fit width: (632 - 32) / 600.
    expect(model.$scale.value).toBe(1);
    const c = model.$column.value!;
    expect(c.first).toBeLessThan(120);
    expect(c.last).toBeGreaterThan(120);
    expect(c.last - c.first).toBeLessThan(20);
    expect(c.before).toBe((c.first - 1) * (800 + PAGE_MARGIN));
    // The start page renders first; the others wait until the observers say they are near.
    expect([...model.$rendering.value]).toEqual([120]);
    // Laid out: the start page is scrolled to.
    expect(layout.scrollTop).toBe(layout.pageTop(120)! - 8);
    model.rendered(120, true);
    expect(model.$allPages.value).toBe(false);
    vi.advanceTimersByTime(0);
    expect(model.$allPages.value).toBe(true);
    expect(model.$column.value).toMatchObject({ first: 1, last: 200, before: 0, after: 0 });
  });

  it('lays the whole column out after 1.5 s even when no page is drawn, and reads the outline after 2 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const outline = [{ title: '第一章', dest: 'p3', items: [] }];
    const { model } = await openPdf(pagesOf(5), {}, outline);
    vi.advanceTimersByTime(1499);
    expect(model.$allPages.value).toBe(false);
    vi.advanceTimersByTime(1);
    expect(model.$allPages.value).toBe(true);
    expect(model.$outline.value).toEqual([]);
    vi.advanceTimersByTime(500);
    await vi.waitFor(() => expect(model.$outline.value).toEqual(outline));
    await model.goOutline('p3');
    expect(model.$page.value).toBe(3);
  });

  it('says why when the document cannot be shown', async () => {
    const model = viewerModel<FakeDoc>({ fail });
    model.open(null, '未指定文档');
    expect(model.$load.value).toEqual({ state: 'error', message: '未指定文档' });
    model.open(source(new Error('文档不存在')));
    await vi.waitFor(() => expect(model.$load.value).toEqual({ state: 'error', message: 'load_failed: 文档不存在' }));
    model.open(source({ state: 'other' }, {}, record(5, 'x.sdf')));
    await vi.waitFor(() => expect(model.$load.value).toEqual({ state: 'other' }));
    expect(model.$record.value?.title).toBe('x.sdf');
  });

  it('lets the previous document go when another opens, and ignores its late answer', async () => {
    const model = viewerModel<FakeDoc>({ fail });
    const first = fakeDocument(pagesOf(3));
    let release: () => void = () => {};
    const slow: ViewerSource<FakeDoc> = {
      open: () => new Promise((resolve) => (release = () => resolve({ state: 'pdf', document: first, firstPage: A4 }))),
    };
    model.open(slow);
    const second = fakeDocument(pagesOf(7));
    model.open(source({ state: 'pdf', document: second, firstPage: A4 }));
    await vi.waitFor(() => expect(model.$numPages.value).toBe(7));
    release();
    await vi.waitFor(() => expect(first.closed).toBe(1));
    expect(model.$document.value).toBe(second);
    model.close();
    expect(second.closed).toBe(1);
  });
});

describe('pages', () => {
  it('renders visible pages first, then the others near the view', async () => {
    const { model } = await openPdf(pagesOf(10));
    model.pagesSeen(new Map([[1, true], [2, true], [3, true]]), new Map([[1, true], [2, false], [3, false]]));
    expect([...model.$rendering.value]).toEqual([1]);
    model.rendered(1, true);
    expect([...model.$rendering.value].sort()).toEqual([1, 2, 3]);
    model.pagesSeen(new Map([[1, false]]), new Map([[1, false]]));
    expect(model.$rendering.value.has(1)).toBe(false);
  });

  it('goes to a page, lays the column out for one not yet there, and keeps it in place while sizes settle', async () => {
    const { model, layout } = await openPdf(pagesOf(100));
    model.goToPage(3);
    expect(model.$page.value).toBe(3);
    expect(layout.scrollTop).toBe(layout.pageTop(3)! - 8);
    model.goToPage(90);
    expect(model.$allPages.value).toBe(true);
    expect(model.$page.value).toBe(90);
    model.holdAnchor();
    expect(layout.scrollTop).toBe(layout.pageTop(90)! - 8);
    // Page 2 measured taller: page 90 moves down and the view follows it.
    model.pageSize(2, { width: 600, height: 1000 });
    model.holdAnchor();
    expect(layout.scrollTop).toBe(layout.pageTop(90)! - 8);
    // Scrolled by hand: the page number follows the view, and nothing pulls it back.
    model.dropAnchor();
    layout.scrollTop = layout.pageTop(40)! + 10;
    model.scrolled();
    expect(model.$page.value).toBe(40);
    model.pageSize(3, { width: 600, height: 1200 });
    const before = layout.scrollTop;
    model.holdAnchor();
    expect(layout.scrollTop).toBe(before);
  });

  it('takes a page typed in the field, and shows the current page again for anything else', async () => {
    const { model } = await openPdf(pagesOf(10));
    model.typePage('7');
    expect(model.$pageInput.value).toBe('7');
    model.submitPage('7');
    expect(model.$page.value).toBe(7);
    model.submitPage('第二页');
    expect(model.$pageInput.value).toBe('7');
    model.submitPage('99');
    expect(model.$page.value).toBe(10);
    model.typePage('3');
    model.leavePageInput();
    expect(model.$pageInput.value).toBe('10');
  });

  it('answers the keys of the viewer, not while typing in a field', async () => {
    const { model } = await openPdf(pagesOf(10));
    expect(model.key('ArrowRight', { ctrl: false, inField: false })).toBe('handled');
    expect(model.$page.value).toBe(2);
    expect(model.key('End', { ctrl: false, inField: false })).toBe('handled');
    expect(model.$page.value).toBe(10);
    expect(model.key('p', { ctrl: false, inField: false })).toBe('handled');
    expect(model.$page.value).toBe(9);
    expect(model.key('ArrowLeft', { ctrl: false, inField: true })).toBe(null);
    expect(model.key('x', { ctrl: false, inField: false })).toBe(null);
    expect(model.key('F', { ctrl: true, inField: true })).toBe('search');
    expect(model.$searchOpen.value).toBe(true);
    expect(model.key('+', { ctrl: false, inField: false })).toBe('handled');
    expect(model.$scale.value).toBe(1.1);
  });
});

describe('zoom', () => {
  it('fits the width or the page, and steps through the zoom levels', async () => {
    const { model } = await openPdf(pagesOf(3));
    expect(model.$fit.value).toBe('fit-width');
    model.fitPage();
    // min((632 - 32) / 600, (700 - 24) / 800)
    expect(model.$scale.value).toBe(0.845);
    expect(model.$zoomPercent.value).toBe(85);
    model.zoomIn();
    expect(model.$scale.value).toBe(0.9);
    expect(model.$fit.value).toBe(null);
    model.zoomOut();
    model.zoomOut();
    expect(model.$scale.value).toBe(0.67);
    model.fitWidth();
    expect(model.$scale.value).toBe(1);
  });

  it('keeps the same page in view when the scale changes', async () => {
    const { model, layout } = await openPdf(pagesOf(20));
    model.rendered(1, true);
    await vi.waitFor(() => expect(model.$allPages.value).toBe(true));
    model.dropAnchor();
    layout.scrollTop = layout.pageTop(12)! + 5;
    model.scrolled();
    model.zoomIn();
    model.laidOut({ scale: model.$scale.value, width: 632 });
    expect(model.$page.value).toBe(12);
    expect(layout.scrollTop).toBe(layout.pageTop(12)! - 8);
  });

  it('zooms an image document on its own scale', async () => {
    const model = viewerModel<FakeDoc>({ fail });
    model.open(source({ state: 'image', src: 'data:image/png;base64,AA==' }, {}, record(3, '结构图.png')));
    await vi.waitFor(() => expect(model.$load.value.state).toBe('image'));
    expect(model.$zoomPercent.value).toBe(100);
    model.zoomIn();
    expect(model.$imageScale.value).toBe(1.1);
    expect(model.$fit.value).toBe(null);
    model.fitWidth();
    expect(model.$imageScale.value).toBe('fit');
    expect(model.$zoom.value).toBe('fit-width');
  });
});

describe('search', () => {
  const pages = pagesOf(6, (i) => (i === 2 ? ['Kinase A ', 'binds'] : i === 5 ? ['kinase', ' A and kinase A'] : ['nothing here']));

  it('finds every match across pages, goes to each in turn and brings the current one into view', async () => {
    const { model, layout, doc } = await openPdf(pages);
    model.typeQuery('kinase  a');
    await model.search(1);
    expect(model.$search.value?.matches.map((m) => m.page)).toEqual([2, 5, 5]);
    expect(model.$page.value).toBe(2);
    expect(model.$matchesByPage.value.get(5)).toHaveLength(2);
    // The page reports where the match is: it is brought to a third of the view, once.
    model.focusRect(2, { left: 10, top: 300, width: 50, height: 12 });
    expect(layout.scrollTop).toBe(layout.pageTop(2)! + 300 - 700 / 3);
    const scrolled = layout.scrolls.length;
    model.focusRect(2, { left: 10, top: 300, width: 50, height: 12 });
    expect(layout.scrolls.length).toBe(scrolled);
    await model.search(1);
    await model.search(1);
    expect(model.$search.value?.index).toBe(2);
    expect(model.$currentMatch.value?.page).toBe(5);
    await model.search(1);
    expect(model.$search.value?.index).toBe(0);
    await model.search(-1);
    expect(model.$search.value?.index).toBe(2);
    // The page texts are read once per document.
    expect(doc.textReads).toBe(6);
  });

  it('says when nothing matches, and clears on an empty query', async () => {
    const { model } = await openPdf(pages);
    await model.search(1, '不存在的词');
    expect(model.$search.value).toMatchObject({ matches: [], index: 0 });
    expect(model.$searching.value).toBe(false);
    await model.search(1, '   ');
    expect(model.$search.value).toBe(null);
  });
});

describe('a citation', () => {
  it('is outlined on the page the viewer opened at, and brought into view once its box is known', async () => {
    const { model, layout } = await openPdf(pagesOf(30), { startPage: 40, highlight: '72,600,300,640' });
    expect(model.$citation.value).toEqual({ page: 30, box: [72, 600, 300, 640] });
    model.focusRect(30, { left: 72, top: 150, width: 228, height: 40 });
    expect(layout.scrollTop).toBe(Math.max(0, layout.pageTop(30)! + 150 - 700 / 3));
  });

  it('ignores a highlight that is not a box, and follows a later page attribute', async () => {
    const { model } = await openPdf(pagesOf(30), { startPage: 2, highlight: 'not a box' });
    expect(model.$citation.value).toBe(null);
    model.followStartPage();
    expect(model.$page.value).toBe(2);
    model.target(9, '1,2,3,4');
    model.followStartPage();
    expect(model.$page.value).toBe(9);
    expect(model.$citation.value).toEqual({ page: 9, box: [1, 2, 3, 4] });
  });
});

describe('the parsed text and the download', () => {
  it('reads the markdown when first shown, once', async () => {
    const markdown = vi.fn(async () => '# 第一章');
    const model = viewerModel<FakeDoc>({ fail });
    model.open(source({ state: 'pdf', document: fakeDocument(pagesOf(2)), firstPage: A4 }, { markdown }));
    model.toggleMarkdown();
    expect(model.$markdown.value).toEqual({ state: 'loading' });
    await vi.waitFor(() => expect(model.$markdown.value).toEqual({ state: 'done', text: '# 第一章' }));
    model.toggleMarkdown();
    model.toggleMarkdown();
    expect(markdown).toHaveBeenCalledTimes(1);
  });

  it('says why the markdown or the download failed', async () => {
    const model = viewerModel<FakeDoc>({ fail });
    let saved: KbDocument | null = null;
    const download = vi.fn(async (r: KbDocument | null) => {
      if (saved) throw new Error('网络错误');
      saved = r;
    });
    model.open(source({ state: 'pdf', document: fakeDocument(pagesOf(2)), firstPage: A4 }, { markdown: async () => Promise.reject(new Error('解析结果不存在')), download }));
    model.toggleMarkdown();
    await vi.waitFor(() => expect(model.$markdown.value).toEqual({ state: 'error', message: 'markdown_failed: 解析结果不存在' }));
    await vi.waitFor(() => expect(model.$load.value.state).toBe('pdf'));
    const first = model.download();
    expect(model.$downloading.value).toBe(true);
    await first;
    expect(saved).toMatchObject({ title: '论文.pdf' });
    expect(model.$downloading.value).toBe(false);
    await model.download();
    expect(model.$downloadError.value).toBe('download_failed: 网络错误');
  });
});
