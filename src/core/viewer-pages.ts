// The document viewer's pages: the page in view and the page field, jumps (held in place while
// pages are measured), which pages render (near and visible ones), and the column of boxes laid
// out around the start page until one is drawn. The view hands in the column on screen
// (ColumnLayout).
import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { clampPage, type Rect } from './viewer-geometry';
import { PAGE_MARGIN, type Column, type ColumnLayout, type ViewerDocument } from './viewer-types';
import type { ViewerZoom } from './viewer-zoom';

/** A jump leaves this much of the previous page above the target page. */
const JUMP_OFFSET = -8;

const toggled = (set: ReadonlySet<number>, n: number, on: boolean) => {
  if (set.has(n) === on) return set;
  const next = new Set(set);
  if (on) next.add(n);
  else next.delete(n);
  return next;
};

/** The pages of one viewer, for the document in `$document` at the zoom's scale. */
export function viewerPages<D extends ViewerDocument>({ $document, $numPages, zoom }: { $document: ReadonlySignal<D | null>; $numPages: ReadonlySignal<number>; zoom: ViewerZoom }) {
  const $near = signal<ReadonlySet<number>>(new Set());
  const $visible = signal<ReadonlySet<number>>(new Set());
  const $drawn = signal<ReadonlySet<number>>(new Set());
  // Until the start page is drawn, only the pages around it are boxes; the others are two
  // spacers of the same height (a 500-page document would otherwise mount 500 boxes on the main
  // thread while pdf.js's worker reads the start page on the other core).
  const $allPages = signal(false);
  const $page = signal(1);
  const $pageInput = signal('1');

  let layout: ColumnLayout | null = null;
  /** The page whose cited box or current match the view should bring into view when it has its rectangle. */
  let pendingFocus: number | null = null;
  // Where a jump wants the view to stay while page sizes settle (placeholders take the first
  // page's size until each page is measured); dropped when the user scrolls by hand.
  let anchor: { page: number; delta: number } | null = null;
  /** The page the document opened at (the first boxes are laid out around it). */
  let startAt = 1;
  let laidOutDocument: D | null = null;
  let lastScale = 0;
  /** What the first drawn page of the current document starts. */
  let firstDrawn = () => {};

  const $visiblePending = computed(() => [...$visible.value].some((n) => !$drawn.value.has(n)));
  /** The pages to render now: near the view, and visible themselves or no visible page still waiting (visible pages go first). */
  const $rendering = computed<ReadonlySet<number>>(() => {
    const drawn = $drawn.value;
    const visible = $visible.value;
    const pending = $visiblePending.value;
    return new Set([...$near.value].filter((n) => visible.has(n) || drawn.has(n) || !pending));
  });
  const $column = computed<Column | null>(() => {
    const numPages = $numPages.value;
    const { width, height } = zoom.$viewSize.value;
    if (!$document.value || width === 0) return null;
    const scale = zoom.$scale.value;
    const first = zoom.$firstSize.value;
    const sizes = zoom.$sizes.value;
    // The first few boxes: the start page, a screen and a half above it and two and a half below
    // (what the near observer may ask for), between spacers as tall as the pages they stand for.
    let from = 1;
    let to = numPages;
    if (!$allPages.value) {
      const pitch = first.height * scale + PAGE_MARGIN;
      const around = clampPage(startAt, numPages) ?? 1;
      from = Math.max(1, around - Math.min(30, Math.ceil((1.5 * height) / pitch) + 1));
      to = Math.min(numPages, around + Math.min(30, Math.ceil((2.5 * height) / pitch) + 1));
    }
    const span = (a: number, b: number) => {
      let total = 0;
      for (let n = a; n <= b; n++) total += (sizes.get(n) ?? first).height * scale + PAGE_MARGIN;
      return total;
    };
    return { first: from, last: to, before: from > 1 ? span(1, from - 1) : 0, after: to < numPages ? span(to + 1, numPages) : 0 };
  });

  const showPageNumber = (n: number) => {
    $page.value = n;
    $pageInput.value = String(n);
  };

  /** Scrolls page `n` into view (the full column is laid out first when its box is not there yet). */
  function goToPage(n: number) {
    const target = clampPage(n, $numPages.peek());
    const top = target ? (layout?.pageTop(target) ?? null) : null;
    if (target && top === null && $document.peek()) {
      anchor = { page: target, delta: JUMP_OFFSET };
      batch(() => {
        $allPages.value = true;
        showPageNumber(target);
      });
      return;
    }
    if (!target || top === null || !layout) return;
    anchor = { page: target, delta: JUMP_OFFSET };
    layout.scrollTop = top + JUMP_OFFSET;
    batch(() => showPageNumber(target));
  }

  /** Keeps the anchored page where a jump put it. */
  function holdAnchor() {
    const top = anchor && layout ? layout.pageTop(anchor.page) : null;
    if (anchor && layout && top !== null) layout.scrollTop = Math.max(0, top + anchor.delta);
  }

  return {
    $drawn: $drawn as ReadonlySignal<ReadonlySet<number>>,
    $rendering,
    $allPages: $allPages as ReadonlySignal<boolean>,
    $column,
    $page: $page as ReadonlySignal<number>,
    $pageInput: $pageInput as ReadonlySignal<string>,

    /** A new document is loading: nothing near, visible or drawn, the column not laid out in full. */
    clear() {
      $near.value = new Set();
      $visible.value = new Set();
      $drawn.value = new Set();
      $allPages.value = false;
    },
    /**
     * The document opens at page `target` (its boxes are laid out around it; it renders in the
     * same commit, before the view's observers have said anything); `focus`: its cited box is to
     * be brought into view.
     */
    openAt(target: number, focus: boolean) {
      pendingFocus = focus ? target : null;
      startAt = target;
      showPageNumber(target);
      $near.value = new Set([target]);
      $visible.value = new Set([target]);
    },
    /** Lays the full column out (the start page is drawn, or it took too long). */
    layOutAll() {
      $allPages.value = true;
    },
    /** What the first drawn page of the current document starts (nothing, once it is gone). */
    whenFirstDrawn(start: () => void) {
      firstDrawn = start;
    },

    /** The view's column of pages (null when it goes). */
    attach(column: ColumnLayout | null) {
      layout = column;
    },
    /** What the observers saw: pages near the view (rendered, kept) and pages in it (rendered first). */
    pagesSeen(near: ReadonlyMap<number, boolean> | null, visible: ReadonlyMap<number, boolean> | null) {
      const apply = (set: ReadonlySet<number>, changes: ReadonlyMap<number, boolean>) => {
        const next = new Set(set);
        for (const [n, on] of changes) {
          if (on) next.add(n);
          else next.delete(n);
        }
        return next;
      };
      batch(() => {
        if (near) $near.value = apply($near.peek(), near);
        if (visible) $visible.value = apply($visible.peek(), visible);
      });
    },
    /** Page `n`'s canvas was drawn (true, after its paint) or released (false). */
    rendered(n: number, done: boolean) {
      const first = done && $drawn.peek().size === 0;
      $drawn.value = toggled($drawn.peek(), n, done);
      if (first) firstDrawn();
    },

    goToPage,
    /** Goes to page `n` and brings the rectangle the view reports for it (`focusRect`) into view. */
    focusPage(n: number) {
      pendingFocus = n;
      goToPage(n);
    },
    nextPage: () => goToPage($page.peek() + 1),
    previousPage: () => goToPage($page.peek() - 1),
    /** Text typed in the page field. */
    typePage(text: string) {
      $pageInput.value = text;
    },
    /** The page field submitted: a page number goes there, anything else shows the current page again. */
    submitPage(text: string) {
      const n = clampPage(text, $numPages.peek());
      if (n) goToPage(n);
      else $pageInput.value = String($page.peek());
    },
    /** The page field lost focus: it shows the current page. */
    leavePageInput() {
      $pageInput.value = String($page.peek());
    },
    /** The column scrolled: the page a third of the way down the view is the current one. */
    scrolled() {
      const numPages = $numPages.peek();
      // (The search below needs every page's box; the full column comes at once after the first draw.)
      if (!layout || !numPages || !layout.complete) return;
      const y = layout.scrollTop + layout.clientHeight / 3;
      let lo = 1;
      let hi = numPages;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        const top = layout.pageTop(mid);
        if (top !== null && top <= y) lo = mid;
        else hi = mid - 1;
      }
      if ($page.peek() !== lo) batch(() => showPageNumber(lo));
    },
    /** The user scrolls by hand: a jump no longer holds its page in place. */
    dropAnchor() {
      anchor = null;
    },
    /**
     * After the column is laid out (at the scale and width it was rendered with): at a new
     * document, go to the start page (page 1 is where the column starts); at a new scale, keep
     * the same page in view.
     */
    laidOut(rendered: { scale: number; width: number }) {
      const document = $document.peek();
      // The render the view just committed, not the values since (a size measured in the same
      // commit lays the pages out in the next one).
      const { scale, width } = rendered;
      if (!document || width === 0) return;
      if (laidOutDocument !== document) {
        laidOutDocument = document;
        lastScale = scale;
        if ($page.peek() > 1) goToPage($page.peek());
        return;
      }
      if (lastScale !== scale) {
        lastScale = scale;
        if (anchor) holdAnchor();
        else goToPage($page.peek());
      }
    },
    /** After measured pages changed the layout above the anchored page: it stays in place. */
    holdAnchor,
    /** The current match or the cited box has its rectangle (page pixels) on page `n`: brought into view once. */
    focusRect(n: number, rect: Rect) {
      if (pendingFocus !== n || !layout) return;
      const top = layout.pageTop(n);
      if (top === null) return;
      pendingFocus = null;
      anchor = { page: n, delta: rect.top - layout.clientHeight / 3 };
      layout.scrollTop = Math.max(0, top + anchor.delta);
    },
  };
}

/** The pages part of a viewer. */
export type ViewerPages = ReturnType<typeof viewerPages>;
