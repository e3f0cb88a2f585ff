// The knowledge view's React side of the core model (src/core/knowledge-model.ts): hooks that read
// the page's shared selection, and one model per element with the element's strings, errors and
// navigation.
import { useEffect, useMemo } from 'react';
import type { TFunction } from 'i18next';
import type { KbFolder } from '../../contract/knowledge';
import type { ApiClient, ApiError } from '../../core/api';
import { createKnowledgeApi } from '../../core/knowledge-api';
import { createKnowledgeModel, knowledgeSelection, type DocSource, type KnowledgeModel } from '../../core/knowledge-model';
import { useSignalValue } from '../shared/use-signal';

export { useSignalValue };

/** Makes a folder the current one (or none). */
export const selectFolder = (folder: KbFolder | null) => knowledgeSelection().selectFolder(folder);
/** Asks every folder list on the page to load again. */
export const refreshFolders = () => knowledgeSelection().refreshFolders();

/** The folder shown in the main list (SPEC §3 now_knowledge), or null. */
export function useCurrentFolder(): KbFolder | null {
  return useSignalValue(knowledgeSelection().$folder);
}

/** What the main list shows: a folder, the documents shared with me, all my documents, or nothing. */
export function useDocSource(): DocSource | null {
  return useSignalValue(knowledgeSelection().$source);
}

/** The element's knowledge model, bound to its API client (`api-base`, `csai-error`), strings and navigation. */
export function useKnowledgeModel({ client, t, onError, navigate }: {
  client: ApiClient;
  t: TFunction;
  onError: (error: ApiError) => void;
  navigate: (path: string) => void;
}): KnowledgeModel {
  return useMemo(() => {
    const api = createKnowledgeApi(client);
    return createKnowledgeModel({
      api,
      t: (key, options) => t(key, options),
      onError,
      navigate,
      upload: ({ folderId, files, onProgress }) => api.upload(folderId, files, onProgress),
    });
  }, [client, t, onError, navigate]);
}

/** Runs the model's list loading while the component is shown. */
export function useWatch(model: KnowledgeModel): void {
  useEffect(() => model.watch(), [model]);
}
