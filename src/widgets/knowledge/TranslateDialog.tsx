// Translate a parsed document (POST knowledge_base/translate): choose the language, watch it work
// (seconds counted; it can be stopped), read the result, download it as markdown or copy it.
// Without a language model on the server the dialog says so.
import { useEffect, useMemo, useState } from 'react';
import type { TFunction } from 'i18next';
import type { KbDocument } from '../../contract/knowledge';
import type { TranslateLanguage } from '../../core/knowledge-api';
import { createTranslation, LLM_NOT_CONFIGURED } from '../../core/knowledge-extras';
import type { KnowledgeModel } from '../../core/knowledge-model';
import { useHost } from '../shared/host-context';
import { useSignalValue } from './state';
import { Button, Modal, saveBlob } from './ui';

export function TranslateDialog({ t, model, doc, onClose }: { t: TFunction; model: KnowledgeModel; doc: KbDocument; onClose: () => void }) {
  const { root } = useHost();
  const translation = useMemo(() => createTranslation(model.api, doc, t('translate_failed')), [model, doc, t]);
  const state = useSignalValue(translation.$state);
  const elapsed = useSignalValue(translation.$elapsed);
  // English sources go to Chinese by default, everything else to English.
  const [lang, setLang] = useState<TranslateLanguage>(/[\u4e00-\u9fff]/.test(doc.title) ? 'en' : 'zh');
  useEffect(() => () => translation.cancel(), [translation]);
  const running = state.phase === 'running';
  const save = () => {
    const file = translation.file();
    if (file) saveBlob(root, file.blob, file.filename);
  };

  return (
    <Modal
      title={t('translate_title', { name: doc.title })}
      closeLabel={t('close')}
      onClose={onClose}
      part="dialog translate-dialog"
      footer={
        <>
          {state.phase === 'done' && <Button onClick={save} part="translation-download">{t('translate_download')}</Button>}
          {running ? (
            <Button tone="danger" onClick={() => translation.cancel()}>{t('translate_stop')}</Button>
          ) : (
            <Button tone="primary" onClick={() => void translation.start(lang)}>{state.phase === 'idle' ? t('translate_start') : t('translate_again')}</Button>
          )}
        </>
      }
    >
      <fieldset className="m-0 p-0 border-0 flex flex-wrap items-center gap-3 text-sm" disabled={running}>
        <legend className="mb-1 font-medium">{t('translate_to')}</legend>
        {(['zh', 'en'] as const).map((l) => (
          <label key={l} className="flex items-center gap-1.5 cursor-pointer">
            <input type="radio" name="translate-lang" value={l} checked={lang === l} onChange={() => setLang(l)} />
            {l === 'zh' ? t('lang_zh') : t('lang_en')}
          </label>
        ))}
      </fieldset>
      {running && (
        <div part="translation-progress" role="status" className="flex flex-col gap-1.5 text-sm text-muted">
          <span>{t('translating', { seconds: elapsed })}</span>
          <div role="progressbar" aria-label={t('translating_label')} className="h-1.5 w-full overflow-hidden rounded-full bg-line">
            <div className="h-full w-1/3 rounded-full bg-accent animate-pulse" />
          </div>
        </div>
      )}
      {state.phase === 'failed' && (
        <p role="alert" part="translation-error" className="m-0 text-sm text-danger">
          {state.code === LLM_NOT_CONFIGURED ? t('translate_no_model') : `${t('translate_failed')}：${state.message}`}
        </p>
      )}
      {state.phase === 'done' && (
        <section aria-label={t('translation')} className="flex flex-col gap-1.5">
          <p className="m-0 text-xs text-muted">
            {t('translated_by', { model: state.result.model })}
            {state.result.truncated && ` · ${t('translate_truncated')}`}
          </p>
          {/* Plain text (whitespace kept): the model's output is never rendered as HTML here. */}
          <div part="translation" tabIndex={0} className="max-h-[50vh] overflow-auto whitespace-pre-wrap break-words rounded-csai border border-line p-3 text-sm leading-relaxed">
            {state.result.translation}
          </div>
        </section>
      )}
    </Modal>
  );
}
