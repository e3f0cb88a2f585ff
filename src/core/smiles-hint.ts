import { signal, type ReadonlySignal } from '@preact/signals-core';
import type { SmilesCompletionOutput } from '../contract/names';
import { lazySchema, type ApiClient } from './api';
import { api } from './page';
import { smilesBeingTyped } from './smiles-token';

export { smilesBeingTyped };

/** What the hint shows: the token asked about and the server's completion of it. */
export interface SmilesHint {
  token: string;
  completion: SmilesCompletionOutput;
}

export interface SmilesHintOptions {
  /** Asks the server (default: POST /mol/smiles_completion through the page's API client). */
  complete?: (smiles: string, signal: AbortSignal) => Promise<SmilesCompletionOutput>;
  /** Quiet time after the last keystroke before asking (default 400 ms). */
  delayMs?: number;
}

/** POST /mol/smiles_completion through `client` (an element's own, at its `api-base`). */
export const completeWith = (client: ApiClient) => (smiles: string, signal: AbortSignal) =>
  client.post('/mol/smiles_completion', { smiles }, lazySchema(() => import('../contract/names').then((m) => m.smilesCompletionOutput)), {
    quiet: true,
    redirect: false,
    signal,
  });

const askServer = (smiles: string, signal: AbortSignal) => completeWith(api())(smiles, signal);

/**
 * SMILES completion while a question is typed: debounced, one request at a time
 * (a new keystroke aborts the one in flight), answers for an older text ignored. The hint is shown
 * only for a SMILES that needs repair and has candidates.
 */
export function smilesHintModel({ complete = askServer, delayMs = 400 }: SmilesHintOptions = {}) {
  const $hint = signal<SmilesHint | null>(null);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;
  let latest: string | undefined;
  let dismissed: string | undefined;

  function cancel() {
    clearTimeout(timer);
    timer = undefined;
    inFlight?.abort();
    inFlight = undefined;
  }

  async function ask(token: string) {
    const ctl = new AbortController();
    inFlight = ctl;
    try {
      const completion = await complete(token, ctl.signal);
      // A later keystroke asked for something else: this answer is stale.
      if (ctl.signal.aborted || latest !== token) return;
      $hint.value = !completion.valid && completion.candidates.length > 0 ? { token, completion } : null;
    } catch {
      // A failed hint is no error for the asker: the question can still be sent as typed.
      if (latest === token) $hint.value = null;
    } finally {
      if (inFlight === ctl) inFlight = undefined;
    }
  }

  return {
    $hint: $hint as ReadonlySignal<SmilesHint | null>,
    /** The question's text changed. */
    input(text: string) {
      const token = smilesBeingTyped(text);
      if (token === latest) return;
      latest = token;
      cancel();
      if ($hint.value?.token !== token) $hint.value = null;
      if (!token || token === dismissed) return;
      timer = setTimeout(() => void ask(token), delayMs);
    },
    /** The text with the typed token replaced by a chosen candidate; the hint closes. */
    accept(text: string, smiles: string): string {
      const token = $hint.value?.token;
      cancel();
      $hint.value = null;
      latest = smiles;
      if (!token || !text.endsWith(token)) return text;
      return text.slice(0, text.length - token.length) + smiles;
    },
    /** The asker closed the hint: not offered again for the same token. */
    dismiss() {
      dismissed = $hint.value?.token ?? latest;
      cancel();
      $hint.value = null;
    },
    /** Stops any pending or running request (the component unmounts). */
    dispose() {
      cancel();
      latest = undefined;
    },
  };
}

export type SmilesHintModel = ReturnType<typeof smilesHintModel>;
