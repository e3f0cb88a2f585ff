// The sidebar of <csai-knowledge>: the header (title, new folder, search, sort) and the content
// (my folders, shared with me, public folders).
import { useEffect, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { QUESTION_FOLDER_ID, type KbFolder } from '../../contract/knowledge';
import { ApiError } from '../../core/api';
import { toastStore } from '../../core/toast';
import { FolderNameDialog } from './Dialogs';
import type { FolderScope, FolderSortKey, KnowledgeApi } from './knowledge-api';
import { $foldersVersion, $folderSearch, $folderSort, refreshFolders, selectFolder, useCurrentFolder, useSignalValue } from './state';
import { Button, Icon } from './ui';

/** Title, "新建知识库", search and sort. */
export function SidebarHeader({ t, kbApi, onError, publicOnly }: { t: TFunction; kbApi: KnowledgeApi; onError: (e: unknown) => void; publicOnly?: boolean }) {
  const search = useSignalValue($folderSearch);
  const sort = useSignalValue($folderSort);
  const [creating, setCreating] = useState(false);
  return (
    <div part="sidebar-header" className="flex flex-col gap-3 p-4 border-b border-line">
      <div className="flex items-center justify-between gap-2">
        <h2 className="m-0 text-lg font-semibold">{publicOnly ? t('public_title') : t('title')}</h2>
        {!publicOnly && (
          <Button tone="primary" small onClick={() => setCreating(true)} part="new-folder">
            <Icon name="plus" className="w-3.5 h-3.5" />
            {t('new_folder')}
          </Button>
        )}
      </div>
      <div className="flex gap-2">
        <label className="relative flex-1 min-w-0">
          <span className="sr-only">{t('search_folders')}</span>
          <span className="absolute left-2.5 top-1/2 -translate-y-1/2 text-muted"><Icon name="search" className="w-3.5 h-3.5" /></span>
          <input
            type="search"
            value={search}
            placeholder={t('search_folders')}
            maxLength={100}
            onChange={(e) => ($folderSearch.value = e.target.value)}
            className="w-full rounded-csai border border-line bg-surface text-ink pl-8 pr-2 py-1.5 text-sm outline-none focus:border-accent"
          />
        </label>
        <label className="shrink-0">
          <span className="sr-only">{t('sort_label')}</span>
          <select
            value={sort}
            onChange={(e) => ($folderSort.value = e.target.value as FolderSortKey)}
            className="rounded-csai border border-line bg-surface text-ink px-2 py-1.5 text-sm outline-none focus:border-accent"
          >
            <option value="-createTime">{t('sort_newest')}</option>
            <option value="createTime">{t('sort_oldest')}</option>
            <option value="-updateTime">{t('sort_updated')}</option>
            <option value="name">{t('sort_name')}</option>
          </select>
        </label>
      </div>
      {creating && (
        <FolderNameDialog
          t={t}
          title={t('create_title')}
          initial=""
          submitLabel={t('create')}
          onClose={() => setCreating(false)}
          onSubmit={async (name) => {
            try {
              const folder = await kbApi.createFolder(name);
              setCreating(false);
              selectFolder(folder);
              refreshFolders();
              toastStore().toast({ title: t('created') });
            } catch (err) {
              if (!(err instanceof ApiError) || err.status >= 500 || err.status === 0) onError(err);
              throw err;
            }
          }}
        />
      )}
    </div>
  );
}

type Lists = Partial<Record<FolderScope, KbFolder[] | 'error'>>;

/** The folder lists; choosing one makes it the current folder of the store. */
export function SidebarContent({ t, kbApi, onError, publicOnly }: { t: TFunction; kbApi: KnowledgeApi; onError: (e: unknown) => void; publicOnly?: boolean }) {
  const search = useSignalValue($folderSearch);
  const sort = useSignalValue($folderSort);
  const version = useSignalValue($foldersVersion);
  const current = useCurrentFolder();
  const [lists, setLists] = useState<Lists>({});
  const [questionFolder, setQuestionFolder] = useState<KbFolder | null>(null);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;
  const scopes: FolderScope[] = publicOnly ? ['public'] : ['mine', 'shared', 'public'];

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      // SPEC §9: the built-in folder of files uploaded with questions, first among mine.
      if (!publicOnly) {
        kbApi.folder(QUESTION_FOLDER_ID).then(
          (f) => live && setQuestionFolder(f),
          () => live && setQuestionFolder(null),
        );
      }
      for (const scope of scopes) {
        kbApi.folders(scope, { search: search.trim() || undefined, sort }).then(
          (page) => {
            if (!live) return;
            setLists((l) => ({ ...l, [scope]: page.items }));
            // Keep the current folder's name and count in step with the list.
            const fresh = page.items.find((f) => f.id === current?.id);
            if (fresh && current && JSON.stringify(fresh) !== JSON.stringify(current)) selectFolder(fresh);
          },
          (err: unknown) => {
            if (!live) return;
            setLists((l) => ({ ...l, [scope]: 'error' }));
            onErrorRef.current(err);
          },
        );
      }
    }, search ? 250 : 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // current is read for the count refresh only; a selection alone does not reload the lists.
  }, [kbApi, search, sort, version, publicOnly]);

  const titles: Record<FolderScope, string> = { mine: t('my_folders'), shared: t('shared_folders'), public: t('public_folders') };
  const empties: Record<FolderScope, string> = { mine: t('no_folders'), shared: t('no_shared'), public: t('no_public') };
  return (
    <nav part="sidebar-content" aria-label={publicOnly ? t('public_title') : t('title')} className="flex flex-col gap-4 p-3">
      {scopes.map((scope) => {
        const loaded = lists[scope];
        // The question-files folder shows under mine unless a search is narrowing the list.
        const list = scope === 'mine' && Array.isArray(loaded) && questionFolder && !search.trim() ? [questionFolder, ...loaded] : loaded;
        return (
          <section key={scope} part={`folder-section section-${scope}`} aria-labelledby={`kb-sec-${scope}`} className="flex flex-col gap-1">
            <h3 id={`kb-sec-${scope}`} className="m-0 px-2 text-xs font-semibold uppercase tracking-wide text-muted flex items-center gap-1.5">
              <Icon name={scope === 'mine' ? 'folder' : scope === 'shared' ? 'users' : 'globe'} className="w-3.5 h-3.5" />
              {titles[scope]}
              {Array.isArray(loaded) && <span className="font-normal">({loaded.length})</span>}
            </h3>
            {list === undefined && <p className="m-0 px-2 py-1 text-sm text-muted">{t('loading')}</p>}
            {list === 'error' && (
              <p className="m-0 px-2 py-1 text-sm text-danger flex items-center gap-2">
                {t('load_failed')}
                <Button small tone="ghost" onClick={() => refreshFolders()}>{t('retry')}</Button>
              </p>
            )}
            {Array.isArray(loaded) && loaded.length === 0 && <p className="m-0 px-2 py-1 text-sm text-muted">{empties[scope]}</p>}
            {Array.isArray(list) && list.length > 0 && (
              <ul className="m-0 p-0 list-none flex flex-col gap-0.5">
                {list.map((f) => {
                  const active = current?.id === f.id;
                  return (
                    <li key={f.id}>
                      <button
                        type="button"
                        part={`folder${active ? ' folder-active' : ''}`}
                        data-folder-id={f.id}
                        aria-current={active ? 'true' : undefined}
                        onClick={() => selectFolder(f)}
                        className={`w-full flex items-center gap-2 rounded-csai border-0 px-2 py-2 text-left text-sm cursor-pointer font-csai focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent ${active ? 'bg-accent text-accent-fg' : 'bg-transparent text-ink hover:bg-line'}`}
                      >
                        <Icon name={f.id === QUESTION_FOLDER_ID ? 'doc' : 'folder'} className={`w-4 h-4 ${active ? '' : 'text-muted'}`} />
                        <span className="flex-1 min-w-0 truncate">{f.id === QUESTION_FOLDER_ID ? t('question_files') : f.name}</span>
                        {f.is_public && scope === 'mine' && <span className="sr-only">{t('is_public')}</span>}
                        {f.is_public && scope === 'mine' && <Icon name="globe" className="w-3.5 h-3.5 opacity-70" />}
                        <span className={`text-xs ${active ? '' : 'text-muted'}`}>{f.doc_count}</span>
                      </button>
                      {scope !== 'mine' && !active && <span className="sr-only">{t('owner', { name: f.owner_name })}</span>}
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        );
      })}
    </nav>
  );
}

