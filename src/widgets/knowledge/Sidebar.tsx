// The sidebar of <csai-knowledge>: the header (title, new folder, search — Enter opens the folder
// of that exact name —, sort) and the content (my folders with my question files and all my
// documents, shared with me — folders and documents shared one by one —, public folders).
import { useEffect, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { QUESTION_FOLDER_ID, type KbFolder } from '../../contract/knowledge';
import type { FolderScope, FolderSortKey } from '../../core/knowledge-api';
import type { DocumentView, KnowledgeModel } from '../../core/knowledge-model';
import { FolderNameDialog } from './Dialogs';
import { useSignalValue } from './state';
import { Button, Icon } from './ui';

const SORTS: FolderSortKey[] = ['-createTime', 'createTime', '-updateTime', 'name'];
const isSort = (v: string): v is FolderSortKey => SORTS.some((s) => s === v);

/** Title, "新建知识库", search and sort. */
export function SidebarHeader({ t, model, publicOnly }: { t: TFunction; model: KnowledgeModel; publicOnly?: boolean }) {
  const sel = model.selection;
  const search = useSignalValue(sel.$folderSearch);
  const sort = useSignalValue(sel.$folderSort);
  const [creating, setCreating] = useState(false);
  const [lookup, setLookup] = useState<string>();
  // Enter: open my folder of exactly that name (GET get_folder/xxx?folder_name=).
  const openByName = async (name: string) => {
    setLookup(undefined);
    if (!name.trim() || publicOnly) return;
    if (!(await model.openFolderByName(name))) setLookup(t('folder_not_found', { name: name.trim() }));
  };
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
            title={publicOnly ? undefined : t('folder_lookup_hint')}
            maxLength={100}
            onChange={(e) => {
              sel.$folderSearch.value = e.target.value;
              setLookup(undefined);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.nativeEvent.isComposing) void openByName(e.currentTarget.value);
            }}
            className="w-full rounded-csai border border-line bg-surface text-ink pl-8 pr-2 py-1.5 text-sm outline-none focus:border-accent"
          />
        </label>
        <label className="shrink-0">
          <span className="sr-only">{t('sort_label')}</span>
          <select
            value={sort}
            onChange={(e) => {
              if (isSort(e.target.value)) sel.$folderSort.value = e.target.value;
            }}
            className="rounded-csai border border-line bg-surface text-ink px-2 py-1.5 text-sm outline-none focus:border-accent"
          >
            <option value="-createTime">{t('sort_newest')}</option>
            <option value="createTime">{t('sort_oldest')}</option>
            <option value="-updateTime">{t('sort_updated')}</option>
            <option value="name">{t('sort_name')}</option>
          </select>
        </label>
      </div>
      {lookup && <p role="alert" part="folder-lookup" className="m-0 text-xs text-danger">{lookup}</p>}
      {creating && (
        <FolderNameDialog
          t={t}
          title={t('create_title')}
          initial=""
          submitLabel={t('create')}
          onClose={() => setCreating(false)}
          onSubmit={async (name) => {
            await model.createFolder(name);
            setCreating(false);
          }}
        />
      )}
    </div>
  );
}

type Lists = Partial<Record<FolderScope, KbFolder[] | 'error'>>;

/** Loads the folder lists (and my question-files folder) whenever search, sort or a change asks. */
function useFolderLists(model: KnowledgeModel, scopes: FolderScope[], withQuestionFolder: boolean) {
  const sel = model.selection;
  const search = useSignalValue(sel.$folderSearch);
  const sort = useSignalValue(sel.$folderSort);
  const version = useSignalValue(sel.$foldersVersion);
  const [lists, setLists] = useState<Lists>({});
  const [questionFolder, setQuestionFolder] = useState<KbFolder | null>(null);
  const reportRef = useRef(model);
  reportRef.current = model;
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      // SPEC §9: the built-in folder of files uploaded with questions, first among mine.
      if (withQuestionFolder) {
        model.api.folder(QUESTION_FOLDER_ID).then((f) => live && setQuestionFolder(f), () => live && setQuestionFolder(null));
      }
      for (const scope of scopes) {
        model.api.folders(scope, { search: search.trim() || undefined, sort }).then(
          (page) => {
            if (!live) return;
            setLists((l) => ({ ...l, [scope]: page.items }));
            // Keep the current folder's name and count in step with the list.
            const current = sel.$folder.peek();
            const fresh = page.items.find((f) => f.id === current?.id);
            if (fresh && current && JSON.stringify(fresh) !== JSON.stringify(current)) sel.selectFolder(fresh);
          },
          (err: unknown) => {
            if (!live) return;
            setLists((l) => ({ ...l, [scope]: 'error' }));
            reportRef.current.report(err);
          },
        );
      }
    }, search ? 250 : 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [model, search, sort, version, withQuestionFolder, scopes.join()]);
  return { lists, questionFolder, searching: !!search.trim() };
}

/** The folder lists; choosing one makes it the current folder of the store. */
export function SidebarContent({ t, model, publicOnly }: { t: TFunction; model: KnowledgeModel; publicOnly?: boolean }) {
  const scopes: FolderScope[] = publicOnly ? ['public'] : ['mine', 'shared', 'public'];
  const { lists, questionFolder, searching } = useFolderLists(model, scopes, !publicOnly);
  const current = useSignalValue(model.selection.$folder);
  const view = useSignalValue(model.selection.$view);
  const titles: Record<FolderScope, string> = { mine: t('my_folders'), shared: t('shared_folders'), public: t('public_folders') };
  const empties: Record<FolderScope, string> = { mine: t('no_folders'), shared: t('no_shared'), public: t('no_public') };
  // The document views sit with their section: all mine under mine, shared one by one under shared.
  const views: Partial<Record<FolderScope, DocumentView>> = { mine: 'all_docs', shared: 'shared_docs' };
  return (
    <nav part="sidebar-content" aria-label={publicOnly ? t('public_title') : t('title')} className="flex flex-col gap-4 p-3">
      {scopes.map((scope) => {
        const loaded = lists[scope];
        // The question-files folder shows under mine unless a search is narrowing the list.
        const list = scope === 'mine' && Array.isArray(loaded) && questionFolder && !searching ? [questionFolder, ...loaded] : loaded;
        const docView = views[scope];
        return (
          <section key={scope} part={`folder-section section-${scope}`} aria-labelledby={`kb-sec-${scope}`} className="flex flex-col gap-1">
            <h3 id={`kb-sec-${scope}`} className="m-0 px-2 text-xs font-semibold uppercase tracking-wide text-muted flex items-center gap-1.5">
              <Icon name={scope === 'mine' ? 'folder' : scope === 'shared' ? 'users' : 'globe'} className="w-3.5 h-3.5" />
              {titles[scope]}
              {Array.isArray(loaded) && <span className="font-normal">({loaded.length})</span>}
            </h3>
            {docView && <ViewEntry label={docView === 'all_docs' ? t('all_docs') : t('shared_docs')} view={docView} active={view === docView} onOpen={() => model.selection.openView(docView)} />}
            {list === undefined && <p className="m-0 px-2 py-1 text-sm text-muted">{t('loading')}</p>}
            {list === 'error' && (
              <p className="m-0 px-2 py-1 text-sm text-danger flex items-center gap-2">
                {t('load_failed')}
                <Button small tone="ghost" onClick={() => model.selection.refreshFolders()}>{t('retry')}</Button>
              </p>
            )}
            {Array.isArray(loaded) && loaded.length === 0 && <p className="m-0 px-2 py-1 text-sm text-muted">{empties[scope]}</p>}
            {Array.isArray(list) && list.length > 0 && (
              <ul className="m-0 p-0 list-none flex flex-col gap-0.5">
                {list.map((f) => <FolderEntry key={f.id} t={t} folder={f} scope={scope} active={current?.id === f.id} onOpen={() => model.selection.selectFolder(f)} />)}
              </ul>
            )}
          </section>
        );
      })}
    </nav>
  );
}

const entryClass = (active: boolean) =>
  `w-full flex items-center gap-2 rounded-csai border-0 px-2 py-2 text-left text-sm cursor-pointer font-csai focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent ${active ? 'bg-accent text-accent-fg' : 'bg-transparent text-ink hover:bg-line'}`;

function FolderEntry({ t, folder: f, scope, active, onOpen }: { t: TFunction; folder: KbFolder; scope: FolderScope; active: boolean; onOpen: () => void }) {
  return (
    <li>
      <button type="button" part={`folder${active ? ' folder-active' : ''}`} data-folder-id={f.id} aria-current={active ? 'true' : undefined} onClick={onOpen} className={entryClass(active)}>
        <Icon name={f.id === QUESTION_FOLDER_ID ? 'doc' : 'folder'} className={`w-4 h-4 ${active ? '' : 'text-muted'}`} />
        <span className="flex-1 min-w-0 truncate">{f.id === QUESTION_FOLDER_ID ? t('question_files') : f.name}</span>
        {f.is_public && scope === 'mine' && <span className="sr-only">{t('is_public')}</span>}
        {f.is_public && scope === 'mine' && <Icon name="globe" className="w-3.5 h-3.5 opacity-70" />}
        <span className={`text-xs ${active ? '' : 'text-muted'}`}>{f.doc_count}</span>
      </button>
      {scope !== 'mine' && !active && <span className="sr-only">{t('owner', { name: f.owner_name })}</span>}
    </li>
  );
}

/** "全部文档" or "与我共享": a document list that is not a folder. */
function ViewEntry({ label, view, active, onOpen }: { label: string; view: DocumentView; active: boolean; onOpen: () => void }) {
  return (
    <button type="button" part={`doc-view${active ? ' doc-view-active' : ''}`} data-view={view} aria-current={active ? 'true' : undefined} onClick={onOpen} className={entryClass(active)}>
      <Icon name={view === 'shared_docs' ? 'share' : 'doc'} className={`w-4 h-4 ${active ? '' : 'text-muted'}`} />
      <span className="flex-1 min-w-0 truncate">{label}</span>
    </button>
  );
}
