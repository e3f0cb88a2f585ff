// The document viewer's state and verbs (<csai-pdf-viewer>): the document and its record, the
// page in view, zoom, search, the cited box, the panels, and which pages render. Framework-free:
// the element's view renders these signals and hands in what only the page knows through two
// ports — the opened document (ViewerDocument: page texts, outline) and the column of pages on
// screen (ColumnLayout: where a page's box is, the scroll position). Loading the record and the
// bytes is the view's (ViewerSource): no network here.
import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import type { KbDocument } from '../contract/knowledge';
import { clampPage, findMatches, parseHighlight, stepZoom, type Match, type PageText, type PdfBox, type Rect } from './viewer-geometry';

/** Page size in PDF points at scale 1 (rotation applied). */
export interface PageSize {
  width: number;
  height: number;
}

/** One entry of a PDF's outline (as pdf.js gives it). */
export interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items: OutlineNode[];
}

/** What the viewer asks of an opened PDF. */
export interface ViewerDocument {
  readonly numPages: number;
  /** The text items of page `n` (1-based). */
  pageText(n: number): Promise<PageText>;
  /** The outline, or null when the PDF has none. */
  outline(): Promise<OutlineNode[] | null>;
  /** The page (1-based) an outline destination points at, or null. */
  destinationPage(dest: NonNullable<OutlineNode['dest']>): Promise<number | null>;
  /** Lets the document go (another one is shown, or the element goes). */
  close(): void;
}

/** An opened document: a PDF (with its first page's size), an image, or a file that cannot be previewed. */
export type Opened<D extends ViewerDocument> = { state: 'pdf'; document: D; firstPage: PageSize } | { state: 'image'; src: string } | { state: 'other' };

/** The load of the current document. */
export type ViewerLoad<D extends ViewerDocument> =
  | { state: 'idle' | 'loading' }
  | { state: 'error'; message: string }
  | { state: 'pdf'; document: D }
  | { state: 'image'; src: string }
  | { state: 'other' };

/** Where the view gets one document from (its network calls and pdf.js). */
export interface ViewerSource<D extends ViewerDocument> {
  /** Reads the record (handed to `record` as soon as it is known) and opens the document. */
  open(signal: AbortSignal, record: (r: KbDocument | null) => void): Promise<Opened<D>>;
  /** The parsed markdown of the document; absent without a document id. */
  markdown?: () => Promise<string>;
  /** Saves the file (the record's title as its name when known); absent when there is nothing to download. */
  download?: (record: KbDocument | null) => Promise<void>;
}

/** The column of pages on screen (the view's scrolling box). */
export interface ColumnLayout {
  /** The top of page `n`'s box in the column (px), or null when it is not laid out. */
  pageTop(n: number): number | null;
  scrollTop: number;
  readonly clientHeight: number;
  /** Every page has its box (no spacer stands for pages far from the start page). */
  readonly complete: boolean;
}

/** How failures become messages (the view translates them and tells the page). */
export interface ViewerDeps {
  fail(error: unknown, what: 'load_failed' | 'download_failed' | 'markdown_failed'): string;
}

/** The zoom chosen: fit the width, fit the page, or a scale. */
export type Zoom = 'fit-width' | 'fit-page' | number;
type MarkdownState = { state: 'loading' } | { state: 'done'; text: string } | { state: 'error'; message: string } | null;
/** The current search: its query, every match, and which one is current. */
export interface SearchState {
  query: string;
  matches: Match[];
  index: number;
}
/** The boxes laid out: pages `first`…`last` between spacers of `before`/`after` pixels. */
export interface Column {
  first: number;
  last: number;
  before: number;
  after: number;
}

/** The distance between two pages: their 12 px margins collapse into one (viewer-css.ts). */
export const PAGE_MARGIN = 12;
/** Vertical margins around a page (top + bottom), for the fit-page scale. */
const PAGE_GAP = 24;
/** The placeholder size before the first page is measured (US Letter). */
export const LETTER: PageSize = { width: 612, height: 792 };
/** The whole column is laid out this long after opening even if the start page is not drawn yet. */
const COLUMN_FALLBACK_MS = 1500;
/** The outline is read this long after opening even if no page is drawn yet. */
const OUTLINE_FALLBACK_MS = 2000;
/** A jump leaves this much of the previous page above the target page. */
const JUMP_OFFSET = -8;

const toggled = (set: ReadonlySet<number>, n: number, on: boolean) => {
  if (set.has(n) === on) return set;
  const next = new Set(set);
  if (on) next.add(n);
  else next.delete(n);
  return next;
};

/**
 * The viewer of one element: call `open` with each document it shows.
 *
 * @example
 * const viewer = viewerModel({ fail: (e) => String(e) }, { startPage: 3, highlight: '10,10,90,40' });
 * const stop = viewer.open(source);
 * viewer.zoomIn(); viewer.search(1);
 */
export function viewerModel<D extends ViewerDocument>(deps: ViewerDeps, start: { startPage?: number; highlight?: string } = {}) {
  const $record = signal<KbDocument | null>(null);
  const $load = signal<ViewerLoad<D>>({ state: 'idle' });
  const $zoom = signal<Zoom>('fit-width');
  const $imageScale = signal<number | 'fit'>('fit');
  const $viewSize = signal({ width: 0, height: 0 });
  const $sizes = signal<ReadonlyMap<number, PageSize>>(new Map());
  const $near = signal<ReadonlySet<number>>(new Set());
  const $visible = signal<ReadonlySet<number>>(new Set());
  const $drawn = signal<ReadonlySet<number>>(new Set());
  // Until the start page is drawn, only the pages around it are boxes; the others are two
  // spacers of the same height (a 500-page document would otherwise mount 500 boxes on the main
  // thread while pdf.js's worker reads the start page on the other core).
  const $allPages = signal(false);
  const $page = signal(1);
  const $pageInput = signal('1');
  const $query = signal('');
  const $search = signal<SearchState | null>(null);
  const $searching = signal(false);
  const $outline = signal<OutlineNode[]>([]);
  const $outlineOpen = signal(false);
  const $markdownOpen = signal(false);
  // On a narrow viewer the search field hides behind a button (viewer-css.ts); open here.
  const $searchOpen = signal(false);
  const $markdown = signal<MarkdownState>(null);
  const $downloading = signal(false);
  const $downloadError = signal('');
  const $startPage = signal(start.startPage);
  const $highlight = signal(start.highlight);

  let source: ViewerSource<D> | null = null;
  let layout: ColumnLayout | null = null;
  let pageTexts: PageText[] | null = null;
  /** The page whose cited box or current match the view should bring into view when it has its rectangle. */
  let pendingFocus: number | null = null;
  // Where a jump wants the view to stay while page sizes settle (placeholders take the first
  // page's size until each page is measured); dropped when the user scrolls by hand.
  let anchor: { page: number; delta: number } | null = null;
  /** The page the document opened at (the first boxes are laid out around it). */
  let startAt = 1;
  let laidOutDocument: D | null = null;
  let lastScale = 0;
  let lastStart = start.startPage;
  /** Ends the timers and late answers of the current document. */
  let closeDocument = () => {};
  /** What the first drawn page of the current document starts. */
  let firstDrawn = () => {};

  const $document = computed(() => {
    const load = $load.value;
    return load.state === 'pdf' ? load.document : null;
  });
  const $numPages = computed(() => $document.value?.numPages ?? 0);
  const $firstSize = computed(() => $sizes.value.get(1) ?? LETTER);
  const $scale = computed(() => {
    const zoom = $zoom.value;
    if (typeof zoom === 'number') return zoom;
    const { width, height } = $viewSize.value;
    const first = $firstSize.value;
    const w = Math.max(100, width - 32) / first.width;
    if (zoom === 'fit-width' || height === 0) return Math.round(Math.min(w, 5) * 1000) / 1000;
    const h = Math.max(100, height - PAGE_GAP) / first.height;
    return Math.round(Math.min(w, h, 5) * 1000) / 1000;
  });
  const $isImage = computed(() => $load.value.state === 'image');
  const $zoomPercent = computed(() => {
    const image = $imageScale.value;
    return Math.round(($isImage.value ? (image === 'fit' ? 1 : image) : $scale.value) * 100);
  });
  /** Which fit button is pressed. */
  const $fit = computed<'fit-width' | 'fit-page' | null>(() => {
    if ($isImage.value) return $imageScale.value === 'fit' ? 'fit-width' : null;
    const zoom = $zoom.value;
    return typeof zoom === 'number' ? null : zoom;
  });
  const $visiblePending = computed(() => [...$visible.value].some((n) => !$drawn.value.has(n)));
  /** The pages to render now: near the view, and visible themselves or no visible page still waiting (visible pages go first). */
  const $rendering = computed<ReadonlySet<number>>(() => {
    const drawn = $drawn.value;
    const visible = $visible.value;
    const pending = $visiblePending.value;
    return new Set([...$near.value].filter((n) => visible.has(n) || drawn.has(n) || !pending));
  });
  const $matchesByPage = computed(() => {
    const map = new Map<number, Match[]>();
    for (const m of $search.value?.matches ?? []) map.set(m.page, [...(map.get(m.page) ?? []), m]);
    return map;
  });
  const $currentMatch = computed(() => {
    const s = $search.value;
    return s?.matches[s.index] ?? null;
  });
  /** The cited box and its page (the page the viewer was opened at). */
  const $citation = computed<{ page: number; box: PdfBox } | null>(() => {
    const box = parseHighlight($highlight.value);
    return box ? { page: clampPage($startPage.value ?? 1, $numPages.value) ?? 1, box } : null;
  });
  const $column = computed<Column | null>(() => {
    const numPages = $numPages.value;
    const { width, height } = $viewSize.value;
    if (!$document.value || width === 0) return null;
    const scale = $scale.value;
    const first = $firstSize.value;
    const sizes = $sizes.value;
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

  const readOutline = (document: D, live: () => boolean) =>
    void document.outline().then(
      (o) => {
        if (live() && o) $outline.value = o;
      },
      () => undefined,
    );

  async function runSearch(q: string, dir: 1 | -1) {
    const document = $document.peek();
    if (!document || !q.trim()) {
      $search.value = null;
      return;
    }
    const current = $search.peek();
    if (current && current.query === q && current.matches.length > 0) {
      const index = (current.index + dir + current.matches.length) % current.matches.length;
      $search.value = { ...current, index };
      const m = current.matches[index]!;
      pendingFocus = m.page;
      goToPage(m.page);
      return;
    }
    $searching.value = true;
    try {
      if (!pageTexts) {
        const texts: PageText[] = [];
        for (let n = 1; n <= document.numPages; n++) texts.push(await document.pageText(n));
        if ($document.peek() !== document) return;
        pageTexts = texts;
      }
      const matches = findMatches(pageTexts, q);
      $search.value = { query: q, matches, index: 0 };
      const m = matches[0];
      if (m) {
        pendingFocus = m.page;
        goToPage(m.page);
      }
    } finally {
      $searching.value = false;
    }
  }

  function loadMarkdown() {
    const read = source?.markdown;
    if (!$markdownOpen.peek() || $markdown.peek() || !read) return;
    const from = source;
    $markdown.value = { state: 'loading' };
    read().then(
      (text) => {
        if (source === from) $markdown.value = { state: 'done', text };
      },
      (error: unknown) => {
        if (source === from) $markdown.value = { state: 'error', message: deps.fail(error, 'markdown_failed') };
      },
    );
  }

  return {
    $record: $record as ReadonlySignal<KbDocument | null>,
    $load: $load as ReadonlySignal<ViewerLoad<D>>,
    $document,
    $numPages,
    $zoom: $zoom as ReadonlySignal<Zoom>,
    $imageScale: $imageScale as ReadonlySignal<number | 'fit'>,
    $scale,
    $zoomPercent,
    $fit,
    $viewSize: $viewSize as ReadonlySignal<{ width: number; height: number }>,
    $sizes: $sizes as ReadonlySignal<ReadonlyMap<number, PageSize>>,
    $firstSize,
    $drawn: $drawn as ReadonlySignal<ReadonlySet<number>>,
    $rendering,
    $allPages: $allPages as ReadonlySignal<boolean>,
    $column,
    $page: $page as ReadonlySignal<number>,
    $pageInput: $pageInput as ReadonlySignal<string>,
    $query: $query as ReadonlySignal<string>,
    $search: $search as ReadonlySignal<SearchState | null>,
    $searching: $searching as ReadonlySignal<boolean>,
    $searchOpen: $searchOpen as ReadonlySignal<boolean>,
    $matchesByPage,
    $currentMatch,
    $citation,
    $outline: $outline as ReadonlySignal<OutlineNode[]>,
    $outlineOpen: $outlineOpen as ReadonlySignal<boolean>,
    $markdown: $markdown as ReadonlySignal<MarkdownState>,
    $markdownOpen: $markdownOpen as ReadonlySignal<boolean>,
    $downloading: $downloading as ReadonlySignal<boolean>,
    $downloadError: $downloadError as ReadonlySignal<string>,

    /**
     * Shows a document (`null`: there is none to show, with the message to say so). Returns the
     * function that stops its load and lets it go.
     */
    open(next: ViewerSource<D> | null, noDocument = ''): () => void {
      closeDocument();
      const abort = new AbortController();
      let live = true;
      const timers: ReturnType<typeof setTimeout>[] = [];
      let opened: D | undefined;
      closeDocument = () => {
        live = false;
        abort.abort();
        for (const t of timers) clearTimeout(t);
        opened?.close();
        firstDrawn = () => {};
      };
      source = next;
      if (!next) {
        $load.value = { state: 'error', message: noDocument };
        return closeDocument;
      }
      pageTexts = null;
      batch(() => {
        $load.value = { state: 'loading' };
        $record.value = null;
        $search.value = null;
        $outline.value = [];
        $markdown.value = null;
        $sizes.value = new Map();
        $near.value = new Set();
        $visible.value = new Set();
        $drawn.value = new Set();
        $allPages.value = false;
      });
      loadMarkdown();
      void (async () => {
        let result: Opened<D>;
        try {
          result = await next.open(abort.signal, (r) => {
            if (live) $record.value = r;
          });
        } catch (error) {
          if (live) $load.value = { state: 'error', message: deps.fail(error, 'load_failed') };
          return;
        }
        if (result.state === 'pdf') {
          if (!live) {
            result.document.close();
            return;
          }
          opened = result.document;
        }
        if (!live) return;
        if (result.state !== 'pdf') {
          $load.value = result;
          return;
        }
        const { document, firstPage } = result;
        const target = clampPage($startPage.peek() ?? 1, document.numPages) ?? 1;
        pendingFocus = parseHighlight($highlight.peek()) ? target : null;
        startAt = target;
        // The start page renders in the commit that lays the pages out, before the view's
        // observers have said anything (they take over at the next frame).
        batch(() => {
          $sizes.value = new Map([[1, firstPage]]);
          showPageNumber(target);
          $near.value = new Set([target]);
          $visible.value = new Set([target]);
          $load.value = { state: 'pdf', document };
        });
        // The full column once the start page is drawn (rendered), or after a while whatever
        // happened to it; the outline likewise (the worker would otherwise build it between the
        // start page's operator lists).
        let outlineRead = false;
        const outline = () => {
          if (outlineRead || !live) return;
          outlineRead = true;
          readOutline(document, () => live);
        };
        timers.push(setTimeout(() => live && ($allPages.value = true), COLUMN_FALLBACK_MS));
        timers.push(setTimeout(outline, OUTLINE_FALLBACK_MS));
        firstDrawn = () => {
          // In a task of its own: the update that marks the page drawn starts the next pages first.
          timers.push(setTimeout(() => live && ($allPages.value = true), 0));
          outline();
        };
      })();
      return closeDocument;
    },

    /** The view's column of pages (null when it goes). */
    attach(column: ColumnLayout | null) {
      layout = column;
    },
    /** The scrolling box's size changed. */
    resized(width: number, height: number) {
      const cur = $viewSize.peek();
      if (cur.width !== width || cur.height !== height) $viewSize.value = { width, height };
    },
    /** Page `n` was measured. */
    pageSize(n: number, size: PageSize) {
      const prev = $sizes.peek().get(n);
      if (prev?.width === size.width && prev.height === size.height) return;
      $sizes.value = new Map($sizes.peek()).set(n, size);
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
    /** The `page` and `highlight` attributes; a later page goes there (the first one is where the document opens). */
    target(startPage: number | undefined, highlight: string | undefined) {
      batch(() => {
        $startPage.value = startPage;
        $highlight.value = highlight;
      });
    },
    /** Goes to the `page` attribute when it changed since the document opened at it. */
    followStartPage() {
      const startPage = $startPage.peek();
      if (!$document.peek() || lastStart === startPage) return;
      lastStart = startPage;
      if (startPage) goToPage(startPage);
    },

    zoomIn() {
      if ($isImage.peek()) {
        const s = $imageScale.peek();
        $imageScale.value = stepZoom(s === 'fit' ? 1 : s, 1);
      } else $zoom.value = stepZoom($scale.peek(), 1);
    },
    zoomOut() {
      if ($isImage.peek()) {
        const s = $imageScale.peek();
        $imageScale.value = stepZoom(s === 'fit' ? 1 : s, -1);
      } else $zoom.value = stepZoom($scale.peek(), -1);
    },
    fitWidth() {
      if ($isImage.peek()) $imageScale.value = 'fit';
      else $zoom.value = 'fit-width';
    },
    fitPage() {
      $zoom.value = 'fit-page';
    },

    /** Text typed in the search field. */
    typeQuery(text: string) {
      $query.value = text;
    },
    /** Searches `query` (the field's text by default): the next (1) or previous (-1) match of the same query, or the first of a new one. */
    search(dir: 1 | -1, query = $query.peek()): Promise<void> {
      return runSearch(query, dir);
    },
    toggleSearch() {
      $searchOpen.value = !$searchOpen.peek();
    },
    openSearch() {
      $searchOpen.value = true;
    },
    closeSearch() {
      $searchOpen.value = false;
    },

    toggleOutline() {
      $outlineOpen.value = !$outlineOpen.peek();
    },
    /** Goes to the page an outline entry points at. */
    async goOutline(dest: OutlineNode['dest']) {
      const document = $document.peek();
      if (!document || !dest) return;
      const page = await document.destinationPage(dest);
      if (page !== null) goToPage(page);
    },
    /** Shows or hides the parsed text (read on first show). */
    toggleMarkdown() {
      $markdownOpen.value = !$markdownOpen.peek();
      loadMarkdown();
    },

    /** Downloads the file; a failure is shown beside the toolbar. */
    async download() {
      const save = source?.download;
      if (!save) return;
      batch(() => {
        $downloading.value = true;
        $downloadError.value = '';
      });
      try {
        await save($record.peek());
      } catch (error) {
        $downloadError.value = deps.fail(error, 'download_failed');
      } finally {
        $downloading.value = false;
      }
    },

    /**
     * A key pressed inside the viewer: page navigation and zoom (not while typing in a field),
     * Ctrl/⌘+F opens the search. Returns what happened: `search` (the view focuses the field),
     * `handled`, or null (the key is not the viewer's).
     */
    key(key: string, mods: { ctrl: boolean; inField: boolean }): 'search' | 'handled' | null {
      if (!$document.peek()) return null;
      if (mods.ctrl && key.toLowerCase() === 'f') {
        $searchOpen.value = true;
        return 'search';
      }
      if (mods.inField) return null;
      const page = $page.peek();
      if (key === 'ArrowRight' || key === 'n') goToPage(page + 1);
      else if (key === 'ArrowLeft' || key === 'p') goToPage(page - 1);
      else if (key === 'Home') goToPage(1);
      else if (key === 'End') goToPage($numPages.peek());
      else if (key === '+' || key === '=') $zoom.value = stepZoom($scale.peek(), 1);
      else if (key === '-') $zoom.value = stepZoom($scale.peek(), -1);
      else return null;
      return 'handled';
    },

    /** Stops the current document's load and timers (the element goes). */
    close() {
      closeDocument();
    },
  };
}

/** The viewer model of documents of type `D`. */
export type ViewerModel<D extends ViewerDocument> = ReturnType<typeof viewerModel<D>>;
