import { signal, type Signal } from '@preact/signals-core';
import { MOLECULE_SEARCH_LIMITS, molSearchResult, type MoleculeSearchMode, type MolSearchResult } from '../contract/molecules';
import { ApiError, type ApiClient } from './api';

/** The molecule search screen's state: the query as typed or drawn, the mode, and the last answer. */
export interface MoleculeSearchModel {
  $query: Signal<string>;
  $mode: Signal<MoleculeSearchMode>;
  /** Tanimoto threshold of a similarity search, 0–1. */
  $threshold: Signal<number>;
  $topK: Signal<number>;
  $busy: Signal<boolean>;
  $result: Signal<MolSearchResult | null>;
  /** The server's message for a refused query (Chinese), or ''. */
  $error: Signal<string>;
  /** Runs the search; a newer search makes an older answer be dropped. */
  search(): Promise<void>;
  /** Sets the query from the chemical editor (a drawn structure's SMILES). */
  useDrawn(smiles: string): void;
}

/**
 * A molecule search model over the page's API client (`POST /mol/search`).
 * @example const model = moleculeSearchModel(api()); model.$query.value = 'c1ccccc1'; await model.search();
 */
export function moleculeSearchModel(client: ApiClient): MoleculeSearchModel {
  const $query = signal('');
  const $mode = signal<MoleculeSearchMode>('substructure');
  const $threshold = signal<number>(MOLECULE_SEARCH_LIMITS.defaultThreshold);
  const $topK = signal<number>(MOLECULE_SEARCH_LIMITS.defaultTopK);
  const $busy = signal(false);
  const $result = signal<MolSearchResult | null>(null);
  const $error = signal('');
  let current: AbortController | undefined;

  return {
    $query,
    $mode,
    $threshold,
    $topK,
    $busy,
    $result,
    $error,
    useDrawn(smiles) {
      $query.value = smiles.trim();
    },
    async search() {
      current?.abort();
      const controller = new AbortController();
      current = controller;
      $busy.value = true;
      $error.value = '';
      const body = {
        query: $query.value,
        mode: $mode.value,
        top_k: $topK.value,
        ...($mode.value === 'similarity' ? { threshold: $threshold.value } : {}),
      };
      try {
        const result = await client.post('/mol/search', body, molSearchResult, { signal: controller.signal, quiet: true });
        if (current !== controller) return;
        $result.value = result;
      } catch (err) {
        if (current !== controller || (err instanceof ApiError && err.code === 'aborted')) return;
        $result.value = null;
        $error.value = err instanceof Error ? err.message : String(err);
      } finally {
        if (current === controller) $busy.value = false;
      }
    },
  };
}
