// The context parts of the question box: the Files panel, the knowledge-base picker and the chips.
import { useEffect, useRef } from 'react';
import type { AskModel, FileChip } from '../../core/ask-model';
import { statusStore } from '../../core/status-store';
import { totalProgress } from '../../core/upload-progress';
import { useT } from '../shared/host-context';
import { useSignalValue } from '../shared/use-signal';

const ACCEPT = '.pdf,.jpg,.jpeg,.png,.pdb,.sdf';

/** A toggle-like button: accent when on. */
export const toggleClass = (on: boolean) =>
  `inline-flex items-center gap-1 rounded-csai border px-2 py-1 text-xs cursor-pointer ${on ? 'border-accent bg-accent text-accent-fg' : 'border-line bg-surface text-ink'}`;
/** A tab of the Files / Knowledge tab list. */
export const tabClass = (on: boolean) => `px-3 py-1 text-sm cursor-pointer bg-transparent border-0 border-b-2 ${on ? 'border-accent text-accent font-semibold' : 'border-transparent text-muted'}`;

/** The Files tab: the upload button and the batch's total progress. */
export function FilesPanel({ model, dragging, onFiles }: { model: AskModel; dragging: boolean; onFiles: (files: File[]) => void }) {
  const t = useT('ask');
  const chips = useSignalValue(model.$chips);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const uploading = chips.filter((c) => c.phase === 'uploading');
  return (
    <div role="tabpanel" part="files" className="flex flex-wrap items-center gap-2 text-xs">
      <button type="button" part="upload" className={toggleClass(false)} onClick={() => fileInputRef.current?.click()}>
        {t('upload')}
      </button>
      <input
        ref={fileInputRef}
        type="file"
        multiple
        accept={ACCEPT}
        className="hidden"
        aria-label={t('upload')}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          onFiles(files);
        }}
      />
      {!chips.length && <span className="text-muted">{dragging ? t('drop_here') : t('files_hint')}</span>}
      {uploading.length > 0 && <span part="upload-total" className="text-muted">{t('upload_total', { percent: totalProgress(uploading.map((c) => c.percent)) })}</span>}
    </div>
  );
}

/** The Knowledge tab: own and shared knowledge bases as checkboxes (SPEC §5: at most two). */
export function KnowledgePanel({ model }: { model: AskModel }) {
  const t = useT('ask');
  const folders = useSignalValue(model.$folders);
  const selected = useSignalValue(statusStore().ask.$selectedKbs);
  useEffect(() => model.loadFolders(), [model]);
  return (
    <div role="tabpanel" part="knowledge" className="flex flex-col gap-1 text-xs max-h-48 overflow-auto">
      {!folders ? (
        <span className="text-muted">{t('loading_kbs')}</span>
      ) : (
        (['own', 'shared'] as const).map((kind) => (
          <fieldset key={kind} className="border-0 p-0 m-0">
            <legend className="font-semibold text-muted">{kind === 'own' ? t('my_kbs') : t('shared_kbs')}</legend>
            {folders[kind].length === 0 && <span className="text-muted">{t('no_kbs')}</span>}
            {folders[kind].map((f) => (
              <label key={f.id} part="kb-option" className="flex items-center gap-2 py-0.5 cursor-pointer">
                <input type="checkbox" checked={selected.some((k) => k.id === f.id)} onChange={() => model.toggleKb(f)} />
                <span>{f.name}</span>
                <span className="text-muted">{t('kb_docs', { count: f.doc_count })}</span>
              </label>
            ))}
          </fieldset>
        ))
      )}
    </div>
  );
}

/** The chosen files (with their upload or parse state) and knowledge bases. */
export function Chips({ model }: { model: AskModel }) {
  const t = useT('ask');
  const chips = useSignalValue(model.$chips);
  const kbs = useSignalValue(statusStore().ask.$selectedKbs);
  if (!chips.length && !kbs.length) return null;
  const status = (c: FileChip) =>
    c.phase === 'uploading' ? t('uploading', { percent: c.percent }) : c.phase === 'parsing' ? t('parsing', { percent: c.percent }) : c.phase === 'done' ? t('done') : t('failed');
  return (
    <ul part="chips" className="flex flex-wrap gap-2 list-none m-0 p-0">
      {chips.map((c) => (
        <li key={c.key} part="chip file-chip" data-phase={c.phase} className={`inline-flex items-center gap-1 rounded-csai border px-2 py-0.5 text-xs ${c.phase === 'failed' ? 'border-danger text-danger' : 'border-line'}`}>
          <span className="max-w-xs truncate">{c.name}</span>
          <span part="chip-status" className="text-muted">{status(c)}</span>
          <button type="button" aria-label={t('remove', { name: c.name })} className="cursor-pointer bg-transparent border-0 text-muted" onClick={() => model.removeChip(c.key)}>
            ×
          </button>
        </li>
      ))}
      {kbs.map((k) => (
        <li key={k.id} part="chip kb-chip" className="inline-flex items-center gap-1 rounded-csai border border-accent px-2 py-0.5 text-xs">
          <span>{k.name}</span>
          <button type="button" aria-label={t('remove', { name: k.name })} className="cursor-pointer bg-transparent border-0 text-muted" onClick={() => model.toggleKb(k)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
