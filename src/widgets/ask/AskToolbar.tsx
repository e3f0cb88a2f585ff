// The question box's toolbar: the answer toggles, the tools panel, the search type, the chemical
// editor and send / stop.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { onlineMissing, type AskModel } from '../../core/ask-model';
import { statusStore } from '../../core/status-store';
import { toastStore } from '../../core/toast';
import { useHost, useT } from '../shared/host-context';
import { useSignalValue } from '../shared/use-signal';
import { toggleClass } from './AskContext';

/** SPEC §9: the tools hover panel closes this long after the pointer leaves. */
export const TOOLS_PANEL_CLOSE_MS = 700;
/** The panel loads with its first hover, when the tool list is fetched anyway. */
/**
 * How long after the box shows its online sources are asked for, unless the asker turns to the box
 * (pointer, focus, send) first: after the box is interactive, not part of its first load.
 */
const ONLINE_STATUS_DELAY_MS = 1500;

const ToolsPanel = lazy(() => import('./ToolsPanel').then((m) => ({ default: m.ToolsPanel })));
const SEARCH_TYPES = ['all', 'web', 'paper', 'patent'] as const;

interface ChemEditorElement extends HTMLElement {
  open(initialSmiles?: string): void;
}
const isChemEditor = (el: Element): el is ChemEditorElement => typeof (el as Partial<ChemEditorElement>).open === 'function';

/** Opens `<csai-chem-editor>` (created once inside the box, with the box's attributes); its SMILES go to `onSmiles`. */
function useChemEditor(onSmiles: (smiles: string) => void) {
  const { host } = useHost();
  const t = useT('ask');
  const onSmilesRef = useRef(onSmiles);
  onSmilesRef.current = onSmiles;
  return async () => {
    let editor = host.shadowRoot?.querySelector('csai-chem-editor');
    if (!editor) {
      editor = document.createElement('csai-chem-editor');
      for (const name of ['api-base', 'lang', 'theme', 'accent', 'radius']) {
        const v = host.getAttribute(name);
        if (v !== null) editor.setAttribute(name, v);
      }
      editor.addEventListener('csai-chem-smiles', (event) => {
        const smiles = event instanceof CustomEvent && typeof (event.detail as { smiles?: unknown })?.smiles === 'string' ? (event.detail as { smiles: string }).smiles.trim() : '';
        if (smiles) onSmilesRef.current(smiles);
        else toastStore().toast({ variant: 'destructive', title: t('smiles_failed') });
      });
      host.shadowRoot?.querySelector('.csai-root')?.append(editor);
    }
    await customElements.whenDefined('csai-chem-editor');
    if (isChemEditor(editor)) editor.open();
  };
}

/** The tools toggle and its hover panel (SPEC §4: every usable tool on by default). */
function Tools({ model }: { model: AskModel }) {
  const t = useT('ask');
  const on = useSignalValue(model.$toolsOn);
  const [open, setOpen] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(closeTimer.current), []);
  const show = () => {
    void model.loadTools();
    clearTimeout(closeTimer.current);
    setOpen(true);
  };
  const hide = () => {
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => setOpen(false), TOOLS_PANEL_CLOSE_MS);
  };
  return (
    <span className="relative inline-flex" onMouseEnter={show} onMouseLeave={hide} onFocus={show} onBlur={hide}>
      <button type="button" part="toggle toggle-tools" aria-pressed={on} aria-expanded={open} className={toggleClass(on)} onClick={() => model.toggleAllTools()}>
        {t('tools')}
      </button>
      {open && (
        <Suspense fallback={null}>
          <ToolsPanel model={model} />
        </Suspense>
      )}
    </span>
  );
}

/** The toggles (kept in the status store), tools, search type, chemical editor, send and stop. */
export function Toolbar({ model, canSend, onSend, onSmiles }: { model: AskModel; canSend: boolean; onSend: () => void; onSmiles: (smiles: string) => void }) {
  const t = useT('ask');
  const store = statusStore().ask;
  const thinking = useSignalValue(store.$isThinking);
  const deepResearch = useSignalValue(store.$isDeepResearch);
  const online = useSignalValue(store.$isOnline);
  const searchType = useSignalValue(store.$searchType);
  const sending = useSignalValue(model.$sending);
  const answering = useSignalValue(model.$answering);
  const onlineStatus = useSignalValue(model.$online);
  // 联网搜索 on, and nothing configured for the chosen type: one short line before sending.
  const missing = online ? onlineMissing(onlineStatus, searchType) : null;
  // The toggle's default follows the server's sources: asked for when the asker turns to the box,
  // else shortly after it shows. Not at once: the first call loads the response parser (zod),
  // which would then count in what a page downloads before the box can be typed in.
  useEffect(() => {
    const later = setTimeout(() => void model.loadOnline(), ONLINE_STATUS_DELAY_MS);
    return () => clearTimeout(later);
  }, [model]);
  const openChemEditor = useChemEditor(onSmiles);
  return (
    <>
      {/* The online sources are asked for when the asker turns to the box (not with its first load). */}
      <div part="toolbar" className="flex flex-wrap items-center gap-2" onPointerEnter={() => void model.loadOnline()} onFocusCapture={() => void model.loadOnline()}>
        <button type="button" part="toggle toggle-thinking" aria-pressed={thinking} className={toggleClass(thinking)} onClick={() => (store.$isThinking.value = !thinking)}>
          {t('thinking')}
        </button>
        <button type="button" part="toggle toggle-deep-research" aria-pressed={deepResearch} title={t('deep_research_hint')} className={toggleClass(deepResearch)} onClick={() => (store.$isDeepResearch.value = !deepResearch)}>
          {t('deep_research')}
        </button>
        <button type="button" part="toggle toggle-online" aria-pressed={online} title={missing ? t(`online_missing_${missing}`) : undefined} data-missing={missing ? 'true' : undefined} className={toggleClass(online)} onClick={() => model.setOnline(!online)}>
          {t('online')}
        </button>
        <Tools model={model} />
        <label className="inline-flex items-center gap-1 text-xs text-muted">
          {t('search_type')}
          <select part="search-type" value={searchType} onChange={(e) => (store.$searchType.value = e.target.value)} className="rounded-csai border border-line bg-surface text-ink text-xs">
            {SEARCH_TYPES.map((s) => (
              <option key={s} value={s}>
                {t(`search_${s}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" part="chem-editor" className={toggleClass(false)} onClick={() => void openChemEditor()}>
          {t('chem_editor')}
        </button>
        <span className="flex-1" />
        {answering ? (
          <button type="button" part="stop" className="inline-flex items-center gap-1 rounded-csai border border-danger bg-surface text-danger px-3 py-1 text-sm cursor-pointer" onClick={() => void model.stop()}>
            <span part="spinner" aria-hidden="true" className="inline-block w-3 h-3 rounded-full border-2 border-danger border-t-transparent animate-spin" />
            {t('stop')}
          </button>
        ) : (
          <button type="button" part="send" disabled={sending || !canSend} aria-busy={sending} className="rounded-csai border-0 bg-accent text-accent-fg px-3 py-1 text-sm cursor-pointer disabled:opacity-50 disabled:cursor-not-allowed" onClick={onSend}>
            {sending ? t('sending') : t('send')}
          </button>
        )}
      </div>
      {missing && (
        <p part="online-hint" role="note" className="m-0 text-xs text-muted">
          {t(`online_missing_${missing}`)}
        </p>
      )}
      {deepResearch && (
        <p part="deep-research-hint" className="m-0 text-xs text-muted">
          {t('deep_research_hint')}
        </p>
      )}
    </>
  );
}
