// The dialogs the main list opens: rename and delete the folder, share, delete a document, choose
// a target folder (move, copy, add to knowledge base), translate.
import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import type { KbDocument, KbFolder } from '../../contract/knowledge';
import type { KnowledgeModel } from '../../core/knowledge-model';
import { ConfirmDialog, FolderNameDialog, ShareDialog, TargetFolderDialog } from './Dialogs';
import { TranslateDialog } from './TranslateDialog';
import { useCurrentFolder } from './state';

/** Which dialog is open. */
export type MainDialog =
  | { kind: 'rename' }
  | { kind: 'delete-folder' }
  | { kind: 'share'; type: 'folder' | 'doc'; id: string; name: string }
  | { kind: 'delete-doc'; doc: KbDocument }
  | { kind: 'target'; action: 'move' | 'copy' | 'add'; doc: KbDocument }
  | { kind: 'translate'; doc: KbDocument };

export function MainDialogs({ t, model, dialog, onClose }: { t: TFunction; model: KnowledgeModel; dialog: MainDialog; onClose: () => void }) {
  const folder = useCurrentFolder();
  switch (dialog.kind) {
    case 'rename':
      return folder && (
        <FolderNameDialog
          t={t}
          title={t('rename_title')}
          initial={folder.name}
          submitLabel={t('save')}
          onClose={onClose}
          onSubmit={async (name) => {
            await model.renameFolder(name);
            onClose();
          }}
        />
      );
    case 'delete-folder':
      return folder && (
        <ConfirmDialog
          t={t}
          title={t('delete_folder_title')}
          text={t('delete_folder_text', { name: folder.name, count: folder.doc_count })}
          confirmLabel={t('delete')}
          onClose={onClose}
          onConfirm={() => model.deleteFolder().then((done) => closeIf(done, onClose))}
        />
      );
    case 'delete-doc':
      return (
        <ConfirmDialog
          t={t}
          title={t('delete_doc_title')}
          text={t('delete_doc_text', { name: dialog.doc.title })}
          confirmLabel={t('delete')}
          onClose={onClose}
          onConfirm={() => model.deleteDoc(dialog.doc).then((done) => closeIf(done, onClose))}
        />
      );
    case 'share':
      return <ShareDialog t={t} model={model} resource={{ type: dialog.type, id: dialog.id, name: dialog.name }} onClose={onClose} />;
    case 'target':
      return <TargetDialog t={t} model={model} action={dialog.action} doc={dialog.doc} currentFolderId={folder?.id} onClose={onClose} />;
    case 'translate':
      return <TranslateDialog t={t} model={model} doc={dialog.doc} onClose={onClose} />;
  }
}

/** Move, copy or add: my folders as targets (a move not into the document's own folder). */
function TargetDialog({ t, model, action, doc, currentFolderId, onClose }: {
  t: TFunction;
  model: KnowledgeModel;
  action: 'move' | 'copy' | 'add';
  doc: KbDocument;
  currentFolderId: string | undefined;
  onClose: () => void;
}) {
  const [folders, setFolders] = useState<KbFolder[] | null>(null);
  useEffect(() => {
    let live = true;
    void model.myFolders().then((list) => live && setFolders(list));
    return () => {
      live = false;
    };
  }, [model]);
  const [title, submitLabel] = action === 'move' ? [t('move_title'), t('move')] : action === 'copy' ? [t('copy_title'), t('copy')] : [t('add_title'), t('add_to_kb')];
  return (
    <TargetFolderDialog
      t={t}
      title={title}
      folders={folders}
      excludeId={action === 'move' ? (currentFolderId ?? doc.folder_id) : undefined}
      submitLabel={submitLabel}
      onClose={onClose}
      onSubmit={async (target) => {
        const done = action === 'move' ? await model.move(doc, target) : action === 'copy' ? await model.copy(doc, target) : await model.addToKb(doc, target);
        closeIf(done, onClose);
      }}
    />
  );
}

function closeIf(done: boolean, onClose: () => void) {
  if (done) onClose();
}
