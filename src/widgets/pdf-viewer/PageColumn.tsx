// The scrolling column of pages: the viewer model's column (the boxes laid out, spacers for the
// rest) as PdfPage elements, the observers that tell the model which pages are near and visible,
// and the model's port to the column (where a page's box is, the scroll position).
import { signal } from '@preact/signals-core';
import { useCallback, useLayoutEffect, useEffect, useMemo, useRef } from 'react';
import type { StructureReview } from '../../core/structure-review';
import type { DocStructure } from '../../core/structures-api';
import type { Match, Rect } from '../../core/viewer-geometry';
import type { ColumnLayout, PageSize, ViewerModel } from '../../core/viewer-model';
import { useT } from '../shared/host-context';
import type { PdfDocument } from './document-source';
import { PdfPage, type PageLabels } from './PdfPage';
import { useValue } from './use-value';

type Model = ViewerModel<PdfDocument>;

const NO_MATCHES: Match[] = [];
/** Stand-in signals when the viewer has no document id (a file by URL): no structures. */
const NO_REVIEW = { $byPage: signal<ReadonlyMap<number, readonly DocStructure[]>>(new Map()), $shown: signal(false), $selected: signal<DocStructure | null>(null) };

/** A box as tall as the pages it stands for (height set through CSSOM: no inline style attribute). */
function Spacer({ side, height }: { side: 'before' | 'after'; height: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    ref.current?.style.setProperty('height', `${height}px`);
  }, [height]);
  return <div ref={ref} aria-hidden="true" data-spacer={side} />;
}

/** The model's view of the scrolling box. */
function columnOf(el: HTMLElement): ColumnLayout {
  return {
    pageTop: (n) => el.querySelector<HTMLElement>(`[data-page-number="${n}"]`)?.offsetTop ?? null,
    get scrollTop() {
      return el.scrollTop;
    },
    set scrollTop(v: number) {
      el.scrollTop = v;
    },
    get clientHeight() {
      return el.clientHeight;
    },
    get complete() {
      return !el.querySelector('[data-spacer]');
    },
  };
}

/** Lazy pages: one IntersectionObserver marks the pages within a screen and a half of the view, another the visible ones. */
function observePages(el: HTMLElement, model: Model): () => void {
  const pageOf = (e: IntersectionObserverEntry) => Number((e.target as HTMLElement).dataset['pageNumber']);
  const nearIo = new IntersectionObserver(
    (entries) => {
      // The near observer also tells which of its pages are in view, in the same update, so the
      // first render already knows which pages go first.
      const view = el.getBoundingClientRect();
      model.pagesSeen(
        new Map(entries.map((e) => [pageOf(e), e.isIntersecting])),
        new Map(entries.map((e) => [pageOf(e), e.isIntersecting && e.boundingClientRect.bottom > view.top && e.boundingClientRect.top < view.bottom])),
      );
    },
    { root: el, rootMargin: '150% 0px' },
  );
  const visibleIo = new IntersectionObserver((entries) => model.pagesSeen(null, new Map(entries.map((e) => [pageOf(e), e.isIntersecting]))), { root: el, rootMargin: '0px' });
  el.querySelectorAll('[data-page-number]').forEach((p) => {
    nearIo.observe(p);
    visibleIo.observe(p);
  });
  return () => {
    nearIo.disconnect();
    visibleIo.disconnect();
  };
}

/** The pages of the document, with their search marks and the cited box. */
export function PageColumn({ model, review, document, labels }: { model: Model; review: StructureReview | null; document: PdfDocument; labels: PageLabels }) {
  const t = useT('pdfViewer');
  const scroller = useRef<HTMLDivElement>(null);
  const scale = useValue(model.$scale);
  const viewWidth = useValue(model.$viewSize).width;
  const allPages = useValue(model.$allPages);
  const column = useValue(model.$column);
  const sizes = useValue(model.$sizes);
  const firstSize = useValue(model.$firstSize);
  const rendering = useValue(model.$rendering);
  const drawn = useValue(model.$drawn);
  const matchesByPage = useValue(model.$matchesByPage);
  const currentMatch = useValue(model.$currentMatch);
  const citation = useValue(model.$citation);
  const structuresByPage = useValue(review?.$byPage ?? NO_REVIEW.$byPage);
  const structuresShown = useValue(review?.$shown ?? NO_REVIEW.$shown);
  const selected = useValue(review?.$selected ?? NO_REVIEW.$selected);
  const selectedId = selected?.id ?? null;

  // The scroller's size, for the fit modes: measured at once (no frame lost before the pages lay
  // out), then on every resize.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    model.attach(columnOf(el));
    model.resized(el.clientWidth, el.clientHeight);
    const ro = new ResizeObserver(() => model.resized(el.clientWidth, el.clientHeight));
    ro.observe(el);
    return () => {
      ro.disconnect();
      model.attach(null);
    };
  }, [model]);
  // Go to the start page once the pages are laid out (before the browser paints them), and keep
  // the same page in view when the scale changes.
  useLayoutEffect(() => model.laidOut({ scale, width: viewWidth }), [model, document, scale, viewWidth]);
  useEffect(() => {
    const el = scroller.current;
    if (!el || scale <= 0) return;
    return observePages(el, model);
  }, [model, document, scale, viewWidth > 0, allPages]);
  // Scrolled while the first boxes stood alone: the page number catches up.
  useEffect(() => {
    if (allPages) model.scrolled();
  }, [model, allPages]);
  // Keep the anchored page in place when measured pages change the layout above it.
  useLayoutEffect(() => model.holdAnchor(), [model, sizes, scale, allPages]);

  const onRendered = useCallback((n: number, done: boolean) => model.rendered(n, done), [model]);
  const onSize = useCallback((n: number, size: PageSize) => model.pageSize(n, size), [model]);
  const onFocusRect = useCallback((n: number, rect: Rect) => model.focusRect(n, rect), [model]);
  const onStructure = useCallback((id: number) => review?.select(id), [review]);

  // The pages only change with what they show: scrolling, the page field and the toolbar do not
  // reconcile 500 page elements.
  const pageList = useMemo(() => {
    if (!column) return null;
    const pages = [];
    for (let n = column.first; n <= column.last; n++) {
      pages.push(
        <PdfPage
          key={n}
          pdf={document.pdf}
          number={n}
          scale={scale}
          size={sizes.get(n) ?? firstSize}
          near={rendering.has(n)}
          rendered={drawn.has(n)}
          onRendered={onRendered}
          matches={matchesByPage.get(n) ?? NO_MATCHES}
          currentMatch={currentMatch?.page === n ? currentMatch : null}
          citation={citation?.page === n ? citation.box : null}
          structures={structuresShown ? structuresByPage.get(n) : undefined}
          selectedStructure={selectedId}
          onStructure={onStructure}
          labels={labels}
          onSize={onSize}
          onFocusRect={onFocusRect}
        />,
      );
    }
    // The same shape with or without spacers: the drawn boxes stay when the column fills in.
    return (
      <>
        {column.first > 1 && <Spacer side="before" height={column.before} />}
        {pages}
        {column.last < document.numPages && <Spacer side="after" height={column.after} />}
      </>
    );
  }, [column, document, scale, sizes, firstSize, rendering, drawn, matchesByPage, currentMatch, citation, structuresByPage, structuresShown, selectedId, labels, onRendered, onSize, onFocusRect, onStructure]);

  return (
    <div
      ref={scroller}
      part="pages"
      role="document"
      aria-label={t('pages')}
      tabIndex={0}
      onScroll={model.scrolled}
      onWheel={model.dropAnchor}
      onTouchStart={model.dropAnchor}
      onPointerDown={model.dropAnchor}
      onKeyDownCapture={model.dropAnchor}
      className="csai-pdf-pages flex-1 bg-line focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent"
    >
      {pageList}
    </div>
  );
}
