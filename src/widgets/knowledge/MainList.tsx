// The main list of <csai-knowledge>: what is chosen (a folder, the documents shared with me, all
// my documents) with its header, upload (click or drop), the documents and the dialogs. The
// behaviour lives in the core model (src/core/knowledge-model.ts); these components render it.
import { useRef, useState, type DragEvent } from 'react';
import type { TFunction } from 'i18next';
import type { KnowledgeModel } from '../../core/knowledge-model';
import { DocumentList } from './DocumentList';
import { MainDialogs, type MainDialog } from './MainDialogs';
import { MainHeader } from './MainHeader';
import { useDocSource, useWatch } from './state';
import { UploadPanel } from './UploadPanel';

export { PARSE_POLL_MS, UPLOAD_CLEAR_MS, viewerPath } from '../../core/knowledge-model';

/** SPEC §9 allowed types, for the file chooser. */
const ACCEPT = '.pdf,.jpg,.jpeg,.png,.pdb,.sdf';

export function MainList({ t, model }: { t: TFunction; model: KnowledgeModel }) {
  useWatch(model);
  const source = useDocSource();
  const [dragging, setDragging] = useState(false);
  const [dialog, setDialog] = useState<MainDialog | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  if (!source) return null;
  const folder = source.kind === 'folder' ? source.folder : null;
  // Only the owner of a folder uploads into it; the document views take no uploads.
  const owner = folder?.is_owner ?? false;
  const chooseFiles = () => fileInput.current?.click();

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (owner) void model.upload([...(e.dataTransfer?.files ?? [])]);
  };

  return (
    <section
      part="main-list"
      aria-labelledby="kb-folder-title"
      data-source={source.kind === 'folder' ? 'folder' : source.kind}
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
      <MainHeader t={t} model={model} source={source} onUpload={chooseFiles} onDialog={setDialog} />
      {owner && (
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          part="file-input"
          accept={ACCEPT}
          aria-label={t('upload')}
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void model.upload(files);
          }}
        />
      )}
      <UploadPanel t={t} model={model} canUpload={owner} dragging={dragging} onChoose={chooseFiles} />
      <DocumentList t={t} model={model} source={source} onDialog={setDialog} />
      {dialog && <MainDialogs t={t} model={model} dialog={dialog} onClose={() => setDialog(null)} />}
    </section>
  );
}
