import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type MouseEvent as ReactMouseEvent } from 'react';
import { imageResult, kbDocument, markdownResult, type KbDocument } from '../../contract/knowledge';
import type { CommonProps } from '../shared/element';
import { emit } from '../shared/events';
import { ApiError } from '../../core/api';
import { useApi, useHost, useT } from '../shared/host-context';
import { addStrings } from '../shared/i18n';
import { reactView } from '../shared/react-view';
import { clampPage, findMatches, parseHighlight, stepZoom, type Match, type PageText, type Rect } from './geometry';
import { PdfPage, type PageLabels, type PageSize } from './PdfPage';
import { openPdf, pdfWorker, type PDFDocumentProxy } from './pdfjs';
import { pdfViewerStrings } from './pdf-viewer.strings';
import { downloadPath, prefetchKey, takePrefetch } from './prefetch';
import { adoptViewerCss } from './viewer-css';

addStrings('pdfViewer', pdfViewerStrings);

export interface PdfViewerProps extends CommonProps {
  docId: string | undefined;
  ifImg: boolean;
  downloadUrl: string | undefined;
  downloadKey: string | undefined;
  page: number | undefined;
  highlight: string | undefined;
}

type Zoom = 'fit-width' | 'fit-page' | number;
type Load =
  | { state: 'idle' | 'loading' }
  | { state: 'error'; message: string }
  | { state: 'pdf'; pdf: PDFDocumentProxy }
  | { state: 'image'; src: string }
  | { state: 'other' };

interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items: OutlineNode[];
}

const API = '/knowledge_base';
/** A `/api/v1/…` path (download-url, prefetch) as the client's path below its root. */
const clientPath = (path: string) => path.replace(/^\/api\/v1(?=\/)/, '');
const PAGE_GAP = 24; // vertical margins around a page (my-3 top + bottom)
/** The distance between two pages: their 12 px margins collapse into one (viewer-css.ts). */
const PAGE_MARGIN = 12;
/** The placeholder size before the first page is measured (US Letter). */
const LETTER: PageSize = { width: 612, height: 792 };


/** The full-document viewer: PDF pages rendered lazily, search, outline, parsed text, image documents. */
export function PdfViewer(props: PdfViewerProps) {
  const { docId: rawId, ifImg, downloadUrl, downloadKey, page: startPage, highlight } = props;
  const docId = rawId ?? downloadKey;
  const { host, root, apiOrigin } = useHost();
  const client = useApi();
  const t = useT('pdfViewer');
  const tRef = useRef(t);
  tRef.current = t;

  const [doc, setDoc] = useState<KbDocument | null>(null);
  const [load, setLoad] = useState<Load>({ state: 'idle' });
  const [zoom, setZoom] = useState<Zoom>('fit-width');
  const [viewWidth, setViewWidth] = useState(0);
  const [viewHeight, setViewHeight] = useState(0);
  const [sizes, setSizes] = useState<Map<number, PageSize>>(new Map());
  const [near, setNear] = useState<Set<number>>(new Set());
  const [visible, setVisible] = useState<Set<number>>(new Set());
  const [drawn, setDrawn] = useState<Set<number>>(new Set());
  // Until the start page is drawn, only the pages around it are boxes; the others are two
  // spacers of the same height (a 500-page document would otherwise mount 500 boxes on the main
  // thread while pdf.js's worker reads the start page on the other core).
  const [allPages, setAllPages] = useState(false);
  const [currentPage, setCurrentPage] = useState(1);
  const [pageInput, setPageInput] = useState('1');
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState<{ query: string; matches: Match[]; index: number } | null>(null);
  const [searching, setSearching] = useState(false);
  const [outline, setOutline] = useState<OutlineNode[]>([]);
  const [showOutline, setShowOutline] = useState(false);
  const [showMarkdown, setShowMarkdown] = useState(false);
  // On a narrow viewer the search field hides behind a button (viewer-css.ts); open here.
  const [showSearch, setShowSearch] = useState(false);
  const [markdown, setMarkdown] = useState<{ state: 'loading' } | { state: 'done'; text: string } | { state: 'error'; message: string } | null>(null);
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState('');
  const [imageScale, setImageScale] = useState<number | 'fit'>('fit');

  const scroller = useRef<HTMLDivElement>(null);
  const searchInput = useRef<HTMLInputElement>(null);
  const markdownBox = useRef<HTMLDivElement>(null);
  const pageText = useRef<PageText[] | null>(null);
  const pendingFocus = useRef<number | null>(null);
  // Where a programmatic jump wants the view to stay while page sizes settle (placeholders take
  // the first page's size until each page is measured); cleared when the user scrolls by hand.
  const anchor = useRef<{ page: number; delta: number } | null>(null);
  /** The page a document opened at (the first boxes are laid out around it). */
  const startAt = useRef(1);
  const citation = useMemo(() => parseHighlight(highlight), [highlight]);

  useEffect(() => adoptViewerCss(root), [root]);

  const fail = useCallback(
    (error: unknown, key: 'load_failed' | 'download_failed' | 'markdown_failed') => {
      const tr = tRef.current;
      // A failed call reached the page as the client's csai-error; a pdf.js failure is told here.
      const message = error instanceof ApiError ? (error.code === 'network_error' ? tr('network_error') : error.message) : tr('pdf_failed');
      if (!(error instanceof ApiError)) emit(host, 'csai-error', { message, code: 'pdf_failed' });
      return key === 'load_failed' && !(error instanceof ApiError) ? tr('pdf_failed') : tr(key, { message });
    },
    [host],
  );

  // Load: the document's record (type, title), then the PDF bytes or the image.
  useEffect(() => {
    const path = downloadPath(docId, downloadUrl);
    if (!path) {
      setLoad({ state: 'error', message: tRef.current('no_doc') });
      return;
    }
    const abort = new AbortController();
    const { signal } = abort;
    let opened: PDFDocumentProxy | undefined;
    setLoad({ state: 'loading' });
    setDoc(null);
    setSearch(null);
    setOutline([]);
    setMarkdown(null);
    setSizes(new Map());
    setNear(new Set());
    setVisible(new Set());
    setDrawn(new Set());
    setAllPages(false);
    pageText.current = null;
    void (async () => {
      try {
        // Started by the element shell while this code loaded (prefetch.ts), when it could.
        const early = ifImg ? undefined : takePrefetch(prefetchKey(apiOrigin, docId, path));
        if (early) signal.addEventListener('abort', () => early.abort());
        // The record and the bytes in parallel (most documents are PDFs); the worker starts too.
        const bytesAbort = new AbortController();
        signal.addEventListener('abort', () => bytesAbort.abort());
        const bytesPromise = ifImg || early ? null : client.download(clientPath(path), { signal: bytesAbort.signal }).then((d) => d.blob);
        bytesPromise?.catch(() => undefined);
        if (!ifImg && !early) pdfWorker();
        let info: KbDocument | null = null;
        // A prefetched answer is read by the client like its own (same checks, same SPEC §8 mapping).
        if (early?.record) info = await client.get(clientPath(early.recordPath), kbDocument, { response: early.record, signal });
        else if (docId) info = await client.get(`${API}/doc/${encodeURIComponent(docId)}`, kbDocument, { signal });
        if (signal.aborted) return;
        setDoc(info);
        if (info && info.type !== 1) {
          bytesAbort.abort(); // not a PDF: the bytes are not needed
          early?.abort();
          void early?.pdf.then((p) => p.destroy(), () => undefined);
        }
        if (ifImg || info?.type === 3) {
          const img = await client.get(`${API}/get_img/${encodeURIComponent(docId ?? '')}`, imageResult, { signal });
          if (!signal.aborted) setLoad({ state: 'image', src: `data:${img.mime};base64,${img.img_base64}` });
          return;
        }
        if (info && info.type !== 1) {
          setLoad({ state: 'other' });
          return;
        }
        if (early) {
          await client.response(clientPath(early.path), { response: early.bytes, signal });
          opened = await early.pdf;
        } else {
          const blob = await (bytesPromise ?? client.download(clientPath(path), { signal }).then((d) => d.blob));
          const bytes = new Uint8Array(await blob.arrayBuffer());
          if (signal.aborted) return;
          opened = await openPdf(bytes, { wasm: apiOrigin === '' });
        }
        if (signal.aborted) {
          void opened.destroy();
          return;
        }
        const first = (await opened.getPage(1)).getViewport({ scale: 1 });
        if (signal.aborted) return;
        setSizes(new Map([[1, { width: first.width, height: first.height }]]));
        const target = clampPage(startPage ?? 1, opened.numPages) ?? 1;
        pendingFocus.current = citation ? target : null;
        startAt.current = target;
        setCurrentPage(target);
        setPageInput(String(target));
        // The start page renders in the commit that lays the pages out, before the
        // IntersectionObservers have said anything (they take over at the next frame).
        setNear(new Set([target]));
        setVisible(new Set([target]));
        setLoad({ state: 'pdf', pdf: opened });
      } catch (error) {
        if (signal.aborted) return;
        setLoad({ state: 'error', message: fail(error, 'load_failed') });
      }
    })();
    return () => {
      abort.abort();
      void opened?.destroy();
    };
    // startPage and citation apply when a document opens; later changes scroll (effect below).
  }, [apiOrigin, client, docId, downloadUrl, ifImg, fail]);

  const pdf = load.state === 'pdf' ? load.pdf : null;
  const numPages = pdf?.numPages ?? 0;
  const firstSize = sizes.get(1) ?? LETTER;

  // The scroller's size, for the fit modes.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // Measured at once (no frame lost before the pages lay out), then on every resize.
    setViewWidth(el.clientWidth);
    setViewHeight(el.clientHeight);
    const ro = new ResizeObserver(() => {
      setViewWidth(el.clientWidth);
      setViewHeight(el.clientHeight);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [load.state]);

  const scale = useMemo(() => {
    if (typeof zoom === 'number') return zoom;
    const w = Math.max(100, viewWidth - 32) / firstSize.width;
    if (zoom === 'fit-width' || viewHeight === 0) return Math.round(Math.min(w, 5) * 1000) / 1000;
    const h = Math.max(100, viewHeight - PAGE_GAP) / firstSize.height;
    return Math.round(Math.min(w, h, 5) * 1000) / 1000;
  }, [zoom, viewWidth, viewHeight, firstSize.width, firstSize.height]);

  const pageElement = useCallback((n: number) => scroller.current?.querySelector<HTMLElement>(`[data-page-number="${n}"]`) ?? null, []);

  const goToPage = useCallback(
    (n: number) => {
      const target = clampPage(n, numPages);
      const el = target ? pageElement(target) : null;
      if (target && !el && pdf) {
        // A page outside the first few boxes: the full column is laid out, then the anchor
        // (layout effect below) brings the page into view.
        anchor.current = { page: target, delta: -8 };
        setAllPages(true);
        setCurrentPage(target);
        setPageInput(String(target));
        return;
      }
      if (!target || !el || !scroller.current) return;
      anchor.current = { page: target, delta: -8 };
      scroller.current.scrollTop = el.offsetTop - 8;
      setCurrentPage(target);
      setPageInput(String(target));
    },
    [numPages, pageElement, pdf],
  );

  // Lazy pages: one IntersectionObserver marks the pages within a screen and a half of the view
  // (rendered, kept), another the visible ones (rendered first).
  useEffect(() => {
    const el = scroller.current;
    if (!pdf || !el || scale <= 0) return;
    const track = (set: typeof setNear, also?: typeof setVisible) => (entries: IntersectionObserverEntry[]) => {
      const update = (prev: Set<number>, test: (e: IntersectionObserverEntry) => boolean) => {
        const next = new Set(prev);
        for (const e of entries) {
          const n = Number((e.target as HTMLElement).dataset['pageNumber']);
          if (test(e)) next.add(n);
          else next.delete(n);
        }
        return next;
      };
      set((prev) => update(prev, (e) => e.isIntersecting));
      // The near observer also tells which of its pages are in view, in the same update, so the
      // first render already knows which pages go first.
      if (also) {
        const view = el.getBoundingClientRect();
        also((prev) => update(prev, (e) => e.isIntersecting && e.boundingClientRect.bottom > view.top && e.boundingClientRect.top < view.bottom));
      }
    };
    const nearIo = new IntersectionObserver(track(setNear, setVisible), { root: el, rootMargin: '150% 0px' });
    const visibleIo = new IntersectionObserver(track(setVisible), { root: el, rootMargin: '0px' });
    el.querySelectorAll('[data-page-number]').forEach((p) => {
      nearIo.observe(p);
      visibleIo.observe(p);
    });
    return () => {
      nearIo.disconnect();
      visibleIo.disconnect();
    };
  }, [pdf, numPages, scale, viewWidth > 0, allPages]);
  const onRendered = useCallback((n: number, done: boolean) => {
    setDrawn((prev) => (prev.has(n) === done ? prev : (() => {
      const next = new Set(prev);
      if (done) next.add(n);
      else next.delete(n);
      return next;
    })()));
  }, []);
  const visiblePending = useMemo(() => [...visible].some((n) => !drawn.has(n)), [visible, drawn]);

  // The outline once the first page is drawn (or after 2 s): the worker builds it between the
  // operator lists of the start page otherwise.
  const anyDrawn = drawn.size > 0;
  // The full column once the start page is on screen (onRendered comes after its paint), or
  // after 1.5 s whatever happened to it.
  useEffect(() => {
    if (!pdf || allPages) return;
    if (anyDrawn) {
      setAllPages(true);
      return;
    }
    const timer = setTimeout(() => setAllPages(true), 1500);
    return () => clearTimeout(timer);
  }, [pdf, anyDrawn, allPages]);
  useEffect(() => {
    if (!pdf) return;
    let live = true;
    const read = () => {
      void pdf.getOutline().then(
        (o) => {
          if (live && o) setOutline(o as OutlineNode[]);
        },
        () => undefined,
      );
    };
    if (anyDrawn) {
      read();
      return () => {
        live = false;
      };
    }
    const timer = setTimeout(read, 2000);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [pdf, anyDrawn]);

  // Go to the start page once the pages are laid out (before the browser paints them; page 1 is
  // where the column starts: no scroll, no scroll event), and keep the same page in view when
  // the scale changes.
  const lastScale = useRef(0);
  const laidOut = useRef<PDFDocumentProxy | null>(null);
  useLayoutEffect(() => {
    if (!pdf || viewWidth === 0) return;
    if (laidOut.current !== pdf) {
      laidOut.current = pdf;
      lastScale.current = scale;
      if (currentPage > 1) goToPage(currentPage);
      return;
    }
    if (lastScale.current !== scale) {
      lastScale.current = scale;
      if (anchor.current) {
        const el = pageElement(anchor.current.page);
        if (el && scroller.current) scroller.current.scrollTop = Math.max(0, el.offsetTop + anchor.current.delta);
      } else goToPage(currentPage);
    }
  }, [pdf, scale, viewWidth, goToPage, currentPage, pageElement]);

  // Later changes of the `page` attribute (the one a document opens at is taken above).
  const lastStart = useRef(startPage);
  useEffect(() => {
    if (!pdf || lastStart.current === startPage) return;
    lastStart.current = startPage;
    if (startPage) goToPage(startPage);
  }, [pdf, startPage, goToPage]);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    // (The search below needs every page's box; the full column comes at once after the first draw.)
    if (!el || !numPages || el.querySelector('[data-spacer]')) return;
    const y = el.scrollTop + el.clientHeight / 3;
    let lo = 1;
    let hi = numPages;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      const p = pageElement(mid);
      if (p && p.offsetTop <= y) lo = mid;
      else hi = mid - 1;
    }
    setCurrentPage((prev) => {
      if (prev !== lo) setPageInput(String(lo));
      return lo;
    });
  }, [numPages, pageElement]);
  // Scrolled while the first boxes stood alone: the page number catches up.
  useEffect(() => {
    if (allPages) onScroll();
  }, [allPages, onScroll]);

  // Keep the anchored page in place when measured pages change the layout above it.
  useLayoutEffect(() => {
    const a = anchor.current;
    const box = scroller.current;
    const el = a ? pageElement(a.page) : null;
    if (a && box && el) box.scrollTop = Math.max(0, el.offsetTop + a.delta);
  }, [sizes, scale, pageElement, allPages]);
  const dropAnchor = useCallback(() => {
    anchor.current = null;
  }, []);

  const onSize = useCallback((n: number, size: PageSize) => {
    setSizes((prev) => (prev.get(n)?.width === size.width && prev.get(n)?.height === size.height ? prev : new Map(prev).set(n, size)));
  }, []);

  const onFocusRect = useCallback(
    (n: number, rect: Rect) => {
      if (pendingFocus.current !== n) return;
      const el = pageElement(n);
      const box = scroller.current;
      if (!el || !box) return;
      pendingFocus.current = null;
      anchor.current = { page: n, delta: rect.top - box.clientHeight / 3 };
      box.scrollTop = Math.max(0, el.offsetTop + anchor.current.delta);
    },
    [pageElement],
  );

  // Search: the text of every page (read once per document), then the matches.
  const runSearch = useCallback(
    async (q: string, dir: 1 | -1) => {
      if (!pdf || !q.trim()) {
        setSearch(null);
        return;
      }
      if (search && search.query === q && search.matches.length > 0) {
        const index = (search.index + dir + search.matches.length) % search.matches.length;
        setSearch({ ...search, index });
        const m = search.matches[index]!;
        pendingFocus.current = m.page;
        goToPage(m.page);
        return;
      }
      setSearching(true);
      try {
        if (!pageText.current) {
          const texts: PageText[] = [];
          for (let n = 1; n <= pdf.numPages; n++) {
            const content = await (await pdf.getPage(n)).getTextContent();
            const items = content.items.filter((i): i is typeof i & { str: string; hasEOL: boolean } => 'str' in i);
            texts.push({ items: items.map((i) => i.str), eol: items.map((i) => i.hasEOL) });
          }
          pageText.current = texts;
        }
        const matches = findMatches(pageText.current, q);
        const index = 0;
        setSearch({ query: q, matches, index });
        const m = matches[index];
        if (m) {
          pendingFocus.current = m.page;
          goToPage(m.page);
        }
      } finally {
        setSearching(false);
      }
    },
    [pdf, search, goToPage],
  );

  const matchesByPage = useMemo(() => {
    const map = new Map<number, Match[]>();
    for (const m of search?.matches ?? []) map.set(m.page, [...(map.get(m.page) ?? []), m]);
    return map;
  }, [search?.matches]);
  const currentMatch = search?.matches[search.index] ?? null;

  const labels = useMemo<PageLabels>(() => {
    // One translation per text, the page number put in after: a 500-page document would
    // otherwise translate 500 labels on every render of the view.
    const slot = '\u0001';
    const page = t('page_label', { page: slot });
    const loading = t('loading_page', { page: slot });
    return { page: (n) => page.replace(slot, String(n)), loading: (n) => loading.replace(slot, String(n)), citation: t('citation') };
  }, [t]);
  const citedPage = citation ? (clampPage(startPage ?? 1, numPages) ?? 1) : 0;
  // The pages only change with what they show: scrolling, the page field and the toolbar do not
  // reconcile 500 page elements.
  const pageList = useMemo(() => {
    if (!pdf || viewWidth === 0) return null;
    // The first few boxes: the start page, a screen and a half above it and two and a half below
    // (what the near observer may ask for), between spacers as tall as the pages they stand for.
    let first = 1;
    let last = numPages;
    if (!allPages) {
      const pitch = firstSize.height * scale + PAGE_MARGIN;
      const around = clampPage(startAt.current, numPages) ?? 1;
      first = Math.max(1, around - Math.min(30, Math.ceil((1.5 * viewHeight) / pitch) + 1));
      last = Math.min(numPages, around + Math.min(30, Math.ceil((2.5 * viewHeight) / pitch) + 1));
    }
    const span = (from: number, to: number) => {
      let height = 0;
      for (let n = from; n <= to; n++) height += (sizes.get(n) ?? firstSize).height * scale + PAGE_MARGIN;
      return height;
    };
    const pages = Array.from({ length: last - first + 1 }, (_, i) => first + i).map((n) => (
      <PdfPage
        key={n}
        pdf={pdf}
        number={n}
        scale={scale}
        size={sizes.get(n) ?? firstSize}
        near={near.has(n) && (visible.has(n) || drawn.has(n) || !visiblePending)}
        rendered={drawn.has(n)}
        onRendered={onRendered}
        matches={matchesByPage.get(n) ?? NO_MATCHES}
        currentMatch={currentMatch?.page === n ? currentMatch : null}
        citation={n === citedPage ? citation : null}
        labels={labels}
        onSize={onSize}
        onFocusRect={onFocusRect}
      />
    ));
    // The same shape with or without spacers: the drawn boxes stay when the column fills in.
    return (
      <>
        {first > 1 && <div aria-hidden="true" data-spacer="before" style={{ height: `${span(1, first - 1)}px` }} />}
        {pages}
        {last < numPages && <div aria-hidden="true" data-spacer="after" style={{ height: `${span(last + 1, numPages)}px` }} />}
      </>
    );
  }, [pdf, viewWidth, viewHeight, allPages, numPages, scale, sizes, firstSize, near, visible, drawn, visiblePending, onRendered, matchesByPage, currentMatch, citedPage, citation, labels, onSize, onFocusRect]);

  // Parsed markdown beside the pages, fetched on first open.
  useEffect(() => {
    if (!showMarkdown || markdown || !docId) return;
    setMarkdown({ state: 'loading' });
    client.get(`${API}/doc_markdown/${encodeURIComponent(docId)}`, markdownResult).then(
      (r) => setMarkdown({ state: 'done', text: r.markdown }),
      (error: unknown) => setMarkdown({ state: 'error', message: fail(error, 'markdown_failed') }),
    );
  }, [showMarkdown, markdown, docId, client, fail]);
  useEffect(() => {
    const box = markdownBox.current;
    if (!box || markdown?.state !== 'done') return;
    let live = true;
    // markdown-it and DOMPurify load with the panel, not with the viewer.
    void import('./markdown').then(({ markdownFragment }) => {
      if (live) box.replaceChildren(markdownFragment(markdown.text, labels.page));
    });
    return () => {
      live = false;
    };
  }, [markdown, showMarkdown, labels]);
  // A page label in the parsed text scrolls the pages there.
  const onMarkdownClick = useCallback(
    (e: ReactMouseEvent<HTMLDivElement>) => {
      const label = (e.target as Element).closest<HTMLElement>('[data-page]');
      const n = Number(label?.dataset['page']);
      if (label && Number.isInteger(n)) goToPage(n);
    },
    [goToPage],
  );
  useEffect(() => {
    if (showSearch) searchInput.current?.focus();
  }, [showSearch]);

  const download = useCallback(async () => {
    const path = downloadPath(docId, downloadUrl);
    if (!path) return;
    setDownloading(true);
    setDownloadError('');
    try {
      const { blob } = await client.download(clientPath(path));
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = doc?.title ?? `${docId ?? 'document'}.pdf`;
      a.rel = 'noopener';
      root.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      setDownloadError(fail(error, 'download_failed'));
    } finally {
      setDownloading(false);
    }
  }, [client, doc, docId, downloadUrl, fail, root]);

  const goOutline = useCallback(
    async (dest: OutlineNode['dest']) => {
      if (!pdf || !dest) return;
      const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : dest;
      const ref = explicit?.[0];
      if (ref === undefined || ref === null) return;
      const index = typeof ref === 'number' ? ref : typeof ref === 'object' && 'num' in ref ? await pdf.getPageIndex(ref as { num: number; gen: number }) : null;
      if (index !== null) goToPage(index + 1);
    },
    [pdf, goToPage],
  );

  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'f' && pdf) {
      e.preventDefault();
      setShowSearch(true);
      searchInput.current?.focus();
      searchInput.current?.select();
      return;
    }
    const target = e.target as HTMLElement;
    if (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || !pdf) return;
    if (e.key === 'ArrowRight' || e.key === 'n') goToPage(currentPage + 1);
    else if (e.key === 'ArrowLeft' || e.key === 'p') goToPage(currentPage - 1);
    else if (e.key === 'Home') goToPage(1);
    else if (e.key === 'End') goToPage(numPages);
    else if (e.key === '+' || e.key === '=') setZoom(stepZoom(scale, 1));
    else if (e.key === '-') setZoom(stepZoom(scale, -1));
    else return;
    e.preventDefault();
  };

  const btn = 'inline-flex items-center justify-center min-w-[2rem] h-8 px-2 rounded-csai border border-line bg-surface text-ink text-sm hover:border-accent focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-50';
  const pressed = (on: boolean) => (on ? 'border-accent text-accent' : '');

  const imageMode = load.state === 'image';
  const zoomPercent = Math.round((imageMode ? (imageScale === 'fit' ? 1 : imageScale) : scale) * 100);

  return (
    <section part="base" aria-label={t('label')} className="csai-pdf-base flex flex-col h-full font-csai bg-surface text-ink" onKeyDown={onKeyDown}>
      <div part="toolbar" role="toolbar" aria-label={t('toolbar')} className="csai-pdf-toolbar flex flex-wrap items-center gap-2 p-2 border-b border-line">
        {pdf && (
          <>
            <button type="button" part="prev" className={btn} onClick={() => goToPage(currentPage - 1)} disabled={currentPage <= 1} aria-label={t('prev_page')} title={t('prev_page')}>
              ‹
            </button>
            <form
              className="inline-flex items-center gap-1"
              onSubmit={(e) => {
                e.preventDefault();
                // The field's own value: an input event earlier in the same task may not have re-rendered yet.
                const n = clampPage(String(new FormData(e.currentTarget).get('page') ?? pageInput), numPages);
                if (n) goToPage(n);
                else setPageInput(String(currentPage));
              }}
            >
              <input
                part="page-input"
                name="page"
                aria-label={t('page_input')}
                inputMode="numeric"
                value={pageInput}
                onChange={(e) => setPageInput(e.target.value)}
                onBlur={() => setPageInput(String(currentPage))}
                className="w-14 h-8 px-2 text-center rounded-csai border border-line bg-surface text-ink text-sm"
              />
              <span part="page-count" className="text-sm text-muted">{t('page_of', { total: numPages })}</span>
            </form>
            <button type="button" part="next" className={btn} onClick={() => goToPage(currentPage + 1)} disabled={currentPage >= numPages} aria-label={t('next_page')} title={t('next_page')}>
              ›
            </button>
          </>
        )}
        {(pdf || imageMode) && (
          <span className="inline-flex items-center gap-1">
            <button
              type="button"
              part="zoom-out"
              className={btn}
              aria-label={t('zoom_out')}
              title={t('zoom_out')}
              onClick={() => (imageMode ? setImageScale(stepZoom(imageScale === 'fit' ? 1 : imageScale, -1)) : setZoom(stepZoom(scale, -1)))}
            >
              −
            </button>
            <span part="zoom-level" role="status" className="w-14 text-center text-sm" aria-label={t('zoom_level', { percent: zoomPercent })}>
              {zoomPercent}%
            </span>
            <button
              type="button"
              part="zoom-in"
              className={btn}
              aria-label={t('zoom_in')}
              title={t('zoom_in')}
              onClick={() => (imageMode ? setImageScale(stepZoom(imageScale === 'fit' ? 1 : imageScale, 1)) : setZoom(stepZoom(scale, 1)))}
            >
              +
            </button>
          </span>
        )}
        {/* Apart from the zoom buttons: on a phone they may go to the second row, the zoom stays on the first. */}
        {(pdf || imageMode) && (
          <span className="inline-flex items-center gap-1">
            <button
              type="button"
              part="fit-width"
              className={`${btn} gap-1 ${pressed(imageMode ? imageScale === 'fit' : zoom === 'fit-width')}`}
              aria-pressed={imageMode ? imageScale === 'fit' : zoom === 'fit-width'}
              aria-label={t('fit_width')}
              title={t('fit_width')}
              onClick={() => (imageMode ? setImageScale('fit') : setZoom('fit-width'))}
            >
              <ToolIcon name="fit-width" />
              <span className="csai-tb-label">{t('fit_width')}</span>
            </button>
            {pdf && (
              <button
                type="button"
                part="fit-page"
                className={`${btn} gap-1 ${pressed(zoom === 'fit-page')}`}
                aria-pressed={zoom === 'fit-page'}
                aria-label={t('fit_page')}
                title={t('fit_page')}
                onClick={() => setZoom('fit-page')}
              >
                <ToolIcon name="fit-page" />
                <span className="csai-tb-label">{t('fit_page')}</span>
              </button>
            )}
          </span>
        )}
        {pdf && (
          <button
            type="button"
            part="search-toggle"
            className={`csai-tb-search-toggle ${btn} ${pressed(showSearch)}`}
            aria-pressed={showSearch}
            aria-label={t('search')}
            title={t('search')}
            onClick={() => setShowSearch((v) => !v)}
          >
            <ToolIcon name="search" />
          </button>
        )}
        {pdf && (
          <form
            role="search"
            className={`csai-tb-search inline-flex items-center gap-1 ${showSearch ? 'is-open' : ''}`}
            onSubmit={(e) => {
              e.preventDefault();
              void runSearch(String(new FormData(e.currentTarget).get('q') ?? query), 1);
            }}
          >
            <input
              ref={searchInput}
              part="search-input"
              name="q"
              type="search"
              aria-label={t('search')}
              placeholder={t('search_placeholder')}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') setShowSearch(false);
                if (e.key === 'Enter' && e.shiftKey) {
                  e.preventDefault();
                  void runSearch(query, -1);
                }
              }}
              className="w-40 h-8 px-2 rounded-csai border border-line bg-surface text-ink text-sm"
            />
            <button type="button" part="search-prev" className={btn} aria-label={t('search_prev')} title={t('search_prev')} onClick={() => void runSearch(query, -1)} disabled={!query.trim()}>
              ↑
            </button>
            <button type="button" part="search-next" className={btn} aria-label={t('search_next')} title={t('search_next')} onClick={() => void runSearch(query, 1)} disabled={!query.trim()}>
              ↓
            </button>
            <span part="search-status" role="status" aria-live="polite" className="text-sm text-muted min-w-[5rem]">
              {searching ? t('searching') : search ? (search.matches.length ? t('search_count', { current: search.index + 1, total: search.matches.length }) : t('search_none')) : ''}
            </span>
          </form>
        )}
        <span className="flex-1" />
        {/* Secondary controls: icons with tooltips; their words show when the viewer is wide. */}
        {pdf && outline.length > 0 && (
          <button
            type="button"
            part="outline-toggle"
            className={`${btn} gap-1 ${pressed(showOutline)}`}
            aria-pressed={showOutline}
            aria-label={t('outline')}
            title={showOutline ? t('outline_hide') : t('outline_show')}
            onClick={() => setShowOutline((v) => !v)}
          >
            <ToolIcon name="outline" />
            <span className="csai-tb-label">{t('outline')}</span>
          </button>
        )}
        {docId && load.state === 'pdf' && (
          <button
            type="button"
            part="markdown-toggle"
            className={`${btn} gap-1 ${pressed(showMarkdown)}`}
            aria-pressed={showMarkdown}
            aria-label={t('markdown')}
            title={showMarkdown ? t('markdown_hide') : t('markdown_show')}
            onClick={() => setShowMarkdown((v) => !v)}
          >
            <ToolIcon name="markdown" />
            <span className="csai-tb-label">{t('markdown')}</span>
          </button>
        )}
        {downloadPath(docId, downloadUrl) && load.state !== 'loading' && (
          <button
            type="button"
            part="download"
            className={`${btn} gap-1`}
            aria-label={downloading ? t('downloading') : t('download')}
            title={downloading ? t('downloading') : t('download')}
            onClick={() => void download()}
            disabled={downloading}
          >
            <ToolIcon name="download" />
            <span className="csai-tb-label">{downloading ? t('downloading') : t('download')}</span>
          </button>
        )}
      </div>
      {downloadError && (
        <p part="download-error" role="alert" className="px-3 py-1 text-sm text-danger">
          {downloadError}
        </p>
      )}
      {load.state === 'loading' || load.state === 'idle' ? (
        <p part="status" role="status" className="p-6 text-center text-muted">
          {t('loading')}
        </p>
      ) : load.state === 'error' ? (
        <p part="error" role="alert" className="p-6 text-center text-danger">
          {load.message}
        </p>
      ) : load.state === 'other' ? (
        <p part="status" role="status" className="p-6 text-center text-muted">
          {t('not_pdf')}
        </p>
      ) : load.state === 'image' ? (
        <div ref={scroller} part="image-view" tabIndex={0} className="flex-1 overflow-auto p-4 bg-line">
          <img
            part="image"
            src={load.src}
            alt={t('image_alt', { title: doc?.title ?? '' })}
            className="block mx-auto bg-white"
            style={imageScale === 'fit' ? { maxWidth: '100%' } : { width: `${imageScale * 100}%`, maxWidth: 'none' }}
          />
        </div>
      ) : (
        <div className="csai-pdf-body flex flex-1 min-h-0">
          {showOutline && outline.length > 0 && (
            <nav part="outline" aria-label={t('outline')} className="w-64 shrink-0 overflow-auto border-r border-line p-2 text-sm">
              <OutlineList nodes={outline} onGo={(d) => void goOutline(d)} />
            </nav>
          )}
          <div
            ref={scroller}
            part="pages"
            role="document"
            aria-label={t('pages')}
            tabIndex={0}
            onScroll={onScroll}
            onWheel={dropAnchor}
            onTouchStart={dropAnchor}
            onPointerDown={dropAnchor}
            onKeyDownCapture={dropAnchor}
            className="csai-pdf-pages flex-1 bg-line focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent"
          >
            {pageList}
          </div>
          {showMarkdown && (
            <aside part="markdown" aria-label={t('markdown')} className="w-[40%] max-w-xl shrink-0 overflow-auto border-l border-line p-4">
              {markdown?.state === 'loading' && <p role="status" className="text-muted">{t('markdown_loading')}</p>}
              {markdown?.state === 'error' && <p role="alert" className="text-danger">{markdown.message}</p>}
              {markdown?.state === 'done' && !markdown.text.trim() && <p className="text-muted">{t('markdown_empty')}</p>}
              <div ref={markdownBox} className="csai-md" onClick={onMarkdownClick} />
            </aside>
          )}
        </div>
      )}
    </section>
  );
}

const NO_MATCHES: Match[] = [];

const ICONS = {
  'fit-width': 'M3 12h18M7 8l-4 4 4 4M17 8l4 4-4 4',
  'fit-page': 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5',
  search: 'M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM16 16l5 5',
  outline: 'M4 6h16M8 12h12M8 18h12M4 12h.01M4 18h.01',
  markdown: 'M6 3h9l4 4v14H6zM14 3v5h5M9 13h7M9 17h7',
  download: 'M12 4v11M7 10l5 5 5-5M5 20h14',
} as const;

/** A toolbar icon (decorative: the button carries the name). */
function ToolIcon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d={ICONS[name]} />
    </svg>
  );
}

function OutlineList({ nodes, onGo }: { nodes: OutlineNode[]; onGo: (dest: OutlineNode['dest']) => void }) {
  return (
    <ul className="pl-3">
      {nodes.map((node, i) => (
        <li key={i}>
          <button type="button" className="text-left py-0.5 hover:text-accent hover:underline" onClick={() => onGo(node.dest)}>
            {node.title}
          </button>
          {node.items.length > 0 && <OutlineList nodes={node.items} onGo={onGo} />}
        </li>
      ))}
    </ul>
  );
}

/** The view the element imports on first connection. */
export const view = reactView<PdfViewerProps>(PdfViewer);
