// SPEC §4 upload with per-file progress. fetch cannot report upload progress, so this one call
// uses XMLHttpRequest; everything else goes through the core API client.
import type { z } from 'zod';
import type { uploadResult } from '../../contract/knowledge';
import { csrfToken } from '../../core/csrf';

/** SPEC §9: the built-in folder for question files (contract `QUESTION_FOLDER_ID`, kept here so zod stays out of the first load). */
const QUESTION_FOLDER_ID = 'folder_for_question_channel';

/** A failed upload: HTTP status (0 for the network) and the server's message. */
export class UploadError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'UploadError';
  }
}

/**
 * Per-file progress from the bytes sent so far: files go in order, so the first files fill up
 * first. Returns percentages 0–100, one per file.
 */
export function perFileProgress(sizes: readonly number[], loaded: number): number[] {
  let left = loaded;
  return sizes.map((size) => {
    const sent = Math.max(0, Math.min(size, left));
    left -= size;
    return size === 0 ? (loaded > 0 ? 100 : 0) : Math.round((sent / size) * 100);
  });
}

/** SPEC §4: the total is the rounded mean of the files' progress. */
export const totalProgress = (percents: readonly number[]) =>
  percents.length ? Math.round(percents.reduce((a, b) => a + b, 0) / percents.length) : 0;

/**
 * POST /knowledge_base/upload?folder_id=folder_for_question_channel (multipart `files`,
 * `folder_id`), reporting each file's progress. Resolves to the server's `name_id` list.
 */
export async function uploadQuestionFiles(
  apiRoot: string,
  files: readonly { file: Blob; name: string }[],
  { onProgress, withCredentials, signal }: { onProgress(percents: number[]): void; withCredentials: boolean; signal?: AbortSignal },
): Promise<z.infer<typeof uploadResult>['name_id']> {
  const token = await csrfToken(apiRoot);
  const form = new FormData();
  for (const f of files) form.append('files', f.file, f.name);
  form.append('folder_id', QUESTION_FOLDER_ID);
  // Multipart overhead makes the body a little larger than the files; progress is against the files.
  const sizes = files.map((f) => f.file.size);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${apiRoot}/knowledge_base/upload?folder_id=${QUESTION_FOLDER_ID}`);
    xhr.withCredentials = withCredentials;
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    xhr.setRequestHeader('X-CSRF-TOKEN', token);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      const total = sizes.reduce((a, b) => a + b, 0);
      onProgress(perFileProgress(sizes, e.lengthComputable && e.total > 0 ? (e.loaded / e.total) * total : 0));
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      void import('./schemas').then(({ uploadEnvelope, failure }) => {
        if (xhr.status >= 200 && xhr.status < 300) {
          const parsed = uploadEnvelope.safeParse(body);
          if (parsed.success) {
            onProgress(sizes.map(() => 100));
            resolve(parsed.data.data.name_id);
          } else reject(new UploadError(xhr.status, 'unexpected response'));
          return;
        }
        const fail = failure.safeParse(body);
        reject(new UploadError(xhr.status, fail.success ? fail.data.message : `HTTP ${xhr.status}`));
      }, reject);
    };
    xhr.onerror = () => reject(new UploadError(0, 'network error'));
    xhr.onabort = () => reject(new UploadError(0, 'aborted'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
