// What the parts of <csai-knowledge> share on one page: the SPEC §3 knowledge fields of the
// status store (folder_id, folder_name, folder_file_count, now_knowledge, knowledge_folders) and
// two refresh counters, so a folder made in the sidebar header shows in the sidebar content and
// an upload in the main list updates the counts beside the folders.
import { useSyncExternalStore } from 'react';
import { signal, type ReadonlySignal, type Signal } from '@preact/signals-core';
import { kbFolder, type KbFolder } from '../../contract/knowledge';
import { statusStore } from '../../core/status-store';
import type { FolderSortKey } from './knowledge-api';

/** Bumped after any change to a folder list (create, rename, delete, share, upload). */
export const $foldersVersion = signal(0);
/** The sidebar's search text and sort, shared by `sidebar_header` and `sidebar_content`. */
export const $folderSearch = signal('');
export const $folderSort: Signal<FolderSortKey> = signal('-createTime');

/** Reads a signal in a React component and re-renders on change. */
export function useSignalValue<T>($s: ReadonlySignal<T>): T {
  return useSyncExternalStore(
    (onChange) => $s.subscribe(() => onChange()),
    () => $s.value,
  );
}

/** The folder shown in the main list, from the store (SPEC §3 now_knowledge), or null. */
export function useCurrentFolder(): KbFolder | null {
  const raw = useSignalValue(statusStore().knowledge.$now_knowledge);
  const parsed = kbFolder.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Makes a folder the current one (or none): now_knowledge, folder_id, folder_name, folder_file_count. */
export function selectFolder(folder: KbFolder | null): void {
  const k = statusStore().knowledge;
  k.$now_knowledge.value = folder;
  k.$folder_id.value = folder?.id ?? '';
  k.$folder_name.value = folder?.name ?? '';
  k.$folder_file_count.value = folder?.doc_count ?? 0;
}

/** Asks every folder list on the page to load again. */
export function refreshFolders(): void {
  $foldersVersion.value += 1;
}
