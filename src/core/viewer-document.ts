// The document viewer's document: its source, record and load (open, stop, let go), the page and
// cited box it was asked to open at (the `page` and `highlight` attributes), and its download.
// What the other parts do when a document comes or goes is handed in (`OpenSteps`).
import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import type { KbDocument } from '../contract/knowledge';
import { clampPage, parseHighlight, type PdfBox } from './viewer-geometry';
import type { Opened, PageSize, ViewerDeps, ViewerDocument, ViewerLoad, ViewerSource } from './viewer-types';

/** The life of one opened document: its timers and closers end with it. */
export interface DocumentLife {
  live(): boolean;
  /** Runs `run` after `ms` unless the document went meanwhile. */
  later(run: () => void, ms: number): void;
  /** Runs `run` when the document goes. */
  onClose(run: () => void): void;
}

/** What the rest of the viewer does as a document opens. */
export interface OpenSteps<D extends ViewerDocument> {
  /** Inside the batch that starts the load: the other parts forget the previous document. */
  clear(): void;
  /** Right after that batch (the parsed-text panel may read at once). */
  started(): void;
  /** Inside the batch that shows a PDF at page `target` (its first page measured as `firstPage`). */
  show(document: D, firstPage: PageSize, target: number): void;
  /** After the PDF shows, for what waits on its life. */
  shown(document: D, life: DocumentLife): void;
}

/** The document part of one viewer, opened at `start` (the attributes when the element came). */
export function viewerDocument<D extends ViewerDocument>(deps: ViewerDeps, start: { startPage?: number; highlight?: string }) {
  const $record = signal<KbDocument | null>(null);
  const $load = signal<ViewerLoad<D>>({ state: 'idle' });
  const $downloading = signal(false);
  const $downloadError = signal('');
  const $startPage = signal(start.startPage);
  const $highlight = signal(start.highlight);

  let source: ViewerSource<D> | null = null;
  let lastStart = start.startPage;
  /** Ends the timers and late answers of the current document. */
  let closeDocument = () => {};

  const $document = computed(() => {
    const load = $load.value;
    return load.state === 'pdf' ? load.document : null;
  });
  const $numPages = computed(() => $document.value?.numPages ?? 0);
  const $isImage = computed(() => $load.value.state === 'image');
  /** The cited box and its page (the page the viewer was opened at). */
  const $citation = computed<{ page: number; box: PdfBox } | null>(() => {
    const box = parseHighlight($highlight.value);
    return box ? { page: clampPage($startPage.value ?? 1, $numPages.value) ?? 1, box } : null;
  });

  return {
    $record: $record as ReadonlySignal<KbDocument | null>,
    $load: $load as ReadonlySignal<ViewerLoad<D>>,
    $document,
    $numPages,
    $isImage,
    $citation,
    $downloading: $downloading as ReadonlySignal<boolean>,
    $downloadError: $downloadError as ReadonlySignal<string>,

    /** The source of the document shown (null: none). */
    source: () => source,

    /**
     * Shows a document (`null`: there is none to show, with the message to say so). Returns the
     * function that stops its load and lets it go.
     */
    open(next: ViewerSource<D> | null, noDocument: string, steps: OpenSteps<D>): () => void {
      closeDocument();
      const abort = new AbortController();
      let live = true;
      const timers: ReturnType<typeof setTimeout>[] = [];
      const closers: (() => void)[] = [];
      let opened: D | undefined;
      closeDocument = () => {
        live = false;
        abort.abort();
        for (const t of timers) clearTimeout(t);
        opened?.close();
        for (const run of closers) run();
      };
      source = next;
      if (!next) {
        $load.value = { state: 'error', message: noDocument };
        return closeDocument;
      }
      const life: DocumentLife = {
        live: () => live,
        later: (run, ms) => void timers.push(setTimeout(() => live && run(), ms)),
        onClose: (run) => void closers.push(run),
      };
      batch(() => {
        $load.value = { state: 'loading' };
        $record.value = null;
        steps.clear();
      });
      steps.started();
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
        batch(() => {
          steps.show(document, firstPage, target);
          $load.value = { state: 'pdf', document };
        });
        steps.shown(document, life);
      })();
      return closeDocument;
    },

    /** Whether the document was asked for with a cited box (brought into view when its page shows). */
    hasCitation: () => parseHighlight($highlight.peek()) !== null,
    /** The `page` and `highlight` attributes; a later page goes there (the first one is where the document opens). */
    target(startPage: number | undefined, highlight: string | undefined) {
      batch(() => {
        $startPage.value = startPage;
        $highlight.value = highlight;
      });
    },
    /** The `page` attribute when it changed since the document opened at it (null: it did not). */
    changedStartPage(): number | null {
      const startPage = $startPage.peek();
      if (!$document.peek() || lastStart === startPage) return null;
      lastStart = startPage;
      return startPage ?? null;
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

    /** Stops the current document's load and timers (the element goes). */
    close() {
      closeDocument();
    },
  };
}
