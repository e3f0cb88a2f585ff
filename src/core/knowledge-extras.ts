// Two small models beside the knowledge view: translating a document (POST knowledge_base/translate)
// and the documents a conversation used (GET channel/channel_docs/{id}). Framework-free.
import { signal } from '@preact/signals-core';
import type { KbDocument } from '../contract/knowledge';
import { ApiError } from './api';
import type { KnowledgeApi, TranslateLanguage, Translation } from './knowledge-api';

/** Where a translation is: not started, waiting for the model, done, or failed. */
export type TranslationState =
  | { phase: 'idle' }
  | { phase: 'running'; lang: TranslateLanguage }
  | { phase: 'done'; lang: TranslateLanguage; result: Translation }
  | { phase: 'failed'; lang: TranslateLanguage; message: string; code: string };

/** The server's code when no language model is configured (src/server/knowledge/translate.ts). */
export const LLM_NOT_CONFIGURED = 'llm_not_configured';

/**
 * Translates one parsed document: `start(lang)` asks the server (one call; the model may take a
 * minute), `$elapsed` counts the seconds while it works, `cancel()` gives up, `file()` is the
 * result as a markdown file to download.
 * @example const tr = createTranslation(api, doc); await tr.start('en'); tr.$state.value.phase // 'done'
 */
export function createTranslation(api: Pick<KnowledgeApi, 'translate'>, doc: Pick<KbDocument, 'docId' | 'title'>, fallbackMessage = '') {
  const $state = signal<TranslationState>({ phase: 'idle' });
  const $elapsed = signal(0);
  let abort: AbortController | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  const stopTicker = () => clearInterval(ticker);

  return {
    $state,
    /** Whole seconds since the running translation started. */
    $elapsed,
    /** Asks for the translation into `lang`; a running one is given up first. */
    async start(lang: TranslateLanguage): Promise<void> {
      abort?.abort();
      stopTicker();
      const mine = new AbortController();
      abort = mine;
      $state.value = { phase: 'running', lang };
      $elapsed.value = 0;
      const started = Date.now();
      ticker = setInterval(() => ($elapsed.value = Math.floor((Date.now() - started) / 1000)), 1000);
      try {
        const result = await api.translate(doc.docId, lang, mine.signal);
        if (mine.signal.aborted) return;
        $state.value = { phase: 'done', lang, result };
      } catch (err) {
        if (mine.signal.aborted) return;
        const message = err instanceof ApiError ? err.message : fallbackMessage;
        const code = err instanceof ApiError ? err.code : 'unexpected_error';
        $state.value = { phase: 'failed', lang, message: message || fallbackMessage, code };
      } finally {
        if (abort === mine) stopTicker();
      }
    },
    /** Gives up a running translation (the state goes back to idle). */
    cancel() {
      abort?.abort();
      abort = undefined;
      stopTicker();
      $state.value = { phase: 'idle' };
    },
    /** The finished translation as a file named after the document (`综述.en.md`), or null. */
    file(): { blob: Blob; filename: string } | null {
      const s = $state.value;
      if (s.phase !== 'done') return null;
      const stem = doc.title.replace(/\.[^.]+$/, '') || doc.title;
      return { blob: new Blob([s.result.translation], { type: 'text/markdown;charset=utf-8' }), filename: `${stem}.${s.lang}.md` };
    },
  };
}
/** A translation model. */
export type TranslationModel = ReturnType<typeof createTranslation>;

/**
 * The documents a conversation's questions used: ids from GET channel/channel_docs/{id}, then
 * each document (titles, types); documents since deleted or no longer readable are left out.
 * @example const docs = createChannelDocuments(api); await docs.load('c1'); docs.$docs.value
 */
export function createChannelDocuments(api: Pick<KnowledgeApi, 'channelDocIds' | 'doc'>) {
  const $docs = signal<KbDocument[] | null | 'error'>(null);
  let abort: AbortController | undefined;
  return {
    /** null while loading, 'error' when the list could not be read. */
    $docs,
    /** Loads the documents of a channel ('' clears); a newer load wins over an older one. */
    async load(channelId: string): Promise<void> {
      abort?.abort();
      const mine = new AbortController();
      abort = mine;
      $docs.value = null;
      if (!channelId) {
        $docs.value = [];
        return;
      }
      try {
        const ids = await api.channelDocIds(channelId, mine.signal);
        const found = await Promise.all(ids.map((id) => api.doc(id, { signal: mine.signal, redirect: false }).catch(() => null)));
        if (!mine.signal.aborted) $docs.value = found.filter((d): d is KbDocument => d !== null);
      } catch {
        if (!mine.signal.aborted) $docs.value = 'error';
      }
    },
    /** Stops a load in flight. */
    dispose() {
      abort?.abort();
    },
  };
}
/** A channel-documents model. */
export type ChannelDocumentsModel = ReturnType<typeof createChannelDocuments>;
