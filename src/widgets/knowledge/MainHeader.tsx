// The head of the main list: the folder's name, count, ownership and its actions (upload, share,
// rename, public, delete), or the title of a document view (shared with me, all mine).
import type { TFunction } from 'i18next';
import { QUESTION_FOLDER_ID, type KbFolder } from '../../contract/knowledge';
import type { DocSource, KnowledgeModel } from '../../core/knowledge-model';
import type { MainDialog } from './MainDialogs';
import { useSignalValue } from './state';
import { Badge, Button, Icon } from './ui';

export function MainHeader({ t, model, source, onUpload, onDialog }: {
  t: TFunction;
  model: KnowledgeModel;
  source: DocSource;
  onUpload: () => void;
  onDialog: (dialog: MainDialog) => void;
}) {
  const docs = useSignalValue(model.$docs);
  if (source.kind !== 'folder') {
    const shared = source.kind === 'shared_docs';
    const total = docs && docs !== 'error' ? docs.total : null;
    return (
      <header className="min-w-0">
        <h2 id="kb-folder-title" className="m-0 text-xl font-semibold break-words">{shared ? t('shared_docs_title') : t('all_docs_title')}</h2>
        <p className="m-0 mt-1 flex flex-wrap items-center gap-2 text-sm text-muted">
          {total !== null && <span>{t('doc_count', { count: total })}</span>}
          <span>{shared ? t('shared_docs_hint') : t('all_docs_hint')}</span>
          {shared && <Badge>{t('read_only')}</Badge>}
        </p>
      </header>
    );
  }
  return <FolderHeader t={t} model={model} folder={source.folder} onUpload={onUpload} onDialog={onDialog} />;
}

function FolderHeader({ t, model, folder, onUpload, onDialog }: {
  t: TFunction;
  model: KnowledgeModel;
  folder: KbFolder;
  onUpload: () => void;
  onDialog: (dialog: MainDialog) => void;
}) {
  const uploading = useSignalValue(model.$uploading);
  const owner = folder.is_owner;
  // The built-in question-files folder takes uploads but is not renamed, shared, published or deleted.
  const builtin = folder.id === QUESTION_FOLDER_ID;
  return (
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
          <Button tone="primary" onClick={onUpload} disabled={uploading} part="upload-button">
            <Icon name="upload" />
            {t('upload')}
          </Button>
          {!builtin && (
            <>
              <Button onClick={() => onDialog({ kind: 'share', type: 'folder', id: folder.id, name: folder.name })}><Icon name="share" />{t('share')}</Button>
              <Button onClick={() => onDialog({ kind: 'rename' })}>{t('rename')}</Button>
              <Button onClick={() => void model.togglePublic()}>
                <Icon name="globe" />
                {folder.is_public ? t('make_private') : t('make_public')}
              </Button>
              <Button tone="danger" onClick={() => onDialog({ kind: 'delete-folder' })}>{t('delete')}</Button>
            </>
          )}
        </div>
      )}
    </header>
  );
}
