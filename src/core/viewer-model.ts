// The document viewer's state and verbs (<csai-pdf-viewer>), composed of its parts, each with its
// own signals: the document (viewer-document.ts: source, record, load, the page and cited box
// asked for, download), zoom (viewer-zoom.ts), pages (viewer-pages.ts: the page in view, jumps,
// which pages render, the column), search (viewer-search.ts) and the panels (viewer-panels.ts:
// outline, parsed text). Framework-free: the element's view renders these signals and hands in
// what only the page knows through two ports — the opened document (ViewerDocument: page texts,
// outline) and the column of pages on screen (ColumnLayout). Loading the record and the bytes is
// the view's (ViewerSource): no network here.
import { viewerDocument } from './viewer-document';
import { viewerPages } from './viewer-pages';
import { viewerPanels } from './viewer-panels';
import { viewerSearch } from './viewer-search';
import type { ViewerDeps, ViewerDocument, ViewerSource } from './viewer-types';
import { viewerZoom } from './viewer-zoom';

export * from './viewer-types';

/** The whole column is laid out this long after opening even if the start page is not drawn yet. */
const COLUMN_FALLBACK_MS = 1500;
/** The outline is read this long after opening even if no page is drawn yet. */
const OUTLINE_FALLBACK_MS = 2000;

/**
 * The viewer of one element: call `open` with each document it shows.
 *
 * @example
 * const viewer = viewerModel({ fail: (e) => String(e) }, { startPage: 3, highlight: '10,10,90,40' });
 * const stop = viewer.open(source);
 * viewer.zoomIn(); viewer.search(1);
 */
export function viewerModel<D extends ViewerDocument>(deps: ViewerDeps, start: { startPage?: number; highlight?: string } = {}) {
  const document = viewerDocument<D>(deps, start);
  const zoom = viewerZoom({ $isImage: document.$isImage });
  const pages = viewerPages<D>({ $document: document.$document, $numPages: document.$numPages, zoom });
  const search = viewerSearch<D>({ $document: document.$document, focusPage: pages.focusPage });
  const panels = viewerPanels<D>({ deps, $document: document.$document, source: document.source, goToPage: pages.goToPage });
  const { open: openDocument, changedStartPage, hasCitation, source: _source, $isImage: _isImage, ...documentPart } = document;
  const { measuredFirst: _measuredFirst, stepPages, ...zoomPart } = zoom;
  const { clear: _clearPages, openAt: _openAt, layOutAll: _layOutAll, whenFirstDrawn: _whenFirstDrawn, focusPage: _focusPage, ...pagesPart } = pages;
  const { forgetTexts: _forgetTexts, clear: _clearSearch, ...searchPart } = search;
  const { clear: _clearPanels, loadMarkdown: _loadMarkdown, readOutline: _readOutline, ...panelsPart } = panels;

  return {
    ...documentPart,
    ...zoomPart,
    ...pagesPart,
    ...searchPart,
    ...panelsPart,

    /**
     * Shows a document (`null`: there is none to show, with the message to say so). Returns the
     * function that stops its load and lets it go.
     */
    open: (next: ViewerSource<D> | null, noDocument = '') =>
      openDocument(next, noDocument, {
        clear() {
          search.forgetTexts();
          search.clear();
          panels.clear();
          zoom.measuredFirst();
          pages.clear();
        },
        started: panels.loadMarkdown,
        show(opened, firstPage, target) {
          zoom.measuredFirst(firstPage);
          pages.openAt(target, hasCitation());
        },
        // The full column once the start page is drawn (rendered), or after a while whatever
        // happened to it; the outline likewise (the worker would otherwise build it between the
        // start page's operator lists).
        shown(opened, life) {
          let outlineRead = false;
          const outline = () => {
            if (outlineRead || !life.live()) return;
            outlineRead = true;
            panels.readOutline(opened, life.live);
          };
          life.later(pages.layOutAll, COLUMN_FALLBACK_MS);
          life.later(outline, OUTLINE_FALLBACK_MS);
          pages.whenFirstDrawn(() => {
            // In a task of its own: the update that marks the page drawn starts the next pages first.
            life.later(pages.layOutAll, 0);
            outline();
          });
          life.onClose(() => pages.whenFirstDrawn(() => {}));
        },
      }),
    /** Goes to the `page` attribute when it changed since the document opened at it. */
    followStartPage() {
      const page = changedStartPage();
      if (page) pages.goToPage(page);
    },

    /**
     * A key pressed inside the viewer: page navigation and zoom (not while typing in a field),
     * Ctrl/⌘+F opens the search. Returns what happened: `search` (the view focuses the field),
     * `handled`, or null (the key is not the viewer's).
     */
    key(key: string, mods: { ctrl: boolean; inField: boolean }): 'search' | 'handled' | null {
      if (!document.$document.peek()) return null;
      if (mods.ctrl && key.toLowerCase() === 'f') {
        search.openSearch();
        return 'search';
      }
      if (mods.inField) return null;
      const page = pages.$page.peek();
      if (key === 'ArrowRight' || key === 'n') pages.goToPage(page + 1);
      else if (key === 'ArrowLeft' || key === 'p') pages.goToPage(page - 1);
      else if (key === 'Home') pages.goToPage(1);
      else if (key === 'End') pages.goToPage(document.$numPages.peek());
      else if (key === '+' || key === '=') stepPages(1);
      else if (key === '-') stepPages(-1);
      else return null;
      return 'handled';
    },
  };
}

/** The viewer model of documents of type `D`. */
export type ViewerModel<D extends ViewerDocument> = ReturnType<typeof viewerModel<D>>;
