// The knowledge view's main list: the documents of the current folder or view, with search
// (debounced), pages, parse polling and the molecule counts of parsed SDF documents.
import { batch, effect, signal } from '@preact/signals-core';
import { ApiError } from './api';
import { moleculeCount, type DocPage } from './knowledge-api';
import { PARSE_POLL_MS, SEARCH_DEBOUNCE_MS, type KnowledgeContext } from './knowledge-context';

/**
 * The main list of one element. `watch()` loads it whenever the source, page, search or a change
 * asks for it and returns the function that stops that.
 * @example const list = createKnowledgeList(ctx); const stop = list.watch(); list.setPage(2);
 */
export function createKnowledgeList({ api, selection, report, $reload }: KnowledgeContext) {
  const $page = signal(1);
  const $search = signal('');
  const $docs = signal<DocPage | null | 'error'>(null);
  const $molecules = signal<Record<string, number>>({});

  /** Loads the list for the current source, page and search; again every second while one is parsing. */
  const load = (abort: AbortController, first: { value: boolean }) => {
    const source = selection.$source.peek();
    if (!source) return;
    const query = { page: $page.peek(), search: $search.peek().trim() || undefined };
    const request =
      source.kind === 'folder' ? api.docs(source.folder.id, query, abort.signal)
      : source.kind === 'shared_docs' ? api.sharedDocs(query, abort.signal)
      : api.allDocs(query, abort.signal);
    request.then(
      (result) => {
        if (abort.signal.aborted) return;
        $docs.value = result;
        countMolecules(result);
        // The next poll; once the list is given up (another folder, page, search) it asks nothing.
        if (result.items.some((d) => d.parseStatus === 1)) setTimeout(() => abort.signal.aborted || load(abort, first), PARSE_POLL_MS);
        else if (!first.value) selection.refreshFolders(); // parsing finished: counts beside the folders
        first.value = false;
      },
      (err: unknown) => {
        if (abort.signal.aborted) return;
        $docs.value = 'error';
        report(err);
        // The folder is gone or no longer readable (deleted, share withdrawn, another user).
        if (source.kind === 'folder' && err instanceof ApiError && (err.status === 403 || err.status === 404)) {
          selection.selectFolder(null);
          selection.refreshFolders();
        }
      },
    );
  };

  /** SDF documents: the molecule count from their parsed text. */
  const countMolecules = (page: DocPage) => {
    for (const d of page.items) {
      if (d.type !== 5 || d.parseStatus !== 2 || d.docId in $molecules.peek()) continue;
      api.markdown(d.docId).then(
        (md) => {
          const n = moleculeCount(md.markdown);
          if (n !== null) $molecules.value = { ...$molecules.peek(), [d.docId]: n };
        },
        () => undefined,
      );
    }
  };

  return {
    $page,
    $search,
    /** The listed page: null while loading, 'error' when it failed. */
    $docs,
    /** Molecule counts of parsed SDF documents, by docId. */
    $molecules,
    /**
     * Loads the list whenever the source, page, search or a change asks for it (a typed search
     * after {@link SEARCH_DEBOUNCE_MS}) and polls while a document parses; another source starts
     * from page 1 without a search. Returns the function that stops all of it.
     */
    watch(): () => void {
      let lastKey = selection.$sourceKey.peek();
      const stopReset = effect(() => {
        const key = selection.$sourceKey.value;
        if (key === lastKey) return;
        lastKey = key;
        batch(() => {
          $page.value = 1;
          $search.value = '';
          $docs.value = null;
        });
      });
      const stopLoad = effect(() => {
        // Each is read to subscribe: any of them changing loads the list again.
        const wanted = { source: selection.$sourceKey.value, page: $page.value, reload: $reload.value, search: $search.value };
        const abort = new AbortController();
        const debounce = setTimeout(() => load(abort, { value: true }), wanted.search ? SEARCH_DEBOUNCE_MS : 0);
        return () => {
          clearTimeout(debounce);
          abort.abort();
        };
      });
      return () => {
        stopReset();
        stopLoad();
      };
    },

    /** A new search text; the list goes back to page 1. */
    setSearch(text: string) {
      batch(() => {
        $search.value = text;
        $page.value = 1;
      });
    },
    setPage(page: number) {
      $page.value = page;
    },
    /** Loads the list again (after a failure). */
    reload() {
      $reload.value += 1;
    },

  };
}
/** The main list of a knowledge element. */
export type KnowledgeList = ReturnType<typeof createKnowledgeList>;
