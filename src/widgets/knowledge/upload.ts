// Upload of a batch of files into a folder with per-file progress (SPEC §4): XHR, because fetch
// reports no upload progress. One multipart request per batch, as SPEC §7 describes.
import { z } from 'zod';
import { ok as okEnvelope, failure } from '../../contract/envelope';
import { uploadResult } from '../../contract/knowledge';
import { UPLOAD_SESSION_MESSAGE } from '../../core/api';
import { csrfToken } from '../../core/csrf';

export { totalProgress, type UploadItem, type UploadStatus } from '../../core/knowledge-model';

/**
 * Per-file progress from the bytes of the whole multipart body sent so far: the files travel in
 * order, so file i is done once the bytes before it and its own have gone. The multipart framing
 * is spread proportionally (`loaded / total` scales the file sizes to the body's size).
 */
export function fileProgress(sizes: readonly number[], loaded: number, total: number): number[] {
  const sum = sizes.reduce((a, b) => a + b, 0);
  if (total <= 0 || sum <= 0) return sizes.map(() => 0);
  const sent = Math.min(1, Math.max(0, loaded / total)) * sum;
  let before = 0;
  return sizes.map((size) => {
    const own = size <= 0 ? (sent >= before ? 1 : 0) : Math.min(1, Math.max(0, (sent - before) / size));
    before += size;
    return Math.floor(own * 100);
  });
}

/** Upload results parsed from the success envelope. */
export type UploadResult = z.infer<typeof uploadResult>;

/** A failed upload: HTTP status (0 without an answer), the server's message and code. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  constructor(readonly status: number, message: string, readonly code: string) {
    super(message);
  }
  /** SPEC §8: a 403 or "Invalid session key" means the user has to sign in (again). */
  get needsSignIn(): boolean {
    return this.status === 403 || this.status === 401 || this.message === UPLOAD_SESSION_MESSAGE;
  }
}

/** What {@link uploadFiles} needs. */
export interface UploadOptions {
  /** `${apiOrigin}/api/v1` */
  apiRoot: string;
  folderId: string;
  files: { file: Blob; name: string }[];
  onProgress: (percentPerFile: number[]) => void;
  signal?: AbortSignal;
  withCredentials?: boolean;
}

/**
 * POST /api/v1/knowledge_base/upload?folder_id= (multipart: files, folder_id) with progress.
 * Resolves with data.name_id; rejects with {@link UploadError}.
 */
export async function uploadFiles({ apiRoot, folderId, files, onProgress, signal, withCredentials }: UploadOptions): Promise<UploadResult> {
  const token = await csrfToken(apiRoot);
  const form = new FormData();
  form.append('folder_id', folderId);
  for (const f of files) form.append('files', f.file, f.name);
  const sizes = files.map((f) => f.file.size);
  return new Promise<UploadResult>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${apiRoot}/knowledge_base/upload?folder_id=${encodeURIComponent(folderId)}`);
    xhr.withCredentials = !!withCredentials;
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    xhr.setRequestHeader('X-CSRF-TOKEN', token);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) onProgress(fileProgress(sizes, e.loaded, e.total));
    });
    xhr.addEventListener('load', () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const parsed = okEnvelope(uploadResult).safeParse(body);
        if (parsed.success) resolve(parsed.data.data);
        else reject(new UploadError(xhr.status, 'unexpected response', 'unexpected_response'));
        return;
      }
      const fail = failure.safeParse(body);
      reject(new UploadError(xhr.status, fail.success ? fail.data.message : `HTTP ${xhr.status}`, fail.success ? fail.data.code : `http_${xhr.status}`));
    });
    xhr.addEventListener('error', () => reject(new UploadError(0, 'network error', 'network_error')));
    xhr.addEventListener('abort', () => reject(new UploadError(0, 'aborted', 'aborted')));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
