// The main list of <csai-knowledge>: the current folder's documents with search and pages, the
// folder's actions, upload (click or drop) with per-file progress, parse-status polling, and the
// per-document actions (open, download, add to knowledge base, move, copy, share, delete).
import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import type { TFunction } from 'i18next';
import { QUESTION_FOLDER_ID, type KbDocument, type KbFolder } from '../../contract/knowledge';
import { ApiError, SIGN_IN_PATH, UPLOAD_SESSION_MESSAGE } from '../../core/api';
import { i18n as coreI18n } from '../../core/i18n';
import { toastStore } from '../../core/toast';
import { checkUpload, canAddToKnowledgeBase, fileExtension, uniqueImageName, VALIDATION_MESSAGES } from '../../core/validation';
import { ConfirmDialog, FolderNameDialog, ShareDialog, TargetFolderDialog } from './Dialogs';
import { DOC_PAGE_SIZE, moleculeCount, type DocPage, type KnowledgeApi } from './knowledge-api';
import { refreshFolders, selectFolder, useCurrentFolder } from './state';
import { totalProgress } from '../../core/upload-progress';
import { Badge, Button, formatSize, Icon } from './ui';

/** SPEC §4/§9: parse status is polled every second while a document is parsing. */
export const PARSE_POLL_MS = 1000;
/**
 * A finished upload batch leaves the list after this long (its documents are in the list below by
 * then, with their parse state); a failed one stays with its message until the user closes it.
 */
export const UPLOAD_CLEAR_MS = 2000;
/** Where a 403 upload sends the user (SPEC §8). */

type Dialog =
  | { kind: 'rename' }
  | { kind: 'delete-folder' }
  | { kind: 'share'; type: 'folder' | 'doc'; id: string; name: string }
  | { kind: 'delete-doc'; doc: KbDocument }
  | { kind: 'target'; action: 'move' | 'copy' | 'add'; doc: KbDocument };

/** SPEC §4 upload status of one file: 1 uploading ("上传中"), 2 done ("完成"), 3 failed. */
type UploadStatus = 1 | 2 | 3;

/** One file of a batch as the upload list shows it. */
interface UploadItem {
  key: string;
  name: string;
  size: number;
  /** 0–100. */
  progress: number;
  status: UploadStatus;
}

export interface MainListProps {
  t: TFunction;
  kbApi: KnowledgeApi;
  onError: (error: unknown) => void;
  /** Tell the page, or go there (csai-navigate, then a full navigation unless the page took it). */
  navigate: (path: string) => void;
}

const typeLabel = (t: TFunction, type: KbDocument['type']) => (type === 1 ? t('type_pdf') : type === 3 ? t('type_image') : type === 5 ? t('type_sdf') : t('type_pdb'));
const isMolecule = (doc: KbDocument) => doc.type === 5 || doc.type === 6;

/** The viewer route of a document (SPEC §2 /pdf_viewer; molecules open their 3D view there). */
export function viewerPath(doc: Pick<KbDocument, 'docId' | 'type'>): string {
  const q = new URLSearchParams({ docId: doc.docId, if_img: doc.type === 3 ? '1' : '0' });
  // Molecule files: the route shows their 3D view without starting the PDF viewer first.
  if (doc.type === 5 || doc.type === 6) q.set('type', String(doc.type));
  return `/pdf_viewer?${q.toString()}`;
}

export function MainList({ t, kbApi, onError, navigate }: MainListProps) {
  const folder = useCurrentFolder();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [docs, setDocs] = useState<DocPage | null | 'error'>(null);
  const [uploads, setUploads] = useState<UploadItem[]>([]);
  const [notice, setNotice] = useState<string>();
  const [dragging, setDragging] = useState(false);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [myFolders, setMyFolders] = useState<KbFolder[] | null>(null);
  const [molecules, setMolecules] = useState<Record<string, number>>({});
  const [reload, setReload] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;
  const owner = folder?.is_owner ?? false;
  // The built-in question-files folder takes uploads but is not renamed, shared, published or deleted.
  const builtin = folder?.id === QUESTION_FOLDER_ID;
  const folderId = folder?.id;

  useEffect(() => {
    setPage(1);
    setSearch('');
    setUploads([]);
    setNotice(undefined);
  }, [folderId]);

  // Load the page; while any document on it is parsing, load it again every second (SPEC §4).
  useEffect(() => {
    if (!folderId) return;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let first = true;
    const load = () => {
      kbApi.docs(folderId, { page, search: search.trim() || undefined }, abort.signal).then(
        (result) => {
          if (abort.signal.aborted) return;
          setDocs(result);
          if (result.items.some((d) => d.parseStatus === 1)) timer = setTimeout(load, PARSE_POLL_MS);
          else if (!first) refreshFolders(); // parsing finished: counts and states beside the folders
          first = false;
        },
        (err: unknown) => {
          if (abort.signal.aborted) return;
          setDocs('error');
          onErrorRef.current(err);
          // The folder is gone or no longer readable (deleted, share withdrawn, another user).
          if (err instanceof ApiError && (err.status === 403 || err.status === 404)) {
            selectFolder(null);
            refreshFolders();
          }
        },
      );
    };
    const debounce = setTimeout(load, search ? 250 : 0);
    return () => {
      abort.abort();
      clearTimeout(debounce);
      clearTimeout(timer);
    };
  }, [kbApi, folderId, page, search, reload]);

  // SDF documents: the molecule count from their parsed text.
  useEffect(() => {
    if (docs === null || docs === 'error') return;
    for (const d of docs.items) {
      if (d.type !== 5 || d.parseStatus !== 2 || d.docId in molecules) continue;
      kbApi.markdown(d.docId).then(
        (md) => {
          const n = moleculeCount(md.markdown);
          if (n !== null) setMolecules((m) => ({ ...m, [d.docId]: n }));
        },
        () => undefined,
      );
    }
  }, [docs, kbApi, molecules]);

  // Finished uploads clear after a moment; failed ones wait for the close button.
  const allDone = uploads.length > 0 && uploads.every((u) => u.status === 2);
  useEffect(() => {
    if (!allDone) return;
    const timer = setTimeout(() => setUploads((items) => items.filter((u) => u.status !== 2)), UPLOAD_CLEAR_MS);
    return () => clearTimeout(timer);
  }, [allDone]);
  /** Closes the failure message and the failed files (a batch still uploading stays). */
  const dismissUploads = () => {
    setNotice(undefined);
    setUploads((items) => items.filter((u) => u.status === 1));
  };

  const again = useCallback(() => setReload((n) => n + 1), []);
  const toast = (title: string, description?: string, destructive = false) =>
    toastStore().toast({ title, description, variant: destructive ? 'destructive' : 'default' });
  const failed = (err: unknown) => {
    onErrorRef.current(err);
  };

  // ---------- upload ----------
  const startUpload = async (chosen: File[]) => {
    // One batch at a time: SPEC §4 progress and failure are per batch.
    if (!folder || !chosen.length || uploads.some((u) => u.status === 1)) return;
    setNotice(undefined);
    // SPEC §5 on the batch: count, types, size, duplicates within it (images renamed).
    const check = checkUpload(chosen);
    let message = check.message;
    // …and against the documents already in the folder.
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
    if (message) {
      setNotice(message);
      toast(message, undefined, true);
      onErrorRef.current(new ApiError(400, message, 'invalid_file', ''));
    }
    if (!accepted.length) return;
    const batch: UploadItem[] = accepted.map((a, i) => ({ key: `${Date.now()}-${i}`, name: a.name, size: a.file.size, progress: 0, status: 1 }));
    setUploads(batch);
    try {
      await kbApi.upload(folder.id, accepted, (percents) => setUploads((items) => items.map((it, i) => ({ ...it, progress: Math.min(percents[i] ?? it.progress, 99) }))));
      setUploads((items) => items.map((it) => ({ ...it, progress: 100, status: 2 })));
      setPage(1);
      again();
      refreshFolders();
    } catch (err) {
      // SPEC §4: on an upload error every file of the batch is failed. The client showed the
      // SPEC §8 upload toast and reported csai-error; the list adds the sign-in or the reason.
      setUploads((items) => items.map((it) => ({ ...it, status: 3 })));
      if (!(err instanceof ApiError) || err.code === 'aborted') return;
      if (err.status === 401 || err.status === 403 || err.message === UPLOAD_SESSION_MESSAGE) navigate(SIGN_IN_PATH);
      else setNotice(err.status >= 400 && err.status < 500 ? err.message : coreI18n().t('core:upload_failed_description'));
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!owner) return;
    void startUpload([...(e.dataTransfer?.files ?? [])]);
  };

  // ---------- folder actions ----------
  const openTarget = (action: 'move' | 'copy' | 'add', doc: KbDocument) => {
    setDialog({ kind: 'target', action, doc });
    setMyFolders(null);
    kbApi.folders('mine').then((p) => setMyFolders(p.items), (err: unknown) => { setMyFolders([]); failed(err); });
  };

  const download = async (doc: KbDocument) => {
    try {
      const { blob, filename } = await kbApi.download(doc.docId);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = filename ?? doc.title;
      a.rel = 'noopener';
      a.style.display = 'none';
      fileInput.current?.parentElement?.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (err) {
      failed(err);
    }
  };

  if (!folder) return null;
  const list = docs !== null && docs !== 'error' ? docs : null;
  const pages = list ? Math.max(1, Math.ceil(list.total / DOC_PAGE_SIZE)) : 1;
  const uploading = uploads.some((u) => u.status === 1);

  return (
    <section
      part="main-list"
      aria-labelledby="kb-folder-title"
      className={`relative flex flex-col gap-4 p-4 md:p-6 min-h-full ${dragging ? 'outline outline-2 outline-dashed outline-accent -outline-offset-4' : ''}`}
      onDragOver={(e) => {
        if (!owner) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <header className="flex flex-col gap-3 md:flex-row md:items-start md:justify-between">
        <div className="min-w-0">
          <h2 id="kb-folder-title" className="m-0 text-xl font-semibold break-words">{builtin ? t('question_files') : folder.name}</h2>
          <p className="m-0 mt-1 flex flex-wrap items-center gap-2 text-sm text-muted">
            <span>{t('doc_count', { count: folder.doc_count })}</span>
            {!owner && <span>{t('owner', { name: folder.owner_name })}</span>}
            {folder.is_public && <Badge tone="info"><Icon name="globe" className="w-3 h-3" />{t('is_public')}</Badge>}
            {owner && folder.isShared && <Badge tone="accent"><Icon name="users" className="w-3 h-3" />{t('is_shared')}</Badge>}
            {!owner && <Badge>{t('read_only')}</Badge>}
          </p>
        </div>
        {owner && (
          <div className="flex flex-wrap gap-2" part="folder-actions" role="group" aria-label={folder.name}>
            <Button tone="primary" onClick={() => fileInput.current?.click()} disabled={uploading} part="upload-button">
              <Icon name="upload" />
              {t('upload')}
            </Button>
            {!builtin && (
              <>
                <Button onClick={() => setDialog({ kind: 'share', type: 'folder', id: folder.id, name: folder.name })}><Icon name="share" />{t('share')}</Button>
                <Button onClick={() => setDialog({ kind: 'rename' })}>{t('rename')}</Button>
                <Button
                  onClick={async () => {
                    try {
                      const updated = await kbApi.updateFolder(folder.id, { is_public: !folder.is_public });
                      selectFolder(updated);
                      refreshFolders();
                      toast(updated.is_public ? t('now_public') : t('now_private'));
                    } catch (err) {
                      failed(err);
                    }
                  }}
                >
                  <Icon name="globe" />
                  {folder.is_public ? t('make_private') : t('make_public')}
                </Button>
                <Button tone="danger" onClick={() => setDialog({ kind: 'delete-folder' })}>{t('delete')}</Button>
              </>
            )}
          </div>
        )}
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          part="file-input"
          accept=".pdf,.jpg,.jpeg,.png,.pdb,.sdf"
          aria-label={t('upload')}
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void startUpload(files);
          }}
        />
      </header>

      {owner && (
        <button
          type="button"
          part="drop-zone"
          onClick={() => fileInput.current?.click()}
          className={`flex flex-col items-center justify-center gap-1 rounded-csai border-2 border-dashed px-4 py-5 text-center cursor-pointer font-csai bg-transparent transition-colors ${dragging ? 'border-accent text-accent' : 'border-line text-muted hover:border-accent hover:text-accent'}`}
        >
          <Icon name="upload" className="w-6 h-6" />
          <span className="text-sm font-medium text-ink">{t('drop_here')}</span>
          <span className="text-xs">{t('drop_hint')}</span>
        </button>
      )}

      {notice && (
        <div className="flex items-start gap-2 rounded-csai border border-danger border-l-4 px-3 py-2">
          <p role="alert" part="notice" className="m-0 flex-1 text-sm text-danger">{notice}</p>
          <Button tone="ghost" small part="notice-close" aria-label={t('close_notice')} onClick={dismissUploads}>
            <Icon name="close" className="w-3.5 h-3.5" />
          </Button>
        </div>
      )}

      {uploads.length > 0 && (
        <div part="uploads" className="flex flex-col gap-2 rounded-csai border border-line p-3" aria-live="polite">
          <div className="flex items-center justify-between text-sm">
            <span className="font-medium">{t('upload')}</span>
            <span className="flex items-center gap-2">
              <span part="upload-total" className="text-muted">{t('upload_total', { percent: totalProgress(uploads.map((u) => u.progress)) })}</span>
              {!uploading && (
                <Button tone="ghost" small part="uploads-close" aria-label={t('close_uploads')} onClick={dismissUploads}>
                  <Icon name="close" className="w-3.5 h-3.5" />
                </Button>
              )}
            </span>
          </div>
          <ul className="m-0 p-0 list-none flex flex-col gap-2">
            {uploads.map((u) => (
              <li key={u.key} part="upload-item" data-status={u.status} className="flex flex-col gap-1">
                <div className="flex items-center justify-between gap-2 text-sm">
                  <span className="truncate">{u.name}</span>
                  <span className={`shrink-0 text-xs ${u.status === 3 ? 'text-danger' : u.status === 2 ? 'text-success' : 'text-muted'}`}>
                    {u.status === 1 ? `${t('uploading')} ${u.progress}%` : u.status === 2 ? t('upload_done') : t('upload_failed')}
                  </span>
                </div>
                <div
                  role="progressbar"
                  aria-label={u.name}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={u.progress}
                  className="h-1.5 w-full overflow-hidden rounded-full bg-line"
                >
                  <div className={`h-full rounded-full ${u.status === 3 ? 'bg-danger' : u.status === 2 ? 'bg-success' : 'bg-accent'}`} style={{ width: `${u.progress}%` }} />
                </div>
              </li>
            ))}
          </ul>
        </div>
      )}

      <div className="flex items-center gap-2">
        <label className="relative flex-1 max-w-sm">
          <span className="sr-only">{t('search_docs')}</span>
          <span className="absolute left-2.5 top-1/2 -translate-y-1/2 text-muted"><Icon name="search" className="w-3.5 h-3.5" /></span>
          <input
            type="search"
            value={search}
            maxLength={100}
            placeholder={t('search_docs')}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
            className="w-full rounded-csai border border-line bg-surface text-ink pl-8 pr-2 py-1.5 text-sm outline-none focus:border-accent"
          />
        </label>
      </div>

      {docs === null && <p className="m-0 text-sm text-muted" role="status">{t('loading')}</p>}
      {docs === 'error' && (
        <p className="m-0 text-sm text-danger flex items-center gap-2">{t('load_failed')}<Button small onClick={again}>{t('retry')}</Button></p>
      )}
      {list && list.items.length === 0 && (
        <div part="empty" className="flex flex-col items-center gap-1 rounded-csai border border-line px-4 py-10 text-center">
          <Icon name="doc" className="w-8 h-8 text-muted" />
          <p className="m-0 text-sm font-medium">{search.trim() ? t('no_match') : t('empty_folder')}</p>
          {!search.trim() && owner && <p className="m-0 text-xs text-muted">{t('empty_folder_hint')}</p>}
        </div>
      )}
      {list && list.items.length > 0 && (
        <ul part="documents" className="m-0 p-0 list-none flex flex-col rounded-csai border border-line">
          {list.items.map((doc) => (
            <DocumentRow
              key={doc.docId}
              t={t}
              doc={doc}
              folderOwner={folder.owner_id}
              molecules={molecules[doc.docId]}
              canChange={doc.is_owner}
              onOpen={() => navigate(viewerPath(doc))}
              onDownload={() => void download(doc)}
              onAction={(action) => {
                if (action === 'delete') setDialog({ kind: 'delete-doc', doc });
                else if (action === 'share') setDialog({ kind: 'share', type: 'doc', id: doc.docId, name: doc.title });
                else openTarget(action, doc);
              }}
            />
          ))}
        </ul>
      )}
      {list && pages > 1 && (
        <nav part="pagination" aria-label={t('page_of', { page, pages })} className="flex items-center justify-center gap-3 text-sm">
          <Button small disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>{t('prev_page')}</Button>
          <span>{t('page_of', { page, pages })}</span>
          <Button small disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>{t('next_page')}</Button>
        </nav>
      )}

      {dialog?.kind === 'rename' && (
        <FolderNameDialog
          t={t}
          title={t('rename_title')}
          initial={folder.name}
          submitLabel={t('save')}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            const updated = await kbApi.updateFolder(folder.id, { name });
            selectFolder(updated);
            refreshFolders();
            setDialog(null);
            toast(t('renamed'));
          }}
        />
      )}
      {dialog?.kind === 'delete-folder' && (
        <ConfirmDialog
          t={t}
          title={t('delete_folder_title')}
          text={t('delete_folder_text', { name: folder.name, count: folder.doc_count })}
          confirmLabel={t('delete')}
          onClose={() => setDialog(null)}
          onConfirm={async () => {
            try {
              await kbApi.deleteFolder(folder.id);
              setDialog(null);
              selectFolder(null);
              refreshFolders();
              toast(t('deleted'));
            } catch (err) {
              failed(err);
            }
          }}
        />
      )}
      {dialog?.kind === 'delete-doc' && (
        <ConfirmDialog
          t={t}
          title={t('delete_doc_title')}
          text={t('delete_doc_text', { name: dialog.doc.title })}
          confirmLabel={t('delete')}
          onClose={() => setDialog(null)}
          onConfirm={async () => {
            try {
              await kbApi.deleteDoc(dialog.doc.docId);
              setDialog(null);
              again();
              refreshFolders();
              toast(t('deleted'));
            } catch (err) {
              failed(err);
            }
          }}
        />
      )}
      {dialog?.kind === 'share' && (
        <ShareDialog
          t={t}
          kbApi={kbApi}
          resource={{ type: dialog.type, id: dialog.id, name: dialog.name }}
          onClose={() => setDialog(null)}
          onShared={(message) => {
            toast(message);
            refreshFolders();
          }}
        />
      )}
      {dialog?.kind === 'target' && (
        <TargetFolderDialog
          t={t}
          title={dialog.action === 'move' ? t('move_title') : dialog.action === 'copy' ? t('copy_title') : t('add_title')}
          folders={myFolders}
          excludeId={dialog.action === 'move' ? folder.id : undefined}
          submitLabel={dialog.action === 'move' ? t('move') : dialog.action === 'copy' ? t('copy') : t('add_to_kb')}
          onClose={() => setDialog(null)}
          onSubmit={async (target) => {
            const doc = dialog.doc;
            if (dialog.action === 'add') {
              // SPEC §5: adding needs both a folder and a document.
              if (!canAddToKnowledgeBase(target, doc.docId)) return;
              try {
                await kbApi.addToKb(doc.docId, target);
                toast(t('add_ok_title'), t('add_ok_text'));
                setDialog(null);
                refreshFolders();
              } catch (err) {
                toast(t('add_fail_title'), err instanceof ApiError && err.message ? err.message : t('add_fail_text'), true);
                failed(err);
              }
              return;
            }
            try {
              if (dialog.action === 'move') await kbApi.moveDoc(doc.docId, target);
              else await kbApi.copyDoc(doc.docId, target);
              toast(dialog.action === 'move' ? t('moved') : t('copied'));
              setDialog(null);
              again();
              refreshFolders();
            } catch (err) {
              failed(err);
            }
          }}
        />
      )}
    </section>
  );
}

/** One document: type, title, size, pages or molecules, parse status, actions. */
function DocumentRow({ t, doc, folderOwner, molecules, canChange, onOpen, onDownload, onAction }: {
  t: TFunction;
  folderOwner: string;
  doc: KbDocument;
  molecules: number | undefined;
  canChange: boolean;
  onOpen: () => void;
  onDownload: () => void;
  onAction: (action: 'add' | 'move' | 'copy' | 'share' | 'delete') => void;
}) {
  const [menu, setMenu] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (menu) menuRef.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, [menu]);
  const status =
    doc.parseStatus === 1 ? <Badge tone="warning" part="parse-status">{t('parsing', { percent: doc.parse_progress })}</Badge>
    : doc.parseStatus === 2 ? <Badge tone="success" part="parse-status">{t('parsed')}</Badge>
    : <Badge tone="danger" part="parse-status">{t('parse_failed')}</Badge>;
  const actions: { key: 'add' | 'move' | 'copy' | 'share' | 'delete'; label: string; show: boolean }[] = [
    // SPEC §4: a parsed document offers to be added to a knowledge base.
    { key: 'add', label: t('add_to_kb'), show: doc.parseStatus === 2 },
    { key: 'copy', label: t('copy'), show: true },
    { key: 'move', label: t('move'), show: canChange },
    { key: 'share', label: t('share'), show: canChange },
    { key: 'delete', label: t('delete'), show: canChange },
  ];
  const lastText = doc.parseStatus === 3 ? doc.progress_texts[doc.progress_texts.length - 1] : undefined;
  return (
    <li part="document" data-doc-id={doc.docId} data-parse-status={doc.parseStatus} className="flex flex-col gap-2 border-b border-line px-3 py-3 last:border-b-0 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <span className={`mt-0.5 flex h-8 w-8 shrink-0 items-center justify-center rounded-csai border border-line ${isMolecule(doc) ? 'text-accent' : 'text-muted'}`}>
          <Icon name={isMolecule(doc) ? 'atom' : 'doc'} />
        </span>
        <div className="min-w-0 flex-1">
          <button type="button" onClick={onOpen} part="document-title" className="block max-w-full truncate border-0 bg-transparent p-0 text-left text-sm font-medium text-ink cursor-pointer font-csai hover:text-accent hover:underline">
            {doc.title}
          </button>
          <p className="m-0 mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
            <span>{typeLabel(t, doc.type)}</span>
            <span>{formatSize(doc.size)}</span>
            {doc.page_count !== null && <span>{t('pages', { count: doc.page_count })}</span>}
            {molecules !== undefined && <span part="molecule-count">{t('molecules', { count: molecules })}</span>}
            {!doc.is_owner && doc.owner_id !== folderOwner && <span>{t('owner', { name: doc.owner_name })}</span>}
            {status}
          </p>
          {lastText && <p className="m-0 mt-1 text-xs text-danger">{lastText}</p>}
        </div>
      </div>
      <div className="relative flex shrink-0 items-center gap-1.5 pl-11 sm:pl-0">
        <Button small onClick={onOpen}>{isMolecule(doc) ? t('view_3d') : t('open')}</Button>
        <Button small onClick={onDownload}>{t('download')}</Button>
        <Button small tone="ghost" aria-label={t('more_actions', { title: doc.title })} aria-haspopup="menu" aria-expanded={menu} onClick={() => setMenu((m) => !m)}>
          <Icon name="more" />
        </Button>
        {menu && (
          <div
            ref={menuRef}
            role="menu"
            part="document-menu"
            aria-label={t('more_actions', { title: doc.title })}
            onKeyDown={(e) => {
              const items = [...(menuRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
              const at = items.indexOf(e.target as HTMLButtonElement);
              if (e.key === 'Escape') setMenu(false);
              else if (e.key === 'ArrowDown') items[(at + 1) % items.length]?.focus();
              else if (e.key === 'ArrowUp') items[(at - 1 + items.length) % items.length]?.focus();
              else return;
              e.preventDefault();
            }}
            onBlur={(e) => {
              if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setMenu(false);
            }}
            className="absolute right-0 top-full z-10 mt-1 flex min-w-[9rem] flex-col rounded-csai border border-line bg-surface py-1 shadow-lg"
          >
            {actions.filter((a) => a.show).map((a) => (
              <button
                key={a.key}
                type="button"
                role="menuitem"
                onClick={() => {
                  setMenu(false);
                  onAction(a.key);
                }}
                className={`border-0 bg-transparent px-3 py-1.5 text-left text-sm cursor-pointer font-csai hover:bg-line focus:bg-line outline-none ${a.key === 'delete' ? 'text-danger' : 'text-ink'}`}
              >
                {a.label}
              </button>
            ))}
          </div>
        )}
      </div>
    </li>
  );
}
