// The question box's behaviour (SPEC §2/§4/§5) without a framework: chips of uploaded and
// preselected documents with parse polling, the knowledge-base choice, the tools, and the verbs
// send / stop / retry. Widgets render its signals; tests drive it without a browser.
import { signal } from '@preact/signals-core';
import { createAskFiles } from './ask-files';
import { createAskOptions } from './ask-options';
import { createAskSending } from './ask-sending';
import type { AskModelDeps } from './ask-types';
import type { KbFolder } from '../contract/knowledge';
import { canSelectKnowledgeBase } from './validation';

export { PARSE_POLL_MS } from './ask-files';
export { onlineMissing, type OnlineMissing } from './ask-options';
export type { AskModelDeps, AskTexts, FileChip, OnlineStatusView, Sent } from './ask-types';

/**
 * The question box model. Signals: `$chips`, `$message` (a SPEC §5 verdict), `$sending`,
 * `$answering` (the question being answered after a send that stays), `$tools`, `$enabledTools`
 * (null = all), `$folders`, `$failed` (a send that can be retried). Verbs: `addFiles`,
 * `removeChip`, `toggleKb`, `loadTools`, `loadFolders`, `setTools`, `send`, `stop`, `retry`.
 * @example const ask = createAskModel({ client, store: statusStore(), toasts, t, clientKind: 'web' }); await ask.send('阿司匹林的副作用？');
 */
export function createAskModel(deps: AskModelDeps) {
  const store = deps.store.ask;
  const later = deps.setTimeout ?? ((fn, ms) => globalThis.setTimeout(fn, ms));
  const cancel = deps.clearTimeout ?? ((h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>));
  /** The box's SPEC §5 verdict line (files and knowledge bases). */
  const $message = signal('');
  const files = createAskFiles({ client: deps.client, store, $message, signIn: deps.signIn, later, cancel });
  const options = createAskOptions({ client: deps.client, store });
  const sending = createAskSending({ ...deps, files, options, $message });
  const { live } = files;

  /** SPEC §5: chooses or drops a knowledge base (at most 2, never beside files). */
  function toggleKb(folder: Pick<KbFolder, 'id' | 'name'>) {
    const selected = store.$selectedKbs.peek();
    if (selected.some((k) => k.id === folder.id)) {
      store.$selectedKbs.value = selected.filter((k) => k.id !== folder.id);
      $message.value = '';
      return;
    }
    const verdict = canSelectKnowledgeBase(selected.length, live().length);
    $message.value = verdict.ok ? '' : verdict.message;
    if (verdict.ok) store.$selectedKbs.value = [...selected, { id: folder.id, name: folder.name }];
  }

  return {
    $chips: files.$chips,
    $message,
    $sending: sending.$sending,
    $answering: sending.$answering,
    $tools: options.$tools,
    $enabledTools: options.$enabledTools,
    $toolsOn: options.$toolsOn,
    $online: options.$online,
    loadOnline: options.loadOnline,
    setOnline: options.setOnline,
    $folders: options.$folders,
    $failed: sending.$failed,
    addFiles: files.addFiles,
    removeChip: files.removeChip,
    toggleKb,
    loadTools: options.loadTools,
    toggleAllTools: options.toggleAllTools,
    toggleTool: options.toggleTool,
    loadFolders: options.loadFolders,
    send: sending.send,
    retry: sending.retry,
    follow: sending.follow,
    stop: sending.stop,
    /** Stops polling and the answer stream (the element left the page). */
    dispose() {
      files.dispose();
      sending.dispose();
    },
  };
}
/** The question box model. */
export type AskModel = ReturnType<typeof createAskModel>;
