// <csai-ask>: the view of the question box. Its behaviour (uploads, parse polling, the submit
// flow, the answer followed, stop, retry) is the core model `createAskModel`; this renders it.
import { lazy, Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import { SIGN_IN_PATH } from '../../core/api';
import { createAskModel, type AskModel, type Sent } from '../../core/ask-model';
import { statusStore } from '../../core/status-store';
import { toastStore } from '../../core/toast';
import { smilesBeingTyped } from '../../core/smiles-token';
import { isSendableQuestion, questionKeyAction, stripHtmlTags } from '../../core/validation';
import type { CommonProps } from '../shared/element';
import { emit } from '../shared/events';
import { useApi, useHost, useT } from '../shared/host-context';
import { addStrings } from '../shared/i18n';
import { takeOverPrerendered } from '../shared/prerendered';
import { reactView } from '../shared/react-view';
import { isEmbedded, isSameOrigin, openProductPage } from '../shared/site';
import { InlineToasts } from '../shared/Toasts';
import { useSignalValue } from '../shared/use-signal';
import { onAskRequest } from './ask-request';
import { askStrings } from './ask.strings';
import { Chips, FilesPanel, KnowledgePanel, tabClass } from './AskContext';
import { Toolbar } from './AskToolbar';

addStrings('ask', askStrings);

/** The SMILES hint and its model load on the first SMILES-like token typed, not with the question box. */
const SmilesHint = lazy(() => import('./SmilesHint').then((m) => ({ default: m.SmilesHint })));

export interface AskProps extends CommonProps {
  /** Ask in this channel (a follow-up question); absent: a new channel is created first. */
  channelId: string | undefined;
  /** `"false"`: only emit `csai-submitted`; otherwise open the conversation after sending. */
  navigate: string | undefined;
}

export { PARSE_POLL_MS } from '../../core/ask-model';
export { TOOLS_PANEL_CLOSE_MS } from './AskToolbar';

/** The element's model: one per element and client, disposed when the view goes. */
function useAskModel(): AskModel {
  const { host, apiOrigin } = useHost();
  const client = useApi();
  const t = useT('ask');
  const tRef = useRef(t);
  tRef.current = t;
  const model = useMemo(
    () =>
      createAskModel({
        client,
        store: statusStore(),
        toasts: toastStore(),
        t: (key) => tRef.current(key),
        clientKind: isEmbedded(apiOrigin) ? 'embed' : 'web',
        signIn: () => openProductPage(host, apiOrigin, SIGN_IN_PATH),
      }),
    [client, host, apiOrigin],
  );
  useEffect(() => () => model.dispose(), [model]);
  return model;
}

/** The question box of SPEC §2 / §4 / §5. */
export function Ask({ channelId, navigate }: AskProps) {
  const { host, root, apiOrigin } = useHost();
  const t = useT('ask');
  const model = useAskModel();
  const [text, setText] = useState('');
  // Once a SMILES has been typed the hint stays mounted (it clears itself when the token goes).
  const hintWanted = useRef(false);
  if (!hintWanted.current && smilesBeingTyped(text)) hintWanted.current = true;
  const [tab, setTab] = useState<'files' | 'knowledge'>('files');
  const [dragging, setDragging] = useState(false);
  const message = useSignalValue(model.$message);
  const failed = useSignalValue(model.$failed);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const composingRef = useRef(false);
  // Home's server-rendered copy of this box: its typed text, caret and focus move in here.
  useLayoutEffect(() => takeOverPrerendered(root, textareaRef.current, setText), [root]);

  /** SPEC §4 step 5: clear the box, tell the page, open the conversation (or follow the answer here). */
  const afterSend = (sent: Sent | null) => {
    if (!sent) return;
    setText('');
    emit(host, 'csai-submitted', sent);
    if (!channelId && navigate !== 'false') openProductPage(host, apiOrigin, `/channels?channel_id=${encodeURIComponent(sent.channelId)}&closeSider=true`);
    else model.follow(sent.questionId);
  };
  const submit = async (raw: string) => afterSend(await model.send(raw, channelId));
  const submitRef = useRef(submit);
  submitRef.current = submit;
  // The element's ask(question) method: fill the box and send at once.
  useEffect(
    () =>
      onAskRequest(host, (question) => {
        setText(question);
        void submitRef.current(question);
      }),
    [host],
  );

  const insertAtCaret = (insert: string) => {
    const el = textareaRef.current;
    if (!el) return setText((cur) => cur + insert);
    // The box and its caret change now, in this event, and the state follows: a caret placed in
    // a later frame would land before whatever was typed meanwhile (on a loaded machine, the next
    // key after Shift+Enter went in front of the one before it). React leaves a value it already
    // holds alone, so the caret stays.
    el.setRangeText(insert, el.selectionStart ?? el.value.length, el.selectionEnd ?? el.value.length, 'end');
    setText(el.value);
  };
  const addFiles = (files: File[]) => {
    setTab('files');
    void model.addFiles(files);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const action = questionKeyAction({ key: e.key, shiftKey: e.shiftKey, ctrlKey: e.ctrlKey, isComposing: e.nativeEvent.isComposing || composingRef.current || e.keyCode === 229 });
    if (action === 'none') return;
    e.preventDefault();
    // The box's own value: an input event earlier in the same task may not have re-rendered yet.
    if (action === 'send') void submit(e.currentTarget.value);
    else insertAtCaret('\n');
  };
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const data = e.clipboardData;
    // SPEC §2: pasted images become files; pasted text loses its HTML tags.
    const images = [...data.files].filter((f) => f.type.startsWith('image/'));
    if (images.length) {
      e.preventDefault();
      addFiles(images.map((f) => (f.name ? f : new File([f], 'image.png', { type: f.type }))));
      return;
    }
    const plain = data.getData('text/plain');
    const html = data.getData('text/html');
    if (!plain && !html) return;
    e.preventDefault();
    insertAtCaret(stripHtmlTags(plain || html));
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    addFiles([...e.dataTransfer.files]);
  };

  return (
    <div
      part="base"
      className={`font-csai flex flex-col gap-2 rounded-csai border bg-surface text-ink p-3 ${dragging ? 'border-accent' : 'border-line'}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-dragging={dragging ? 'true' : undefined}
    >
      <div role="tablist" part="tabs" className="flex gap-1 border-b border-line">
        <button type="button" role="tab" part="tab tab-files" aria-selected={tab === 'files'} className={tabClass(tab === 'files')} onClick={() => setTab('files')}>
          {t('tab_files')}
        </button>
        <button type="button" role="tab" part="tab tab-knowledge" aria-selected={tab === 'knowledge'} className={tabClass(tab === 'knowledge')} onClick={() => setTab('knowledge')}>
          {t('tab_knowledge')}
        </button>
      </div>
      {tab === 'files' ? <FilesPanel model={model} dragging={dragging} onFiles={addFiles} /> : <KnowledgePanel model={model} />}
      <Chips model={model} />
      <textarea
        ref={textareaRef}
        part="input"
        aria-label={t('label')}
        placeholder={t('placeholder')}
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        onFocus={() => void model.loadOnline()}
        onCompositionStart={() => (composingRef.current = true)}
        onCompositionEnd={() => (composingRef.current = false)}
        onPaste={onPaste}
        className="w-full resize-y rounded-csai border border-line bg-surface text-ink p-2 text-sm font-csai"
      />
      {hintWanted.current && (
        <Suspense fallback={null}>
          <SmilesHint text={text} onAccept={setText} />
        </Suspense>
      )}
      {message && (
        <p part="message" role="alert" className="m-0 text-xs text-danger">
          {message}
        </p>
      )}
      {failed && (
        <button type="button" part="retry" className="self-start rounded-csai border border-line bg-surface text-ink px-2 py-1 text-xs cursor-pointer" onClick={() => void model.retry().then(afterSend)}>
          {t('retry')}
        </button>
      )}
      <Toolbar model={model} canSend={isSendableQuestion(text)} onSend={() => void submit(text)} onSmiles={(smiles) => {
        insertAtCaret(smiles);
        textareaRef.current?.focus();
      }} />
      {!isSameOrigin(apiOrigin) && <InlineToasts label={t('notice')} closeLabel={t('close')} />}
    </div>
  );
}

/** The view the element imports on first connection. */
export const view = reactView<AskProps>(Ask);
