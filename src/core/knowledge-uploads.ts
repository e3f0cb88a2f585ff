// The knowledge view's uploads (SPEC §4/§5): one batch at a time into the current folder, checked
// with the exact messages, per-file progress, a finished batch cleared after a moment.
import { batch, computed, effect, signal } from '@preact/signals-core';
import { ApiError, UPLOAD_SESSION_MESSAGE } from './api';
import { failureOf, SIGN_IN, UPLOAD_CLEAR_MS, type KnowledgeContext, type UploadItem } from './knowledge-context';
import type { KnowledgeList } from './knowledge-list';
import { checkUpload, fileExtension, uniqueImageName, VALIDATION_MESSAGES } from './validation';

/**
 * The uploads of one element into the folder its list shows.
 * @example const uploads = createKnowledgeUploads(ctx, list); await uploads.upload([file]);
 */
export function createKnowledgeUploads({ deps, ct, selection, toast, afterListChange, folder }: KnowledgeContext, list: Pick<KnowledgeList, '$docs' | '$page'>) {
  const { $docs, $page } = list;
  const $uploads = signal<UploadItem[]>([]);
  const $notice = signal<string | undefined>(undefined);
  const $uploading = computed(() => $uploads.value.some((u) => u.status === 1));

  /** SPEC §5 on a batch, then against the documents already listed (images renamed _1, _2 …). */
  const accept = (chosen: File[]) => {
    const check = checkUpload(chosen);
    let message = check.message;
    const docs = $docs.peek();
    const taken = new Set(docs && docs !== 'error' ? docs.items.map((d) => d.title) : []);
    const accepted: { file: File; name: string }[] = [];
    for (const a of check.accepted) {
      let name = a.name;
      if (taken.has(name)) {
        if (!['jpg', 'jpeg', 'png'].includes(fileExtension(name))) {
          message ??= VALIDATION_MESSAGES.duplicate;
          continue;
        }
        name = uniqueImageName(name, taken);
      }
      taken.add(name);
      accepted.push({ file: a.file, name });
    }
    return { accepted, message };
  };

  return {
    $uploads,
    /** A refused file or failed upload, in words. */
    $notice,
    $uploading,
    /**
     * Clears the uploads when another folder or view is chosen, and a finished batch after
     * {@link UPLOAD_CLEAR_MS}. Returns the function that stops both.
     */
    watch(): () => void {
      let lastKey = selection.$sourceKey.peek();
      const stopReset = effect(() => {
        const key = selection.$sourceKey.value;
        if (key === lastKey) return;
        lastKey = key;
        batch(() => {
          $uploads.value = [];
          $notice.value = undefined;
        });
      });
      const stopClear = effect(() => {
        const items = $uploads.value;
        if (!items.length || !items.every((u) => u.status === 2)) return;
        const timer = setTimeout(() => ($uploads.value = $uploads.peek().filter((u) => u.status !== 2)), UPLOAD_CLEAR_MS);
        return () => clearTimeout(timer);
      });
      return () => {
        stopReset();
        stopClear();
      };
    },
    /**
     * Uploads files into the current folder (one batch at a time): SPEC §5 checks with the exact
     * messages, per-file progress, the rounded mean as total; on an error every file of the batch
     * fails, a 403 sends the user to sign in (SPEC §8).
     */
    async upload(chosen: File[]): Promise<void> {
      const target = folder();
      if (!target || !chosen.length || $uploading.peek()) return;
      $notice.value = undefined;
      const { accepted, message } = accept(chosen);
      if (message) {
        $notice.value = message;
        toast(message, undefined, true);
        deps.onError(new ApiError(400, message, 'invalid_file', ''));
      }
      if (!accepted.length) return;
      const stamp = Date.now();
      $uploads.value = accepted.map((a, i) => ({ key: `${stamp}-${i}`, name: a.name, size: a.file.size, progress: 0, status: 1 }));
      try {
        await deps.upload({
          folderId: target.id,
          files: accepted,
          // 100 only once the server has answered: the bytes are sent before it has stored them.
          onProgress: (percents) => ($uploads.value = $uploads.peek().map((it, i) => ({ ...it, progress: Math.min(percents[i] ?? it.progress, 99) }))),
        });
        $uploads.value = $uploads.peek().map((it) => ({ ...it, progress: 100, status: 2 }));
        $page.value = 1;
        afterListChange();
      } catch (err) {
        // SPEC §4: on an upload error every file of the batch is failed.
        $uploads.value = $uploads.peek().map((it) => ({ ...it, status: 3 }));
        const failure = failureOf(err);
        if (failure.status === 401 || failure.status === 403 || failure.message === UPLOAD_SESSION_MESSAGE) {
          toast(ct('core:need_login_title'), ct('core:need_login_description'), true);
          deps.onError(new ApiError(failure.status, ct('core:need_login_description'), 'need_login', ''));
          deps.navigate(SIGN_IN);
        } else {
          toast(ct('core:upload_failed_title'), ct('core:upload_failed_description'), true);
          const shown = failure.status >= 400 && failure.status < 500 && failure.message ? failure.message : ct('core:upload_failed_description');
          $notice.value = shown;
          deps.onError(new ApiError(failure.status, shown, failure.code, ''));
        }
      }
    },
    /** Closes the failure message and the failed files (a batch still uploading stays). */
    dismissUploads() {
      batch(() => {
        $notice.value = undefined;
        $uploads.value = $uploads.peek().filter((u) => u.status === 1);
      });
    },

  };
}
/** The uploads of a knowledge element. */
export type KnowledgeUploads = ReturnType<typeof createKnowledgeUploads>;
