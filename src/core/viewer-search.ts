// The document viewer's search: the query typed, every match over the document's page texts
// (read once per document), the current match brought into view, and the field that a narrow
// viewer hides behind a button.
import { computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { findMatches, type Match, type PageText } from './viewer-geometry';
import type { SearchState, ViewerDocument } from './viewer-types';

/** The search of one viewer over the document in `$document`; `focusPage` goes to a match's page and brings it into view. */
export function viewerSearch<D extends ViewerDocument>({ $document, focusPage }: { $document: ReadonlySignal<D | null>; focusPage: (n: number) => void }) {
  const $query = signal('');
  const $search = signal<SearchState | null>(null);
  const $searching = signal(false);
  // On a narrow viewer the search field hides behind a button (viewer-css.ts); open here.
  const $searchOpen = signal(false);
  let pageTexts: PageText[] | null = null;

  const $matchesByPage = computed(() => {
    const map = new Map<number, Match[]>();
    for (const m of $search.value?.matches ?? []) map.set(m.page, [...(map.get(m.page) ?? []), m]);
    return map;
  });
  const $currentMatch = computed(() => {
    const s = $search.value;
    return s?.matches[s.index] ?? null;
  });

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
      focusPage(current.matches[index]!.page);
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
      if (m) focusPage(m.page);
    } finally {
      $searching.value = false;
    }
  }

  return {
    $query: $query as ReadonlySignal<string>,
    $search: $search as ReadonlySignal<SearchState | null>,
    $searching: $searching as ReadonlySignal<boolean>,
    $searchOpen: $searchOpen as ReadonlySignal<boolean>,
    $matchesByPage,
    $currentMatch,

    /** Another document: its page texts are read anew at its first search. */
    forgetTexts() {
      pageTexts = null;
    },
    /** No search (inside the batch that starts a new document's load). */
    clear() {
      $search.value = null;
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
  };
}
