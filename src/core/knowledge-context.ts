// What the small knowledge models share: their dependencies, the toasts and failure reports,
// the list reload counter, and the upload types and timings. A leaf of the knowledge models.
import { signal } from '@preact/signals-core';
import type { KbDocument } from '../contract/knowledge';
import { ApiError } from './api';
import { i18n } from './i18n';
import type { KnowledgeApi } from './knowledge-api';
import { knowledgeSelection, type KnowledgeSelection } from './knowledge-selection';
import { statusStore, type StatusStore } from './status-store';
import { toastStore, type ToastStore } from './toast';

/** SPEC §4/§9: parse status is polled every second while a document is parsing. */
export const PARSE_POLL_MS = 1000;
/**
 * A finished upload batch leaves the list after this long (its documents are in the list below by
 * then, with their parse state); a failed one stays with its message until the user closes it.
 */
export const UPLOAD_CLEAR_MS = 2000;
/** A typed search waits this long before the list is asked again. */
export const SEARCH_DEBOUNCE_MS = 250;
/** Where a 403 upload sends the user (SPEC §8). */
export const SIGN_IN = '/auth/sign-in';

/** SPEC §4 upload status of one file: 1 uploading ("上传中"), 2 done ("完成"), 3 failed. */
export type UploadStatus = 1 | 2 | 3;
/** One file of a batch as the upload list shows it. */
export interface UploadItem {
  key: string;
  name: string;
  size: number;
  /** 0–100. */
  progress: number;
  status: UploadStatus;
}

/** SPEC §4: the total is the rounded mean of the per-file progress (0 for an empty batch). */
export function totalProgress(items: readonly Pick<UploadItem, 'progress'>[]): number {
  if (!items.length) return 0;
  return Math.round(items.reduce((sum, i) => sum + i.progress, 0) / items.length);
}

/** Sends a batch into a folder, reporting per-file percentages; rejects with a status, message and code. */
export type UploadFn = (args: { folderId: string; files: { file: Blob; name: string }[]; onProgress: (percentPerFile: number[]) => void }) => Promise<unknown>;

/** The viewer route of a document (SPEC §2 /pdf_viewer; molecules open their 3D view there). */
export function viewerPath(doc: Pick<KbDocument, 'docId' | 'type'>): string {
  const q = new URLSearchParams({ docId: doc.docId, if_img: doc.type === 3 ? '1' : '0' });
  // Molecule files and saved web pages: the route shows their own view without starting the PDF viewer first.
  if (doc.type === 5 || doc.type === 6 || doc.type === 7) q.set('type', String(doc.type));
  return `/pdf_viewer?${q.toString()}`;
}

/** The status, message and code of a failed call or upload, whatever threw it. */
export function failureOf(err: unknown): { status: number; message: string; code: string } {
  if (typeof err === 'object' && err !== null && 'status' in err && typeof err.status === 'number') {
    const message = err instanceof Error ? err.message : '';
    const code = 'code' in err && typeof err.code === 'string' ? err.code : `http_${err.status}`;
    return { status: err.status, message, code };
  }
  return { status: 0, message: err instanceof Error ? err.message : String(err), code: 'network_error' };
}

/** What a knowledge model needs from its element and page. */
export interface KnowledgeModelDeps {
  api: KnowledgeApi;
  upload: UploadFn;
  /** The element's strings (namespace `knowledge`). */
  t: (key: string, options?: Record<string, unknown>) => string;
  /** A failed call or a refused file, for the element's `csai-error`. */
  onError: (error: ApiError) => void;
  /** Opens a product page (csai-navigate first). */
  navigate: (path: string) => void;
  selection?: KnowledgeSelection;
  store?: StatusStore;
  toasts?: ToastStore;
}

/**
 * The shared part of one element's knowledge models: its dependencies with the page's defaults,
 * `toast`, `report` (the element's csai-error), `attempt` (a verb: true when it worked, false when
 * it failed and was reported), and `afterListChange` (the list and the folder lists load again).
 */
export function createKnowledgeContext(deps: KnowledgeModelDeps) {
  const { api, t } = deps;
  const selection = deps.selection ?? knowledgeSelection();
  const store = deps.store ?? statusStore();
  const toasts = deps.toasts ?? toastStore();
  const ct = (key: string) => i18n().t(key);
  /** Bumped to load the main list again. */
  const $reload = signal(0);
  const toast = (title: string, description?: string, destructive = false) =>
    toasts.toast({ title, description, variant: destructive ? 'destructive' : 'default' });
  const report = (err: unknown) => {
    if (err instanceof ApiError) deps.onError(err);
    else {
      const f = failureOf(err);
      deps.onError(new ApiError(f.status, f.message || t('try_later'), f.code, ''));
    }
  };
  /** Runs a verb: true when it worked, false when it failed (reported, and toasted by the client). */
  const attempt = async (run: () => Promise<void>) => {
    try {
      await run();
      return true;
    } catch (err) {
      report(err);
      return false;
    }
  };
  const afterListChange = () => {
    $reload.value += 1;
    selection.refreshFolders();
  };
  const folder = () => selection.$folder.peek();

  return { deps, api, t, ct, selection, store, toast, report, attempt, afterListChange, folder, $reload };
}
/** The shared part of one element's knowledge models. */
export type KnowledgeContext = ReturnType<typeof createKnowledgeContext>;
