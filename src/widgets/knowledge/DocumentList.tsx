// The documents of the main list: search, loading and failure, the empty state, the rows and the
// pages.
import type { TFunction } from 'i18next';
import { DOC_PAGE_SIZE } from '../../core/knowledge-api';
import type { DocSource, KnowledgeModel } from '../../core/knowledge-model';
import { useHost } from '../shared/host-context';
import { DocumentRow } from './DocumentRow';
import type { MainDialog } from './MainDialogs';
import { useSignalValue } from './state';
import { Button, Icon, saveBlob } from './ui';

export function DocumentList({ t, model, source, onDialog }: {
  t: TFunction;
  model: KnowledgeModel;
  source: DocSource;
  onDialog: (dialog: MainDialog) => void;
}) {
  const { root } = useHost();
  const docs = useSignalValue(model.$docs);
  const search = useSignalValue(model.$search);
  const page = useSignalValue(model.$page);
  const molecules = useSignalValue(model.$molecules);
  const list = docs !== null && docs !== 'error' ? docs : null;
  const pages = list ? Math.max(1, Math.ceil(list.total / DOC_PAGE_SIZE)) : 1;
  const folder = source.kind === 'folder' ? source.folder : null;
  const searching = !!search.trim();
  const empty = searching ? t('no_match') : source.kind === 'shared_docs' ? t('no_shared_docs') : source.kind === 'all_docs' ? t('no_docs') : t('empty_folder');

  return (
    <>
      <div className="flex items-center gap-2">
        <label className="relative flex-1 max-w-sm">
          <span className="sr-only">{t('search_docs')}</span>
          <span className="absolute left-2.5 top-1/2 -translate-y-1/2 text-muted"><Icon name="search" className="w-3.5 h-3.5" /></span>
          <input
            type="search"
            value={search}
            maxLength={100}
            placeholder={t('search_docs')}
            onChange={(e) => model.setSearch(e.target.value)}
            className="w-full rounded-csai border border-line bg-surface text-ink pl-8 pr-2 py-1.5 text-sm outline-none focus:border-accent"
          />
        </label>
      </div>
      {docs === null && <p className="m-0 text-sm text-muted" role="status">{t('loading')}</p>}
      {docs === 'error' && (
        <p className="m-0 text-sm text-danger flex items-center gap-2">{t('load_failed')}<Button small onClick={() => model.reload()}>{t('retry')}</Button></p>
      )}
      {list && list.items.length === 0 && (
        <div part="empty" className="flex flex-col items-center gap-1 rounded-csai border border-line px-4 py-10 text-center">
          <Icon name="doc" className="w-8 h-8 text-muted" />
          <p className="m-0 text-sm font-medium">{empty}</p>
          {!searching && folder?.is_owner && <p className="m-0 text-xs text-muted">{t('empty_folder_hint')}</p>}
        </div>
      )}
      {list && list.items.length > 0 && (
        <ul part="documents" className="m-0 p-0 list-none flex flex-col rounded-csai border border-line">
          {list.items.map((doc) => (
            <DocumentRow
              key={doc.docId}
              t={t}
              doc={doc}
              // In a folder, an owner is named only when not the folder's; in the views, always when not mine.
              showOwner={!doc.is_owner && doc.owner_id !== folder?.owner_id}
              molecules={molecules[doc.docId]}
              onOpen={() => model.open(doc)}
              onDownload={() => void model.download(doc).then((file) => file && saveBlob(root, file.blob, file.filename))}
              onAction={(action) => {
                if (action === 'question') void model.useInQuestion(doc);
                else if (action === 'delete') onDialog({ kind: 'delete-doc', doc });
                else if (action === 'share') onDialog({ kind: 'share', type: 'doc', id: doc.docId, name: doc.title });
                else if (action === 'translate') onDialog({ kind: 'translate', doc });
                else onDialog({ kind: 'target', action, doc });
              }}
            />
          ))}
        </ul>
      )}
      {list && pages > 1 && (
        <nav part="pagination" aria-label={t('page_of', { page, pages })} className="flex items-center justify-center gap-3 text-sm">
          <Button small disabled={page <= 1} onClick={() => model.setPage(page - 1)}>{t('prev_page')}</Button>
          <span>{t('page_of', { page, pages })}</span>
          <Button small disabled={page >= pages} onClick={() => model.setPage(page + 1)}>{t('next_page')}</Button>
        </nav>
      )}
    </>
  );
}
