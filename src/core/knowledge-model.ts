// The knowledge view's behaviour, framework-free: which folder (or document list) is shown, the
// documents with search, pages and parse polling, uploads with per-file progress, and the verbs
// a user applies to folders and documents. <csai-knowledge> renders it; tests drive it directly.
import { batch, computed, effect, signal, type ReadonlySignal } from '@preact/signals-core';
import { kbFolder, QUESTION_FOLDER_ID, type KbDocument, type KbFolder } from '../contract/knowledge';
import { ApiError, UPLOAD_SESSION_MESSAGE } from './api';
import { i18n } from './i18n';
import { moleculeCount, type DocPage, type FolderSortKey, type KnowledgeApi } from './knowledge-api';
import { statusStore, type StatusStore } from './status-store';
import { toastStore, type ToastStore } from './toast';
import { canAddToKnowledgeBase, canSelectFile, checkUpload, fileExtension, uniqueImageName, VALIDATION_MESSAGES } from './validation';

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
const SIGN_IN = '/auth/sign-in';

/** The document lists that are not one folder: shared with me one by one, and all of mine. */
export type DocumentView = 'shared_docs' | 'all_docs';
/** What the main list shows: a folder's documents, or one of the {@link DocumentView}s. */
export type DocSource = { kind: 'folder'; folder: KbFolder } | { kind: DocumentView };

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
function failureOf(err: unknown): { status: number; message: string; code: string } {
  if (typeof err === 'object' && err !== null && 'status' in err && typeof err.status === 'number') {
    const message = err instanceof Error ? err.message : '';
    const code = 'code' in err && typeof err.code === 'string' ? err.code : `http_${err.status}`;
    return { status: err.status, message, code };
  }
  return { status: 0, message: err instanceof Error ? err.message : String(err), code: 'network_error' };
}

/**
 * What the parts of one page share: the current folder (SPEC §3 now_knowledge, folder_id,
 * folder_name, folder_file_count in the status store) or document view, the sidebar's search and
 * sort, and a counter that asks every folder list to load again.
 */
export function createKnowledgeSelection(store: StatusStore) {
  const k = store.knowledge;
  const $view = signal<DocumentView | null>(null);
  const $folder: ReadonlySignal<KbFolder | null> = computed(() => {
    const parsed = kbFolder.safeParse(k.$now_knowledge.value);
    return parsed.success ? parsed.data : null;
  });
  const $source: ReadonlySignal<DocSource | null> = computed(() => {
    const view = $view.value;
    if (view) return { kind: view };
    const folder = $folder.value;
    return folder ? { kind: 'folder', folder } : null;
  });
  /** Changes only when another folder or view is chosen (not when the folder's count changes). */
  const $sourceKey = computed(() => {
    const s = $source.value;
    return s === null ? '' : s.kind === 'folder' ? `folder:${s.folder.id}` : s.kind;
  });
  const $foldersVersion = signal(0);
  const selectFolder = (folder: KbFolder | null) =>
    batch(() => {
      $view.value = null;
      k.$now_knowledge.value = folder;
      k.$folder_id.value = folder?.id ?? '';
      k.$folder_name.value = folder?.name ?? '';
      k.$folder_file_count.value = folder?.doc_count ?? 0;
    });
  return {
    $view,
    $folder,
    $source,
    $sourceKey,
    /** Bumped after any change to a folder list (create, rename, delete, share, upload). */
    $foldersVersion,
    /** The sidebar's search text, shared by `sidebar_header` and `sidebar_content`. */
    $folderSearch: signal(''),
    $folderSort: signal<FolderSortKey>('-createTime'),
    /** Makes a folder the current one (or none): now_knowledge, folder_id, folder_name, folder_file_count. */
    selectFolder,
    /** Shows documents shared with me, or all of mine, instead of a folder. */
    openView(view: DocumentView) {
      batch(() => {
        selectFolder(null);
        $view.value = view;
      });
    },
    /** Asks every folder list on the page to load again. */
    refreshFolders() {
      $foldersVersion.value += 1;
    },
  };
}
/** The shared knowledge selection of a page. */
export type KnowledgeSelection = ReturnType<typeof createKnowledgeSelection>;

let pageSelection: KnowledgeSelection | undefined;
/** The page's one knowledge selection, over the page's status store. */
export function knowledgeSelection(): KnowledgeSelection {
  return (pageSelection ??= createKnowledgeSelection(statusStore()));
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
 * The knowledge view of one element: the main list's documents and uploads, and every verb
 * (upload, move, copy, add, share, delete, download, use in a question, folder changes).
 * `watch()` starts loading (and polling) the list; its return value stops it.
 * @example const kb = createKnowledgeModel({ api, upload, t, onError, navigate }); const stop = kb.watch(); await kb.move(doc, 'f2');
 */
export function createKnowledgeModel(deps: KnowledgeModelDeps) {
  const { api, t } = deps;
  const selection = deps.selection ?? knowledgeSelection();
  const store = deps.store ?? statusStore();
  const toasts = deps.toasts ?? toastStore();
  const ct = (key: string) => i18n().t(key);

  const $page = signal(1);
  const $search = signal('');
  const $docs = signal<DocPage | null | 'error'>(null);
  const $molecules = signal<Record<string, number>>({});
  const $uploads = signal<UploadItem[]>([]);
  const $notice = signal<string | undefined>(undefined);
  const $reload = signal(0);
  const $uploading = computed(() => $uploads.value.some((u) => u.status === 1));

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

  /** Loads the list for the current source, page and search; again every second while one is parsing. */
  const load = (abort: AbortController, first: { value: boolean }) => {
    const source = selection.$source.peek();
    if (!source) return;
    const query = { page: $page.peek(), search: $search.peek().trim() || undefined };
    const request =
      source.kind === 'folder' ? api.docs(source.folder.id, query, abort.signal)
      : source.kind === 'shared_docs' ? api.sharedDocs(query, abort.signal)
      : api.allDocs(query, abort.signal);
    request.then(
      (result) => {
        if (abort.signal.aborted) return;
        $docs.value = result;
        countMolecules(result);
        // The next poll; once the list is given up (another folder, page, search) it asks nothing.
        if (result.items.some((d) => d.parseStatus === 1)) setTimeout(() => abort.signal.aborted || load(abort, first), PARSE_POLL_MS);
        else if (!first.value) selection.refreshFolders(); // parsing finished: counts beside the folders
        first.value = false;
      },
      (err: unknown) => {
        if (abort.signal.aborted) return;
        $docs.value = 'error';
        report(err);
        // The folder is gone or no longer readable (deleted, share withdrawn, another user).
        if (source.kind === 'folder' && err instanceof ApiError && (err.status === 403 || err.status === 404)) {
          selection.selectFolder(null);
          selection.refreshFolders();
        }
      },
    );
  };

  /** SDF documents: the molecule count from their parsed text. */
  const countMolecules = (page: DocPage) => {
    for (const d of page.items) {
      if (d.type !== 5 || d.parseStatus !== 2 || d.docId in $molecules.peek()) continue;
      api.markdown(d.docId).then(
        (md) => {
          const n = moleculeCount(md.markdown);
          if (n !== null) $molecules.value = { ...$molecules.peek(), [d.docId]: n };
        },
        () => undefined,
      );
    }
  };

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
    /** The calls the model makes (for the small models beside it, e.g. a translation). */
    api,
    selection,
    /** Reports a failure as the element's `csai-error` (the client has toasted it already). */
    report,
    $page,
    $search,
    /** The listed page: null while loading, 'error' when it failed. */
    $docs,
    /** Molecule counts of parsed SDF documents, by docId. */
    $molecules,
    $uploads,
    /** A refused file or failed upload, in words. */
    $notice,
    $uploading,

    /**
     * Loads the list whenever the source, page, search or a change asks for it (a typed search
     * after {@link SEARCH_DEBOUNCE_MS}), polls while a document parses, and clears a finished
     * upload batch after {@link UPLOAD_CLEAR_MS}. Returns the function that stops all of it.
     */
    watch(): () => void {
      let lastKey = selection.$sourceKey.peek();
      const stopReset = effect(() => {
        const key = selection.$sourceKey.value;
        if (key === lastKey) return;
        lastKey = key;
        batch(() => {
          $page.value = 1;
          $search.value = '';
          $uploads.value = [];
          $notice.value = undefined;
          $docs.value = null;
        });
      });
      const stopLoad = effect(() => {
        // Each is read to subscribe: any of them changing loads the list again.
        const wanted = { source: selection.$sourceKey.value, page: $page.value, reload: $reload.value, search: $search.value };
        const abort = new AbortController();
        const debounce = setTimeout(() => load(abort, { value: true }), wanted.search ? SEARCH_DEBOUNCE_MS : 0);
        return () => {
          clearTimeout(debounce);
          abort.abort();
        };
      });
      const stopClear = effect(() => {
        const items = $uploads.value;
        if (!items.length || !items.every((u) => u.status === 2)) return;
        const timer = setTimeout(() => ($uploads.value = $uploads.peek().filter((u) => u.status !== 2)), UPLOAD_CLEAR_MS);
        return () => clearTimeout(timer);
      });
      return () => {
        stopReset();
        stopLoad();
        stopClear();
      };
    },

    /** A new search text; the list goes back to page 1. */
    setSearch(text: string) {
      batch(() => {
        $search.value = text;
        $page.value = 1;
      });
    },
    setPage(page: number) {
      $page.value = page;
    },
    /** Loads the list again (after a failure). */
    reload() {
      $reload.value += 1;
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

    // ---------- folders ----------
    /** Creates a folder and makes it the current one. Throws (for the dialog) when refused. */
    async createFolder(name: string): Promise<void> {
      try {
        const created = await api.createFolder(name);
        selection.selectFolder(created);
        selection.refreshFolders();
        toast(t('created'));
      } catch (err) {
        // A refused name is shown in the dialog; anything else is reported too.
        if (!(err instanceof ApiError) || err.status >= 500 || err.status === 0) report(err);
        throw err;
      }
    },
    /** Renames the current folder. Throws (for the dialog) when refused. */
    async renameFolder(name: string): Promise<void> {
      const current = folder();
      if (!current) return;
      const updated = await api.updateFolder(current.id, { name });
      selection.selectFolder(updated);
      selection.refreshFolders();
      toast(t('renamed'));
    },
    /** Makes the current folder public, or private again. */
    togglePublic: () =>
      attempt(async () => {
        const current = folder();
        if (!current) return;
        const updated = await api.updateFolder(current.id, { is_public: !current.is_public });
        selection.selectFolder(updated);
        selection.refreshFolders();
        toast(updated.is_public ? t('now_public') : t('now_private'));
      }),
    /** Deletes the current folder with its documents. */
    deleteFolder: () =>
      attempt(async () => {
        const current = folder();
        if (!current) return;
        await api.deleteFolder(current.id);
        selection.selectFolder(null);
        selection.refreshFolders();
        toast(t('deleted'));
      }),
    /**
     * Opens one of my folders by its exact name (GET get_folder/xxx?folder_name=); false when I
     * have none of that name (the caller says so).
     */
    async openFolderByName(name: string): Promise<boolean> {
      const wanted = name.trim();
      if (!wanted) return false;
      try {
        selection.selectFolder(await api.folderByName(wanted));
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return false;
        report(err);
        return false;
      }
    },
    /** My folders, the targets of move, copy and add (the question-files folder is not one). */
    myFolders: async (): Promise<KbFolder[]> => {
      try {
        return (await api.folders('mine')).items.filter((f) => f.id !== QUESTION_FOLDER_ID);
      } catch (err) {
        report(err);
        return [];
      }
    },

    // ---------- documents ----------
    deleteDoc: (doc: KbDocument) =>
      attempt(async () => {
        await api.deleteDoc(doc.docId);
        afterListChange();
        toast(t('deleted'));
      }),
    move: (doc: KbDocument, folderId: string) =>
      attempt(async () => {
        await api.moveDoc(doc.docId, folderId);
        toast(t('moved'));
        afterListChange();
      }),
    copy: (doc: KbDocument, folderId: string) =>
      attempt(async () => {
        await api.copyDoc(doc.docId, folderId);
        toast(t('copied'));
        afterListChange();
      }),
    /** SPEC §4/§8: adds a parsed document to a knowledge base with the 添加成功 / 添加失败 toasts. */
    async addToKb(doc: KbDocument, folderId: string): Promise<boolean> {
      // SPEC §5: adding needs both a folder and a document.
      if (!canAddToKnowledgeBase(folderId, doc.docId)) return false;
      try {
        await api.addToKb(doc.docId, folderId);
        toast(t('add_ok_title'), t('add_ok_text'));
        selection.refreshFolders();
        return true;
      } catch (err) {
        toast(t('add_fail_title'), err instanceof ApiError && err.message ? err.message : t('add_fail_text'), true);
        report(err);
        return false;
      }
    },
    /** The file, with the name the server gives it; null when the download failed (reported). */
    async download(doc: KbDocument): Promise<{ blob: Blob; filename: string } | null> {
      try {
        const { blob, filename } = await api.download(doc.docId);
        return { blob, filename: filename ?? doc.title };
      } catch (err) {
        report(err);
        return null;
      }
    },
    /**
     * Copies a document into my question files (POST es_copy_doc_to_question_channel), puts it
     * among the question box's files (status store files_list, docIdList; SPEC §5 rules first) and
     * opens the question page.
     */
    async useInQuestion(doc: KbDocument): Promise<boolean> {
      const ask = store.ask;
      const chosen = ask.$files_list.peek();
      const verdict = canSelectFile(chosen.length, ask.$selectedKbs.peek().length);
      if (!verdict.ok) {
        toast(verdict.message, undefined, true);
        deps.onError(new ApiError(400, verdict.message, 'invalid_selection', ''));
        return false;
      }
      return attempt(async () => {
        const copied = (await api.copyToQuestion([doc.docId])).name_id[0];
        if (!copied) return;
        batch(() => {
          if (!ask.$files_list.peek().some((f) => f.docId === copied.docId)) ask.$files_list.value = [...ask.$files_list.peek(), { docId: copied.docId, name: copied.name }];
          ask.$docIdList.value = [...new Set([...ask.$docIdList.peek(), copied.docId])];
        });
        toast(t('question_added'), t('question_added_text', { name: copied.name }));
        // docIds too: from a foreign page the question page is on the CSAI origin, with its own store.
        deps.navigate(`/?docIds=${encodeURIComponent(copied.docId)}`);
      });
    },
    /** Opens a document in the viewer. */
    open(doc: Pick<KbDocument, 'docId' | 'type'>) {
      deps.navigate(viewerPath(doc));
    },

    // ---------- sharing ----------
    /** Shares a folder or document with people and departments. Throws (for the dialog) when refused. */
    async share(resource: { type: 'folder' | 'doc'; id: string }, userIds: string[], departmentIds: string[]): Promise<void> {
      if (resource.type === 'folder') await api.shareFolder(resource.id, userIds, departmentIds);
      else await api.shareDoc(resource.id, userIds, departmentIds);
      toast(t('shared'));
      selection.refreshFolders();
    },
    /** Withdraws a share. Throws (for the dialog) when refused. */
    async cancelShare(shareId: string): Promise<void> {
      await api.cancelShare(shareId);
      toast(t('share_cancelled'));
      selection.refreshFolders();
    },
    /** People and departments matching a keyword, for the share dialog. */
    searchPeople: (keyword: string, signal?: AbortSignal) => api.searchPeople(keyword, signal),
    /** Every department (cached 5 minutes), offered before anything is typed. */
    departments: () => api.departments(),
    /** The shares of one folder or document. */
    async shareRecordsOf(resource: { type: 'folder' | 'doc'; id: string }) {
      const all = await api.shareRecords();
      return all.filter((r) => r.resource_type === resource.type && r.resource_id === resource.id);
    },
  };
}
/** A knowledge model. */
export type KnowledgeModel = ReturnType<typeof createKnowledgeModel>;

