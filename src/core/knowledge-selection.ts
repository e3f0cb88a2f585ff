// Which folder or document list one page's knowledge parts show (SPEC §3 now_knowledge, folder_id,
// folder_name, folder_file_count), shared by the sidebar, the main list and the question box.
import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { kbFolder, type KbFolder } from '../contract/knowledge';
import type { FolderSortKey } from './knowledge-api';
import { statusStore, type StatusStore } from './status-store';

/** The document lists that are not one folder: shared with me one by one, and all of mine. */
export type DocumentView = 'shared_docs' | 'all_docs';
/** What the main list shows: a folder's documents, or one of the {@link DocumentView}s. */
export type DocSource = { kind: 'folder'; folder: KbFolder } | { kind: DocumentView };

/**
 * What the parts of one page share: the current folder (SPEC §3 now_knowledge, folder_id,
 * folder_name, folder_file_count in the status store) or document view, the sidebar's search and
 * sort, and a counter that asks every folder list to load again.
 */
export function createKnowledgeSelection(store: StatusStore) {
  const k = store.knowledge;
  const $view = signal<DocumentView | null>(null);
  const $folder: ReadonlySignal<KbFolder | null> = computed(() => {
    const parsed = kbFolder.safeParse(k.$now_knowledge.value);
    return parsed.success ? parsed.data : null;
  });
  const $source: ReadonlySignal<DocSource | null> = computed(() => {
    const view = $view.value;
    if (view) return { kind: view };
    const folder = $folder.value;
    return folder ? { kind: 'folder', folder } : null;
  });
  /** Changes only when another folder or view is chosen (not when the folder's count changes). */
  const $sourceKey = computed(() => {
    const s = $source.value;
    return s === null ? '' : s.kind === 'folder' ? `folder:${s.folder.id}` : s.kind;
  });
  const $foldersVersion = signal(0);
  const selectFolder = (folder: KbFolder | null) =>
    batch(() => {
      $view.value = null;
      k.$now_knowledge.value = folder;
      k.$folder_id.value = folder?.id ?? '';
      k.$folder_name.value = folder?.name ?? '';
      k.$folder_file_count.value = folder?.doc_count ?? 0;
    });
  return {
    $view,
    $folder,
    $source,
    $sourceKey,
    /** Bumped after any change to a folder list (create, rename, delete, share, upload). */
    $foldersVersion,
    /** The sidebar's search text, shared by `sidebar_header` and `sidebar_content`. */
    $folderSearch: signal(''),
    $folderSort: signal<FolderSortKey>('-createTime'),
    /** Makes a folder the current one (or none): now_knowledge, folder_id, folder_name, folder_file_count. */
    selectFolder,
    /** Shows documents shared with me, or all of mine, instead of a folder. */
    openView(view: DocumentView) {
      batch(() => {
        selectFolder(null);
        $view.value = view;
      });
    },
    /** Asks every folder list on the page to load again. */
    refreshFolders() {
      $foldersVersion.value += 1;
    },
  };
}
/** The shared knowledge selection of a page. */
export type KnowledgeSelection = ReturnType<typeof createKnowledgeSelection>;

let pageSelection: KnowledgeSelection | undefined;
/** The page's one knowledge selection, over the page's status store. */
export function knowledgeSelection(): KnowledgeSelection {
  return (pageSelection ??= createKnowledgeSelection(statusStore()));
}
