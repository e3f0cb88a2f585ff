import { useRef, useState } from 'react';
import type { KbFolder } from '../../../contract/knowledge';
import type { SavedDocument } from '../../../contract/crawl';
import { createOnlineApi } from '../../../core/online-api';
import { useApi, useT } from '../../shared/host-context';
import { addStrings } from '../../shared/i18n';
import { onlineCardStrings } from './online.strings';

addStrings('tool-cards-online', onlineCardStrings);

type State =
  | { step: 'idle' }
  | { step: 'choosing'; folders: KbFolder[]; folderId: string }
  | { step: 'saving' }
  | { step: 'saved'; name: string }
  | { step: 'failed'; message: string };

/**
 * A button that keeps a page or paper in one of the user's knowledge bases: it lists their folders,
 * and `save(folderId)` does the call (the server checks the write permission again).
 */
export function SaveToKnowledgeBase({ label, save }: { label: string; save: (api: ReturnType<typeof createOnlineApi>, folderId: string) => Promise<SavedDocument> }) {
  const t = useT('tool-cards-online');
  const online = createOnlineApi(useApi());
  const [state, setState] = useState<State>({ step: 'idle' });
  const busy = useRef(false);
  const fail = (err: unknown) => setState({ step: 'failed', message: err instanceof Error ? err.message : String(err) });

  const choose = async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      const { items } = await online.myFolders();
      if (!items.length) setState({ step: 'failed', message: t('no_folders') });
      else setState({ step: 'choosing', folders: items, folderId: items[0]!.id });
    } catch (err) {
      fail(err);
    } finally {
      busy.current = false;
    }
  };
  const confirm = async (folderId: string) => {
    setState({ step: 'saving' });
    try {
      const saved = await save(online, folderId);
      setState({ step: 'saved', name: saved.name });
    } catch (err) {
      fail(err);
    }
  };

  const button = 'rounded-csai border border-line px-2 py-1 text-xs text-ink bg-surface hover:border-accent';
  return (
    <div part="save-to-kb" className="flex flex-wrap items-center gap-2 text-xs">
      {(state.step === 'idle' || state.step === 'failed') && (
        <button type="button" className={button} onClick={() => void choose()}>
          {label}
        </button>
      )}
      {state.step === 'choosing' && (
        <>
          <label className="flex items-center gap-1">
            <span className="text-muted">{t('choose_folder')}</span>
            <select className="rounded-csai border border-line px-1 py-1 text-xs" value={state.folderId} onChange={(e) => setState({ ...state, folderId: e.currentTarget.value })}>
              {state.folders.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className={button} onClick={() => void confirm(state.folderId)}>
            {t('confirm')}
          </button>
          <button type="button" className={button} onClick={() => setState({ step: 'idle' })}>
            {t('cancel')}
          </button>
        </>
      )}
      {state.step === 'saving' && <span role="status" className="text-muted">{t('saving')}</span>}
      {state.step === 'saved' && <span role="status" className="text-ink">{t('saved', { name: state.name })}</span>}
      {state.step === 'failed' && <span role="alert" className="text-danger">{t('failed', { message: state.message })}</span>}
    </div>
  );
}
