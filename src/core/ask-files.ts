// The question box's files (SPEC §4): chips of uploaded and preselected documents, their upload
// progress and parse polling, kept in the status store (SPEC §3 docIdList, files_list).
import { batch, signal, type ReadonlySignal, type Signal } from '@preact/signals-core';
import { ApiError, UPLOAD_SESSION_MESSAGE, type ApiClient } from './api';
import { QUESTION_FOLDER_ID, responses, type KbDocument } from './ask-responses';
import type { FileChip } from './ask-types';
import type { StatusStore } from './status-store';
import { perFileProgress } from './upload-progress';
import { canSelectFile, checkUpload } from './validation';
import { documentPath } from './document-paths';

/** SPEC §9: parse status polling interval. */
export const PARSE_POLL_MS = 1000;

let chipCounter = 0;
const chipKey = () => `chip-${++chipCounter}`;
const phaseOf = (doc: Pick<KbDocument, 'parseStatus'>): FileChip['phase'] => (doc.parseStatus === 1 ? 'parsing' : doc.parseStatus === 2 ? 'done' : 'failed');

/** What the files need: the client, the store's ask fields, the box's message line, sign-in, timers. */
export interface AskFilesDeps {
  client: ApiClient;
  store: StatusStore['ask'];
  /** The box's SPEC §5 verdict line, shared with the knowledge-base choice. */
  $message: Signal<string>;
  signIn: () => void;
  later: (fn: () => void, ms: number) => unknown;
  cancel: (handle: unknown) => void;
}

/**
 * The file chips of one question box: `addFiles` checks and uploads (SPEC §4/§5), chips still
 * parsing are polled every second, ids the page puts in the store become chips.
 * @example const files = createAskFiles(deps); await files.addFiles([file]); files.$chips.value
 */
export function createAskFiles({ client, store, $message, signIn, later, cancel }: AskFilesDeps) {
  let disposed = false;
  const $chips = signal<FileChip[]>(store.$files_list.peek().map((f) => ({ key: chipKey(), name: f.name, docId: f.docId, phase: 'parsing', percent: 0 })));
  const live = (list = $chips.peek()) => list.filter((c) => c.phase !== 'failed');

  // The selection lives in the status store (SPEC §3 docIdList, files_list) so it survives navigation.
  const pending = new Set<string>();
  const setChips = (next: FileChip[]) => {
    const withId = live(next).filter((c): c is FileChip & { docId: string } => !!c.docId);
    batch(() => {
      $chips.value = next;
      store.$files_list.value = withId.map((c) => ({ docId: c.docId, name: c.name }));
      store.$docIdList.value = [...new Set([...withId.map((c) => c.docId), ...pending])];
    });
    schedulePoll();
  };
  const update = (fn: (c: FileChip) => FileChip) => setChips($chips.peek().map(fn));

  // SPEC §4: documents still parsing are polled every second until their status is no longer 1.
  let pollTimer: unknown;
  let polling: AbortController | undefined;
  function schedulePoll() {
    if (pollTimer !== undefined || disposed) return;
    if (!$chips.peek().some((c) => c.phase === 'parsing' && c.docId)) return;
    pollTimer = later(() => {
      pollTimer = undefined;
      polling = new AbortController();
      const { signal: aborted } = polling;
      const ids = $chips.peek().filter((c) => c.phase === 'parsing' && c.docId).map((c) => c.docId!);
      void Promise.all(
        ids.map((docId) =>
          client.get(documentPath.record(docId), responses.document, { quiet: true, redirect: false, signal: aborted }).then(
            (doc) => ({ docId, doc }),
            () => null,
          ),
        ),
      ).then((found) => {
        if (aborted.aborted) return;
        const byId = new Map(found.filter((f) => f !== null).map((f) => [f.docId, f.doc]));
        update((c) => {
          const doc = c.docId && c.phase === 'parsing' ? byId.get(c.docId) : undefined;
          return doc ? { ...c, phase: phaseOf(doc), percent: doc.parse_progress } : c;
        });
      });
    }, PARSE_POLL_MS);
  }

  /** Ids put in the store by the page (the home page's `docIds`) become chips once fetched. */
  const adoptStoreIds = (wanted: readonly string[]) => {
    const known = new Set($chips.peek().map((c) => c.docId));
    const missing = wanted.filter((id) => !known.has(id) && !pending.has(id));
    if (!missing.length) return;
    for (const id of missing) pending.add(id);
    void Promise.all(
      missing.map((docId) =>
        client.get(documentPath.record(docId), responses.document, { quiet: true, redirect: false }).then(
          (doc): FileChip => ({ key: chipKey(), name: doc.title, docId, phase: phaseOf(doc), percent: doc.parse_progress }),
          () => null, // not found or not the user's: dropped
        ),
      ),
    ).then((found) => {
      for (const id of missing) pending.delete(id);
      if (disposed) return;
      const add = found.filter((c): c is FileChip => c !== null && !$chips.peek().some((x) => x.docId === c.docId));
      setChips([...$chips.peek(), ...add].slice(0, 6));
    });
  };
  const unwatchStore = store.$docIdList.subscribe((ids) => adoptStoreIds(ids));

  /** SPEC §4/§5: checks and uploads files into the question folder with per-file progress. */
  async function addFiles(files: readonly File[]): Promise<void> {
    if (!files.length) return;
    const current = live();
    const allowed = canSelectFile(current.length, store.$selectedKbs.peek().length);
    if (!allowed.ok) {
      $message.value = allowed.message;
      return;
    }
    const check = checkUpload(files, current.map((c) => c.name));
    $message.value = check.message ?? '';
    if (!check.accepted.length) return;
    const added: FileChip[] = check.accepted.map((a) => ({ key: chipKey(), name: a.name, phase: 'uploading', percent: 0 }));
    const keys = added.map((b) => b.key);
    setChips([...current, ...added]);
    const form = new FormData();
    for (const f of check.accepted) form.append('files', f.file, f.name);
    form.append('folder_id', QUESTION_FOLDER_ID);
    // Multipart overhead makes the body a little larger than the files; progress is against the files.
    const sizes = check.accepted.map((f) => f.file.size);
    try {
      const { name_id: named } = await client.upload(`/knowledge_base/upload?folder_id=${QUESTION_FOLDER_ID}`, form, responses.uploaded, {
        redirect: false,
        onProgress: (loaded, total) => {
          const percents = perFileProgress(sizes, loaded, total);
          update((c) => (keys.includes(c.key) && c.phase === 'uploading' ? { ...c, percent: percents[keys.indexOf(c.key)] ?? c.percent } : c));
        },
      });
      update((c) => {
        const i = keys.indexOf(c.key);
        const docId = i >= 0 ? named[i]?.docId : undefined;
        return i < 0 ? c : docId ? { ...c, docId, phase: 'parsing', percent: 0 } : { ...c, phase: 'failed' };
      });
    } catch (error) {
      // SPEC §4: on an upload error every file of the batch becomes failed (status 3); the
      // client showed the SPEC §8 upload row and reported the failure.
      update((c) => (keys.includes(c.key) ? { ...c, phase: 'failed' } : c));
      if (error instanceof ApiError && (error.status === 401 || error.status === 403 || error.message === UPLOAD_SESSION_MESSAGE)) signIn();
    }
  }

  function removeChip(key: string) {
    setChips($chips.peek().filter((c) => c.key !== key));
    $message.value = '';
  }

  schedulePoll(); // chips kept in the store from before a navigation may still be parsing
  return {
    $chips: $chips as ReadonlySignal<FileChip[]>,
    /** The chips that count (not failed). */
    live,
    /** Empties the box's files (after a send). */
    clear: () => setChips([]),
    addFiles,
    removeChip,
    /** Stops polling and watching the store. */
    dispose() {
      disposed = true;
      unwatchStore();
      if (pollTimer !== undefined) cancel(pollTimer);
      polling?.abort();
    },
  };
}
/** The file chips of a question box. */
export type AskFiles = ReturnType<typeof createAskFiles>;
