// The document viewer's side panels: the PDF's outline (read once the start page is drawn, so the
// worker does not build it between that page's operator lists) and the parsed text (read the
// first time it is shown).
import { signal, type ReadonlySignal } from '@preact/signals-core';
import type { MarkdownState, OutlineNode, ViewerDeps, ViewerDocument, ViewerSource } from './viewer-types';

/** The panels of one viewer; `source` is the document's source now (the markdown is read from it). */
export function viewerPanels<D extends ViewerDocument>({ deps, $document, source, goToPage }: {
  deps: ViewerDeps;
  $document: ReadonlySignal<D | null>;
  source: () => ViewerSource<D> | null;
  goToPage: (n: number) => void;
}) {
  const $outline = signal<OutlineNode[]>([]);
  const $outlineOpen = signal(false);
  const $markdownOpen = signal(false);
  const $markdown = signal<MarkdownState>(null);

  /** Reads the parsed text when its panel is open and it has not been read for this document. */
  function loadMarkdown() {
    const from = source();
    const read = from?.markdown;
    if (!$markdownOpen.peek() || $markdown.peek() || !read) return;
    $markdown.value = { state: 'loading' };
    read().then(
      (text) => {
        if (source() === from) $markdown.value = { state: 'done', text };
      },
      (error: unknown) => {
        if (source() === from) $markdown.value = { state: 'error', message: deps.fail(error, 'markdown_failed') };
      },
    );
  }

  return {
    $outline: $outline as ReadonlySignal<OutlineNode[]>,
    $outlineOpen: $outlineOpen as ReadonlySignal<boolean>,
    $markdown: $markdown as ReadonlySignal<MarkdownState>,
    $markdownOpen: $markdownOpen as ReadonlySignal<boolean>,

    /** Another document: no outline and no parsed text yet (inside the batch that starts its load). */
    clear() {
      $outline.value = [];
      $markdown.value = null;
    },
    loadMarkdown,
    /** Reads the outline of `document`, kept while `live()` (the document is still the one shown). */
    readOutline(document: D, live: () => boolean) {
      void document.outline().then(
        (o) => {
          if (live() && o) $outline.value = o;
        },
        () => undefined,
      );
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
  };
}
