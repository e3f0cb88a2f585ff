// The recognised structures of the document in the viewer: shown as boxes on their
// pages (toggleable), one opened in the review panel beside its drawing, and a reader's
// correction saved (PUT) and put in place of the old row. Framework-free: the viewer's view
// renders these signals.
import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { ApiError } from './api';
import type { DocStructure, StructuresApi } from './structures-api';

/** A correction's state: idle, saving, or the server's message for a refused structure. */
export type CorrectionState = { state: 'idle' | 'saving' | 'saved' } | { state: 'error'; message: string };

/**
 * The review of one viewer: call `load` with each document it shows.
 *
 * @example
 * const review = structureReview(structuresApi(api()));
 * review.load('d1'); review.select(7); await review.correct('CCO');
 */
export function structureReview(calls: Pick<StructuresApi, 'list' | 'correct'>, start: { structureId?: number } = {}) {
  const $structures = signal<readonly DocStructure[]>([]);
  /** Boxes drawn over the pages (the toolbar's toggle). */
  const $shown = signal(true);
  const $selectedId = signal<number | null>(start.structureId ?? null);
  const $correction = signal<CorrectionState>({ state: 'idle' });
  let docId: string | null = null;
  let abort: AbortController | null = null;

  const $byPage = computed(() => {
    const map = new Map<number, DocStructure[]>();
    for (const s of $structures.value) map.set(s.page, [...(map.get(s.page) ?? []), s]);
    return map as ReadonlyMap<number, readonly DocStructure[]>;
  });
  const $selected = computed(() => $structures.value.find((s) => s.id === $selectedId.value) ?? null);

  return {
    $structures: $structures as ReadonlySignal<readonly DocStructure[]>,
    $byPage,
    $shown: $shown as ReadonlySignal<boolean>,
    $selected,
    $correction: $correction as ReadonlySignal<CorrectionState>,

    /**
     * Reads the structures of a document (null: none shown). A document without any, or one the
     * reader may not list (signed out), shows no boxes: the viewer works as before.
     */
    load(next: string | null): () => void {
      abort?.abort();
      const controller = new AbortController();
      abort = controller;
      docId = next;
      batch(() => {
        $structures.value = [];
        $correction.value = { state: 'idle' };
      });
      if (next) {
        calls.list(next, controller.signal).then(
          (r) => {
            if (!controller.signal.aborted) $structures.value = r.structures;
          },
          () => undefined,
        );
      }
      return () => controller.abort();
    },
    toggleShown() {
      $shown.value = !$shown.peek();
    },
    /** Opens a structure in the panel (null closes it). */
    select(id: number | null) {
      batch(() => {
        $selectedId.value = id;
        $correction.value = { state: 'idle' };
      });
    },
    /** Saves the chemist's structure (SMILES, or a molfile from the editor) for the open one. */
    async correct(input: { smiles: string } | { molfile: string }): Promise<boolean> {
      const current = $selected.peek();
      const doc = docId;
      if (!current || !doc) return false;
      $correction.value = { state: 'saving' };
      try {
        const fresh = await calls.correct(doc, current.id, 'smiles' in input ? { smiles: input.smiles.trim() } : input);
        if (docId !== doc) return false;
        batch(() => {
          $structures.value = $structures.peek().map((s) => (s.id === fresh.id ? fresh : s));
          $correction.value = { state: 'saved' };
        });
        return true;
      } catch (error) {
        if (docId === doc) $correction.value = { state: 'error', message: error instanceof ApiError || error instanceof Error ? error.message : String(error) };
        return false;
      }
    },
  };
}

/** The review model. */
export type StructureReview = ReturnType<typeof structureReview>;
