// Upload in the main list: the click-or-drop area, the refused-file or failed-upload notice, and
// the batch's per-file progress with the total (SPEC §4).
import type { TFunction } from 'i18next';
import { totalProgress, type KnowledgeModel, type UploadItem } from '../../core/knowledge-model';
import { useSignalValue } from './state';
import { Button, Icon } from './ui';

export function UploadPanel({ t, model, canUpload, dragging, onChoose }: {
  t: TFunction;
  model: KnowledgeModel;
  canUpload: boolean;
  dragging: boolean;
  onChoose: () => void;
}) {
  const uploads = useSignalValue(model.$uploads);
  const notice = useSignalValue(model.$notice);
  const uploading = useSignalValue(model.$uploading);
  return (
    <>
      {canUpload && (
        <button
          type="button"
          part="drop-zone"
          onClick={onChoose}
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
          <Button tone="ghost" small part="notice-close" aria-label={t('close_notice')} onClick={() => model.dismissUploads()}>
            <Icon name="close" className="w-3.5 h-3.5" />
          </Button>
        </div>
      )}
      {uploads.length > 0 && (
        <div part="uploads" className="flex flex-col gap-2 rounded-csai border border-line p-3" aria-live="polite">
          <div className="flex items-center justify-between text-sm">
            <span className="font-medium">{t('upload')}</span>
            <span className="flex items-center gap-2">
              <span part="upload-total" className="text-muted">{t('upload_total', { percent: totalProgress(uploads) })}</span>
              {!uploading && (
                <Button tone="ghost" small part="uploads-close" aria-label={t('close_uploads')} onClick={() => model.dismissUploads()}>
                  <Icon name="close" className="w-3.5 h-3.5" />
                </Button>
              )}
            </span>
          </div>
          <ul className="m-0 p-0 list-none flex flex-col gap-2">
            {uploads.map((u) => <UploadRow key={u.key} t={t} item={u} />)}
          </ul>
        </div>
      )}
    </>
  );
}

const barColour = (status: UploadItem['status']) => (status === 3 ? 'bg-danger' : status === 2 ? 'bg-success' : 'bg-accent');

function UploadRow({ t, item: u }: { t: TFunction; item: UploadItem }) {
  return (
    <li part="upload-item" data-status={u.status} className="flex flex-col gap-1">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="truncate">{u.name}</span>
        <span className={`shrink-0 text-xs ${u.status === 3 ? 'text-danger' : u.status === 2 ? 'text-success' : 'text-muted'}`}>
          {u.status === 1 ? `${t('uploading')} ${u.progress}%` : u.status === 2 ? t('upload_done') : t('upload_failed')}
        </span>
      </div>
      <div role="progressbar" aria-label={u.name} aria-valuemin={0} aria-valuemax={100} aria-valuenow={u.progress} className="h-1.5 w-full overflow-hidden rounded-full bg-line">
        {/* The width is a class (twind's constructable sheet), not a style attribute: CSP-safe. */}
        <div className={`h-full rounded-full ${barColour(u.status)} w-[${u.progress}%]`} />
      </div>
    </li>
  );
}
