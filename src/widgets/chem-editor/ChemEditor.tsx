import { useCallback, useEffect, useRef, useState } from 'react';
import type { CommonProps } from '../shared/element';
import { emit } from '../shared/events';
import { useHost, useT } from '../shared/host-context';
import { addStrings } from '../shared/i18n';
import { reactView } from '../shared/react-view';
import { chemEditorStrings } from './chem-editor.strings';
import { frameMessage, type EditorMessage } from './protocol';
import { waitUntil } from './wait';

addStrings('chemEditor', chemEditorStrings);

export interface ChemEditorProps extends CommonProps {
  opened: boolean;
  smiles: string | undefined;
  editorUrl: string | undefined;
}

/**
 * The Ketcher page built next to the chunks (src/widgets/chem-editor/ketcher.html is a Vite
 * entry): from a chunk in assets/ it is ../src/widgets/chem-editor/ketcher.html; in development
 * it sits beside this module. A plain variable keeps Vite from resolving the URL at build time.
 */
function defaultEditorUrl(): string {
  const rel = import.meta.env?.PROD ? '../src/widgets/chem-editor/ketcher.html' : './ketcher.html';
  return new URL(rel, import.meta.url).href;
}

type Phase = 'idle' | 'loading' | 'ready' | 'failed';

/** The chemical editor dialog: Ketcher in an iframe (loaded on first open), or a pasted SMILES. */
export function ChemEditor({ opened: open, smiles, editorUrl }: ChemEditorProps) {
  const { host } = useHost();
  const t = useT('chemEditor');
  const dialog = useRef<HTMLDialogElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const ready = useRef(false);
  const answers = useRef(new Map<number, { smiles?: string; error?: string }>());
  const nextId = useRef(1);
  const [everOpened, setEverOpened] = useState(false);
  const [phase, setPhase] = useState<Phase>('idle');
  const [pasted, setPasted] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const src = editorUrl ?? defaultEditorUrl();
  const frameOrigin = new URL(src, location.href).origin;

  const post = useCallback(
    (msg: EditorMessage) => frame.current?.contentWindow?.postMessage(msg, frameOrigin === 'null' ? '*' : frameOrigin),
    [frameOrigin],
  );

  // Messages from our frame only (its window), parsed with the protocol schema.
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      const parsed = frameMessage.safeParse(event.data);
      if (!parsed.success) return;
      const msg = parsed.data;
      if (msg.type === 'csai-ketcher-ready') ready.current = true;
      else if (msg.type === 'csai-ketcher-smiles') answers.current.set(msg.id, { smiles: msg.smiles, error: msg.error });
      else console.warn('[csai] Ketcher:', msg.message);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  // Open and close follow the `open` attribute; the frame is created on the first open.
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      setError('');
      setPasted(smiles ?? '');
      setEverOpened(true);
      d.showModal();
    } else if (!open && d.open) d.close();
  }, [open, smiles]);

  // SPEC §9 wait loop: every 100 ms, up to 3000 times, for Ketcher to report that it is ready.
  useEffect(() => {
    if (!everOpened || phase !== 'idle') return;
    const abort = new AbortController();
    setPhase('loading');
    void waitUntil(() => ready.current, { signal: abort.signal }).then((ok) => {
      if (abort.signal.aborted) return;
      setPhase(ok ? 'ready' : 'failed');
    });
    return () => abort.abort();
    // Runs once, on the first open (phase is only read).
  }, [everOpened]);

  // The initial structure goes into the editor once it is ready.
  useEffect(() => {
    if (phase === 'ready' && open && smiles) post({ type: 'csai-ketcher-set', smiles });
  }, [phase, open, smiles, post]);

  const close = useCallback(() => {
    host.removeAttribute('opened');
    dialog.current?.close();
  }, [host]);

  const insert = async () => {
    setError('');
    let result = '';
    if (phase === 'ready') {
      setBusy(true);
      const id = nextId.current++;
      post({ type: 'csai-ketcher-get', id });
      const answered = await waitUntil(() => answers.current.has(id));
      const answer = answers.current.get(id);
      answers.current.delete(id);
      setBusy(false);
      result = answered && !answer?.error ? (answer?.smiles ?? '').trim() : '';
    }
    // Nothing drawn (or no editor): a pasted SMILES is the structure.
    if (!result) result = pasted.trim();
    if (!result) {
      setError(t('smiles_failed'));
      return;
    }
    // Closed first: closing a modal dialog returns focus to where it was opened from, and a
    // listener (the question box) then moves it to where the SMILES went.
    close();
    emit(host, 'csai-chem-smiles', { smiles: result });
  };

  const loading = phase === 'loading' || (everOpened && phase === 'idle');
  const btn = 'h-9 px-3 rounded-csai border text-sm focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-50';
  return (
    <dialog
      ref={dialog}
      part="dialog"
      aria-labelledby="csai-chem-title"
      onClose={() => host.hasAttribute('opened') && host.removeAttribute('opened')}
      className="p-0 rounded-csai border border-line bg-surface text-ink font-csai shadow-xl"
      style={{ width: 'min(960px, 96vw)', maxHeight: '94vh' }}
    >
      <div part="base" className="flex flex-col gap-3 p-4">
        <div className="flex items-center justify-between">
          <h2 id="csai-chem-title" part="title" className="text-base font-semibold m-0">
            {t('title')}
          </h2>
          <button type="button" part="close" className={`${btn} border-line bg-surface`} aria-label={t('close')} onClick={close}>
            ×
          </button>
        </div>
        <div className="relative" style={{ height: 'min(560px, 60vh)' }}>
          {everOpened && phase !== 'failed' && (
            <iframe
              ref={frame}
              part="frame"
              title={t('frame_title')}
              src={src}
              allow="clipboard-read; clipboard-write"
              className="w-full h-full border border-line rounded-csai bg-white"
            />
          )}
          {loading && (
            <p part="status" role="status" className="absolute inset-0 m-0 flex items-center justify-center bg-surface text-muted text-sm">
              {t('loading')}
            </p>
          )}
          {phase === 'failed' && (
            <p part="load-error" role="alert" className="absolute inset-0 m-0 flex items-center justify-center text-danger text-sm">
              {t('load_failed')}
            </p>
          )}
        </div>
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (phase === 'ready' && pasted.trim()) post({ type: 'csai-ketcher-set', smiles: pasted.trim() });
          }}
        >
          <label className="flex flex-1 items-center gap-2 text-sm min-w-[16rem]">
            <span className="shrink-0">{t('paste_label')}</span>
            <input
              part="paste"
              value={pasted}
              onChange={(e) => setPasted(e.target.value)}
              maxLength={2000}
              placeholder={t('paste_placeholder')}
              className="flex-1 h-9 px-2 rounded-csai border border-line bg-surface text-ink text-sm"
            />
          </label>
          {phase === 'ready' && (
            <button type="submit" part="paste-apply" className={`${btn} border-line bg-surface`} disabled={!pasted.trim()}>
              {t('paste_apply')}
            </button>
          )}
        </form>
        {error && (
          <p part="error" role="alert" className="m-0 text-sm text-danger">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" part="cancel" className={`${btn} border-line bg-surface`} onClick={close}>
            {t('cancel')}
          </button>
          <button
            type="button"
            part="insert"
            className={`${btn} border-accent bg-accent text-accent-fg`}
            disabled={busy || (loading && !pasted.trim())}
            onClick={() => void insert()}
          >
            {busy ? t('inserting') : t('insert')}
          </button>
        </div>
      </div>
    </dialog>
  );
}

/** The view the element imports on first connection. */
export const view = reactView<ChemEditorProps>(ChemEditor);
