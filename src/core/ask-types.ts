// The question box's shared types: a leaf module, so the small models (files, options, sending)
// and the one composing them (ask-model.ts) share them without importing each other.
import type { ApiClient } from './api';
import type { StatusStore } from './status-store';
import type { ToastStore } from './toast';

/** GET /online/status: which online sources the server has, and what to set for each missing one. */
export interface OnlineStatusView {
  web: boolean;
  literature: boolean;
  patents: boolean;
  missing: { web?: string | undefined; literature?: string | undefined; patents?: string | undefined };
}

/** One file chip: uploading, parsing, done or failed (SPEC §4 parseStatus and upload progress). */
export interface FileChip {
  key: string;
  name: string;
  docId?: string;
  phase: 'uploading' | 'parsing' | 'done' | 'failed';
  percent: number;
}

/** The texts the model shows in toasts (SPEC §8, in the element's language). */
export type AskTexts = (key: 'cannot_send' | 'file_parsing' | 'kb_parsing' | 'channel_failed' | 'send_failed' | 'retry_later' | 'stop_failed') => string;

/** What the model needs. */
export interface AskModelDeps {
  client: ApiClient;
  store: Pick<StatusStore, 'ask' | 'session'>;
  toasts: ToastStore;
  t: AskTexts;
  /** `web` on the site, `embed` on another page (the question request's `client`). */
  clientKind: 'web' | 'embed';
  /** Goes to sign-in after an upload refused for the session (SPEC §8; the element asks the page first). */
  signIn: () => void;
  /** Timers (tests may pass their own). */
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

/** Where a sent question went. */
export interface Sent {
  channelId: string;
  questionId: string;
}
