import { useCallback, useEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import type { ToolGroup } from '../../contract/channel';
import type { KbFolder } from '../../contract/knowledge';
import { ApiError, lazySchema, SIGN_IN_PATH, UPLOAD_SESSION_MESSAGE } from '../../core/api';
import { i18n as coreI18n } from '../../core/i18n';
import { statusStore } from '../../core/status-store';
import { toastStore } from '../../core/toast';
import {
  canSelectFile,
  canSelectKnowledgeBase,
  channelNameFor,
  checkUpload,
  isSendableQuestion,
  questionKeyAction,
  stripHtmlTags,
} from '../../core/validation';
import type { CommonProps } from '../shared/element';
import { emit } from '../shared/events';
import { useHost, useT } from '../shared/host-context';
import { addStrings } from '../shared/i18n';
import { reactView } from '../shared/react-view';
import { apiFor, apiRoot, isSameOrigin, openProductPage } from '../shared/site';
import { InlineToasts } from '../shared/Toasts';
import { useSignalValue } from '../shared/use-signal';
import { onAskRequest } from './ask-request';
import { SmilesHint } from './SmilesHint';
import { askStrings } from './ask.strings';
import { totalProgress, uploadQuestionFiles, UploadError } from './upload';

addStrings('ask', askStrings);

/** Response schemas, loaded with the first call that needs them (zod is not in the box's first load). */
const loadSchemas = () => import('./schemas').then((m) => m.schemas);
const responses = {
  tools: lazySchema(() => loadSchemas().then((s) => s.tools)),
  folders: lazySchema(() => loadSchemas().then((s) => s.folders)),
  document: lazySchema(() => loadSchemas().then((s) => s.document)),
  checkFolder: lazySchema(() => loadSchemas().then((s) => s.checkFolder)),
  channel: lazySchema(() => loadSchemas().then((s) => s.channel)),
  sent: lazySchema(() => loadSchemas().then((s) => s.sent)),
  stopped: lazySchema(() => loadSchemas().then((s) => s.stopped)),
  ping: lazySchema(() => loadSchemas().then((s) => s.ping)),
};

export interface AskProps extends CommonProps {
  /** Ask in this channel (a follow-up question); absent: a new channel is created first. */
  channelId: string | undefined;
  /** `"false"`: only emit `csai-submitted`; otherwise open the conversation after sending. */
  navigate: string | undefined;
}

/** SPEC §9: the tools hover panel closes this long after the pointer leaves. */
export const TOOLS_PANEL_CLOSE_MS = 700;
/** SPEC §9: parse status polling interval. */
export const PARSE_POLL_MS = 1000;
/** SPEC §9 / §7: the question box lists folders with page 1, size 100. */
const FOLDER_PAGE = '?page=1&size=100';

/** One file chip: uploading, parsing, done or failed (SPEC §4 parseStatus and upload progress). */
interface FileChip {
  key: string;
  name: string;
  docId?: string;
  phase: 'uploading' | 'parsing' | 'done' | 'failed';
  percent: number;
}

const SEARCH_TYPES = ['all', 'web', 'paper', 'patent'] as const;
const ACCEPT = '.pdf,.jpg,.jpeg,.png,.pdb,.sdf';

interface ChemEditorElement extends HTMLElement {
  open(initialSmiles?: string): void;
}
const isChemEditor = (el: Element): el is ChemEditorElement => typeof (el as Partial<ChemEditorElement>).open === 'function';

let chipCounter = 0;
const chipKey = () => `chip-${++chipCounter}`;

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : '');

/** The question box of SPEC §2 / §4 / §5. */
export function Ask({ channelId, navigate }: AskProps) {
  const { host, apiOrigin } = useHost();
  const t = useT('ask');
  const store = statusStore().ask;
  const toasts = toastStore();
  const client = useMemo(() => apiFor(apiOrigin), [apiOrigin]);
  const sameOrigin = isSameOrigin(apiOrigin);

  const [text, setText] = useState('');
  const [tab, setTab] = useState<'files' | 'knowledge'>('files');
  const [chips, setChips] = useState<FileChip[]>(() => store.$files_list.peek().map((f) => ({ key: chipKey(), name: f.name, docId: f.docId, phase: 'parsing' as const, percent: 0 })));
  const selectedKbs = useSignalValue(store.$selectedKbs);
  const thinking = useSignalValue(store.$isThinking);
  const deepResearch = useSignalValue(store.$isDeepResearch);
  const online = useSignalValue(store.$isOnline);
  const searchType = useSignalValue(store.$searchType);
  const [message, setMessage] = useState('');
  const [dragging, setDragging] = useState(false);
  const [folders, setFolders] = useState<{ own: KbFolder[]; shared: KbFolder[] } | null>(null);
  const [tools, setTools] = useState<ToolGroup[] | null>(null);
  const [enabledTools, setEnabledTools] = useState<Set<string> | null>(null);
  const [toolsOpen, setToolsOpen] = useState(false);
  const [sending, setSending] = useState(false);
  const [answering, setAnswering] = useState<string | null>(null);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const composingRef = useRef(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const chipsRef = useRef(chips);
  chipsRef.current = chips;
  const tRef = useRef(t);
  tRef.current = t;

  // The selection lives in the status store (SPEC §3: docIdList, files_list) so it survives
  // navigation; ids put there by the page (the home page's `docIds`) become chips once fetched.
  const pendingRef = useRef(new Set<string>());
  const syncStore = useCallback(
    (list: FileChip[]) => {
      const withId = list.filter((c) => c.docId && c.phase !== 'failed');
      store.$files_list.value = withId.map((c) => ({ docId: c.docId!, name: c.name }));
      store.$docIdList.value = [...new Set([...withId.map((c) => c.docId!), ...pendingRef.current])];
    },
    [store],
  );
  useEffect(() => syncStore(chips), [chips, syncStore]);

  const wantedIds = useSignalValue(store.$docIdList);
  useEffect(() => {
    const known = new Set(chipsRef.current.map((c) => c.docId));
    const missing = wantedIds.filter((id) => !known.has(id) && !pendingRef.current.has(id));
    if (!missing.length) return;
    for (const id of missing) pendingRef.current.add(id);
    void Promise.all(
      missing.map((docId) =>
        client.get(`/knowledge_base/doc/${encodeURIComponent(docId)}`, responses.document, { quiet: true, redirect: false }).then(
          (doc): FileChip => ({ key: chipKey(), name: doc.title, docId, phase: doc.parseStatus === 1 ? 'parsing' : doc.parseStatus === 2 ? 'done' : 'failed', percent: doc.parse_progress }),
          () => null, // not found or not the user's: dropped
        ),
      ),
    ).then((found) => {
      for (const id of missing) pendingRef.current.delete(id);
      const add = found.filter((c): c is FileChip => c !== null && !chipsRef.current.some((x) => x.docId === c.docId));
      if (add.length) setChips((cur) => [...cur, ...add].slice(0, 6));
      else syncStore(chipsRef.current);
    });
  }, [wantedIds, client, syncStore]);

  // SPEC §4: documents still parsing are polled every second until their status is no longer 1.
  const parsingIds = chips.filter((c) => c.phase === 'parsing' && c.docId).map((c) => c.docId!).join(',');
  useEffect(() => {
    if (!parsingIds) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      for (const docId of parsingIds.split(',')) {
        client.get(`/knowledge_base/doc/${encodeURIComponent(docId)}`, responses.document, { quiet: true, signal: abort.signal }).then(
          (doc) => {
            if (abort.signal.aborted) return;
            setChips((cur) =>
              cur.map((c) => (c.docId === docId ? { ...c, phase: doc.parseStatus === 1 ? 'parsing' : doc.parseStatus === 2 ? 'done' : 'failed', percent: doc.parse_progress } : c)),
            );
          },
          () => undefined,
        );
      }
    }, PARSE_POLL_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
    // `chips` changes on every poll answer, which schedules the next poll.
  }, [parsingIds, client, chips]);

  // Tools of GET /tools, fetched on first use (hover, click, send) so the box is interactive
  // before zod and the contract load. All usable tools are on by default (SPEC §4): `null` means
  // "all", whatever the list turns out to be.
  const toolsRef = useRef<Promise<string[]> | null>(null);
  const loadTools = useCallback((): Promise<string[]> => {
    toolsRef.current ??= client.get('/tools', responses.tools, { quiet: true, redirect: false }).then(
      (groups) => {
        setTools(groups);
        return groups.flatMap((g) => g.tools.filter((tool) => tool.enabled && !tool.ldap_disabled).map((tool) => tool.value));
      },
      () => {
        toolsRef.current = null; // a later use retries
        return [];
      },
    );
    return toolsRef.current;
  }, [client]);
  useEffect(() => {
    toolsRef.current = null;
  }, [client]);

  // The knowledge-base picker: own folders and shared ones (SPEC §7 usage notes).
  useEffect(() => {
    if (tab !== 'knowledge' || folders) return;
    const abort = new AbortController();
    const list = responses.folders;
    Promise.all([
      client.get(`/knowledge_base/folder${FOLDER_PAGE}`, list, { signal: abort.signal }),
      client.get(`/knowledge_base/get_share_folders${FOLDER_PAGE}&sort=-createTime`, list, { signal: abort.signal }),
    ]).then(
      ([own, shared]) => {
        if (!abort.signal.aborted) setFolders({ own: own.items, shared: shared.items });
      },
      () => {
        if (!abort.signal.aborted) setFolders({ own: [], shared: [] });
      },
    );
    return () => abort.abort();
  }, [tab, folders, client]);

  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const addFiles = useCallback(
    async (files: File[]) => {
      if (!files.length) return;
      const current = chipsRef.current.filter((c) => c.phase !== 'failed');
      const allowed = canSelectFile(current.length, store.$selectedKbs.peek().length);
      if (!allowed.ok) return setMessage(allowed.message);
      const check = checkUpload(files, current.map((c) => c.name));
      setMessage(check.message ?? '');
      if (!check.accepted.length) return;
      const batch: FileChip[] = check.accepted.map((a) => ({ key: chipKey(), name: a.name, phase: 'uploading', percent: 0 }));
      const keys = batch.map((b) => b.key);
      setChips((cur) => [...cur.filter((c) => c.phase !== 'failed'), ...batch]);
      setTab('files');
      try {
        const named = await uploadQuestionFiles(apiRoot(apiOrigin), check.accepted, {
          withCredentials: !sameOrigin,
          onProgress: (percents) => setChips((cur) => cur.map((c) => (keys.includes(c.key) && c.phase === 'uploading' ? { ...c, percent: percents[keys.indexOf(c.key)] ?? c.percent } : c))),
        });
        setChips((cur) =>
          cur.map((c) => {
            const i = keys.indexOf(c.key);
            const docId = i >= 0 ? named[i]?.docId : undefined;
            return i < 0 ? c : docId ? { ...c, docId, phase: 'parsing', percent: 0 } : { ...c, phase: 'failed' };
          }),
        );
      } catch (error) {
        // SPEC §4: on an upload error every file of the batch becomes failed (status 3).
        setChips((cur) => cur.map((c) => (keys.includes(c.key) ? { ...c, phase: 'failed' } : c)));
        const ct = coreI18n().t.bind(coreI18n());
        const status = error instanceof UploadError ? error.status : 0;
        if (status === 403 || status === 401 || messageOf(error) === UPLOAD_SESSION_MESSAGE) {
          toasts.toast({ variant: 'destructive', title: ct('core:need_login_title'), description: ct('core:need_login_description') });
          openProductPage(host, apiOrigin, SIGN_IN_PATH);
        } else {
          toasts.toast({ variant: 'destructive', title: ct('core:upload_failed_title'), description: ct('core:upload_failed_description') });
        }
        emit(host, 'csai-error', { message: messageOf(error) || ct('core:upload_failed_description'), code: 'upload_failed', ...(status ? { status } : {}) });
      }
    },
    [apiOrigin, host, sameOrigin, store, toasts],
  );

  const removeChip = (key: string) => {
    setChips((cur) => cur.filter((c) => c.key !== key));
    setMessage('');
  };

  const toggleKb = (folder: KbFolder) => {
    const selected = store.$selectedKbs.peek();
    if (selected.some((k) => k.id === folder.id)) {
      store.$selectedKbs.value = selected.filter((k) => k.id !== folder.id);
      setMessage('');
      return;
    }
    const verdict = canSelectKnowledgeBase(selected.length, chipsRef.current.filter((c) => c.phase !== 'failed').length);
    if (!verdict.ok) return setMessage(verdict.message);
    setMessage('');
    store.$selectedKbs.value = [...selected, { id: folder.id, name: folder.name }];
  };

  const watchAnswer = useCallback(
    (questionId: string) => {
      setAnswering(questionId);
      const source = new EventSource(`${apiRoot(apiOrigin)}/channel/questions/${encodeURIComponent(questionId)}/events`, { withCredentials: !sameOrigin });
      const finish = () => {
        source.close();
        setAnswering((cur) => (cur === questionId ? null : cur));
      };
      source.addEventListener('done', finish);
      source.addEventListener('error', (e) => {
        // A server `error` event carries data; a connection error does not (the browser retries).
        if (e instanceof MessageEvent) finish();
      });
      return source;
    },
    [apiOrigin, sameOrigin],
  );

  const sourceRef = useRef<EventSource | null>(null);
  useEffect(() => () => sourceRef.current?.close(), []);

  const submit = useCallback(
    async (raw: string) => {
      const question = raw.trim();
      if (!isSendableQuestion(question) || sending) return;
      const tr = tRef.current;
      const current = chipsRef.current.filter((c) => c.phase !== 'failed');
      // SPEC §4 step 1: no selected file may still be uploading or parsing.
      if (current.some((c) => c.phase === 'uploading' || c.phase === 'parsing')) {
        toasts.toast({ variant: 'destructive', title: tr('cannot_send'), description: tr('file_parsing') });
        return;
      }
      const kbs = store.$selectedKbs.peek();
      setSending(true);
      try {
        // Step 2: the chosen knowledge bases must be parsed.
        if (kbs.length) {
          let parsed = false;
          try {
            parsed = (await client.post('/knowledge_base/folder/check_folder', { folder_ids: kbs.map((k) => k.id) }, responses.checkFolder, { quiet: true })).all_parsed;
          } catch {
            parsed = false;
          }
          if (!parsed) {
            toasts.toast({ variant: 'destructive', title: tr('cannot_send'), description: tr('kb_parsing') });
            return;
          }
        }
        // Step 3: a new conversation gets its channel first, named after the question.
        let targetChannel = channelId;
        if (!targetChannel) {
          try {
            targetChannel = (await client.post('/channel', { name: channelNameFor(question) }, responses.channel, { quiet: true })).id;
          } catch (error) {
            toasts.toast({ variant: 'destructive', title: tr('channel_failed'), description: messageOf(error) || tr('retry_later') });
            emit(host, 'csai-error', { message: messageOf(error) || tr('channel_failed'), code: error instanceof ApiError ? error.code : 'channel_failed', ...(error instanceof ApiError && error.status ? { status: error.status } : {}) });
            return;
          }
        }
        // Step 4: send the question request of SPEC §3.
        let sent: { question_id: string; channel_id: string };
        try {
          const toolValues = enabledTools ? [...enabledTools] : await loadTools();
          sent = await client.post(
            '/channel/init_questions',
            {
              question,
              channel_id: targetChannel,
              docIdList: current.map((c) => c.docId!).filter(Boolean),
              kb_ids: kbs.map((k) => k.id),
              client: sameOrigin ? 'web' : 'embed',
              if_search_online: store.$isOnline.peek(),
              search_type: store.$searchType.peek() || 'all',
              if_thinking: store.$isThinking.peek(),
              deepresearch: store.$isDeepResearch.peek(),
              tools_name: toolValues,
            },
            responses.sent,
            { quiet: true },
          );
        } catch (error) {
          toasts.toast({ variant: 'destructive', title: tr('send_failed'), description: messageOf(error) || tr('retry_later') });
          emit(host, 'csai-error', { message: messageOf(error) || tr('send_failed'), code: error instanceof ApiError ? error.code : 'send_failed', ...(error instanceof ApiError && error.status ? { status: error.status } : {}) });
          return;
        }
        // Step 5: clear the box, tell the page, open the conversation (or signal closeSider).
        setText('');
        setChips([]);
        setMessage('');
        store.$selectedKbs.value = [];
        store.$channel_id.value = sent.channel_id;
        emit(host, 'csai-submitted', { channelId: sent.channel_id, questionId: sent.question_id });
        if (!channelId && navigate !== 'false') {
          openProductPage(host, apiOrigin, `/channels?channel_id=${encodeURIComponent(sent.channel_id)}&closeSider=true`);
        } else {
          sourceRef.current?.close();
          sourceRef.current = watchAnswer(sent.question_id);
        }
      } finally {
        setSending(false);
      }
    },
    [apiOrigin, channelId, client, enabledTools, host, loadTools, navigate, sameOrigin, sending, store, toasts, watchAnswer],
  );

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

  const stop = async () => {
    if (!answering) return;
    try {
      await client.put(`/channel/stop_questions/${encodeURIComponent(answering)}`, {}, responses.stopped, { quiet: true });
    } catch (error) {
      toasts.toast({ variant: 'destructive', title: tRef.current('stop_failed'), description: messageOf(error) || tRef.current('retry_later') });
    }
  };

  const insertAtCaret = (insert: string) => {
    const el = textareaRef.current;
    if (!el) return setText((cur) => cur + insert);
    const start = el.selectionStart ?? el.value.length;
    const end = el.selectionEnd ?? start;
    const next = el.value.slice(0, start) + insert + el.value.slice(end);
    setText(next);
    requestAnimationFrame(() => {
      el.selectionStart = el.selectionEnd = start + insert.length;
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const action = questionKeyAction({ key: e.key, shiftKey: e.shiftKey, ctrlKey: e.ctrlKey, isComposing: e.nativeEvent.isComposing || composingRef.current || e.keyCode === 229 });
    if (action === 'send') {
      e.preventDefault();
      // The box's own value: an input event earlier in the same task may not have re-rendered yet.
      void submit(e.currentTarget.value);
    } else if (action === 'newline') {
      e.preventDefault();
      insertAtCaret('\n');
    }
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const data = e.clipboardData;
    // SPEC §2: pasted images become files.
    const images = [...data.files].filter((f) => f.type.startsWith('image/'));
    if (images.length) {
      e.preventDefault();
      void addFiles(images.map((f) => (f.name ? f : new File([f], 'image.png', { type: f.type }))));
      return;
    }
    // SPEC §2: pasted text loses its HTML tags.
    const plain = data.getData('text/plain');
    const html = data.getData('text/html');
    if (!plain && !html) return;
    e.preventDefault();
    insertAtCaret(stripHtmlTags(plain || html));
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void addFiles([...e.dataTransfer.files]);
  };

  const openChemEditor = async () => {
    let editor = host.shadowRoot?.querySelector('csai-chem-editor');
    if (!editor) {
      editor = document.createElement('csai-chem-editor');
      for (const name of ['api-base', 'lang', 'theme', 'accent', 'radius']) {
        const v = host.getAttribute(name);
        if (v !== null) editor.setAttribute(name, v);
      }
      editor.addEventListener('csai-chem-smiles', (event) => {
        const smiles = event instanceof CustomEvent && typeof (event.detail as { smiles?: unknown })?.smiles === 'string' ? (event.detail as { smiles: string }).smiles.trim() : '';
        if (!smiles) {
          toasts.toast({ variant: 'destructive', title: tRef.current('smiles_failed') });
          return;
        }
        insertAtCaret(smiles);
        textareaRef.current?.focus();
      });
      host.shadowRoot?.querySelector('.csai-root')?.append(editor);
    }
    await customElements.whenDefined('csai-chem-editor');
    if (isChemEditor(editor)) editor.open();
  };

  const allToolValues = useMemo(() => (tools ?? []).flatMap((g) => g.tools.filter((x) => x.enabled && !x.ldap_disabled).map((x) => x.value)), [tools]);
  // Once the list is known, a server with no usable tool shows the toggle off (not “on” with nothing behind it).
  const noTools = tools !== null && allToolValues.length === 0;
  const toolsOn = !noTools && (enabledTools === null || enabledTools.size > 0);
  const toggleAllTools = () => {
    if (toolsOn) setEnabledTools(new Set());
    else void loadTools().then((all) => setEnabledTools(new Set(all)));
  };
  const toggleTool = (value: string) =>
    setEnabledTools((cur) => {
      const next = new Set(cur ?? allToolValues);
      if (next.has(value)) next.delete(value);
      else next.add(value);
      return next;
    });
  const openTools = () => {
    void loadTools();
    clearTimeout(closeTimer.current);
    setToolsOpen(true);
  };
  const scheduleToolsClose = () => {
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => setToolsOpen(false), TOOLS_PANEL_CLOSE_MS);
  };

  const uploadingChips = chips.filter((c) => c.phase === 'uploading');
  const chipStatus = (c: FileChip) =>
    c.phase === 'uploading' ? t('uploading', { percent: c.percent }) : c.phase === 'parsing' ? t('parsing', { percent: c.percent }) : c.phase === 'done' ? t('done') : t('failed');
  const toggle = (on: boolean) =>
    `inline-flex items-center gap-1 rounded-csai border px-2 py-1 text-xs cursor-pointer ${on ? 'border-accent bg-accent text-accent-fg' : 'border-line bg-surface text-ink'}`;
  const tabClass = (on: boolean) => `px-3 py-1 text-sm cursor-pointer bg-transparent border-0 border-b-2 ${on ? 'border-accent text-accent font-semibold' : 'border-transparent text-muted'}`;
  const busy = sending || !!answering;

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

      {tab === 'files' ? (
        <div role="tabpanel" part="files" className="flex flex-wrap items-center gap-2 text-xs">
          <button type="button" part="upload" className={toggle(false)} onClick={() => fileInputRef.current?.click()}>
            {t('upload')}
          </button>
          <input ref={fileInputRef} type="file" multiple accept={ACCEPT} className="hidden" aria-label={t('upload')} onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void addFiles(files);
          }} />
          {!chips.length && <span className="text-muted">{dragging ? t('drop_here') : t('files_hint')}</span>}
          {uploadingChips.length > 0 && (
            <span part="upload-total" className="text-muted">{t('upload_total', { percent: totalProgress(uploadingChips.map((c) => c.percent)) })}</span>
          )}
        </div>
      ) : (
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
                    <input type="checkbox" checked={selectedKbs.some((k) => k.id === f.id)} onChange={() => toggleKb(f)} />
                    <span>{f.name}</span>
                    <span className="text-muted">{t('kb_docs', { count: f.doc_count })}</span>
                  </label>
                ))}
              </fieldset>
            ))
          )}
        </div>
      )}

      {(chips.length > 0 || selectedKbs.length > 0) && (
        <ul part="chips" className="flex flex-wrap gap-2 list-none m-0 p-0">
          {chips.map((c) => (
            <li key={c.key} part="chip file-chip" data-phase={c.phase} className={`inline-flex items-center gap-1 rounded-csai border px-2 py-0.5 text-xs ${c.phase === 'failed' ? 'border-danger text-danger' : 'border-line'}`}>
              <span className="max-w-xs truncate">{c.name}</span>
              <span part="chip-status" className="text-muted">{chipStatus(c)}</span>
              <button type="button" aria-label={t('remove', { name: c.name })} className="cursor-pointer bg-transparent border-0 text-muted" onClick={() => removeChip(c.key)}>
                ×
              </button>
            </li>
          ))}
          {selectedKbs.map((k) => (
            <li key={k.id} part="chip kb-chip" className="inline-flex items-center gap-1 rounded-csai border border-accent px-2 py-0.5 text-xs">
              <span>{k.name}</span>
              <button type="button" aria-label={t('remove', { name: k.name })} className="cursor-pointer bg-transparent border-0 text-muted" onClick={() => (store.$selectedKbs.value = store.$selectedKbs.peek().filter((x) => x.id !== k.id))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}

      <textarea
        ref={textareaRef}
        part="input"
        aria-label={t('label')}
        placeholder={t('placeholder')}
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        onCompositionStart={() => (composingRef.current = true)}
        onCompositionEnd={() => (composingRef.current = false)}
        onPaste={onPaste}
        className="w-full resize-y rounded-csai border border-line bg-surface text-ink p-2 text-sm font-csai"
      />
      <SmilesHint text={text} onAccept={setText} />

      {message && (
        <p part="message" role="alert" className="m-0 text-xs text-danger">
          {message}
        </p>
      )}

      <div part="toolbar" className="flex flex-wrap items-center gap-2">
        <button type="button" part="toggle toggle-thinking" aria-pressed={thinking} className={toggle(thinking)} onClick={() => (store.$isThinking.value = !thinking)}>
          {t('thinking')}
        </button>
        <button type="button" part="toggle toggle-deep-research" aria-pressed={deepResearch} title={t('deep_research_hint')} className={toggle(deepResearch)} onClick={() => (store.$isDeepResearch.value = !deepResearch)}>
          {t('deep_research')}
        </button>
        <button type="button" part="toggle toggle-online" aria-pressed={online} className={toggle(online)} onClick={() => (store.$isOnline.value = !online)}>
          {t('online')}
        </button>
        <span className="relative inline-flex" onMouseEnter={openTools} onMouseLeave={scheduleToolsClose} onFocus={openTools} onBlur={scheduleToolsClose}>
          <button type="button" part="toggle toggle-tools" aria-pressed={toolsOn} aria-expanded={toolsOpen} className={toggle(toolsOn)} onClick={toggleAllTools}>
            {t('tools')}
          </button>
          {toolsOpen && (
            <div part="tools-panel" role="group" aria-label={t('tools_panel')} className="absolute z-10 left-0 bottom-full mb-1 w-64 max-h-72 overflow-auto rounded-csai border border-line bg-surface text-ink p-2 text-xs shadow">
              {!tools ? (
                <span className="text-muted">{t('tools_loading')}</span>
              ) : (
                <>
                {noTools && <p part="tools-none" className="m-0 mb-1 text-muted">{t('tools_none')}</p>}
                {tools.map((g) => (
                  <fieldset key={g.id} part="tool-group" className="border-0 p-0 m-0 mb-1">
                    <legend className="font-semibold">{g.label}</legend>
                    {g.tools.map((tool) => {
                      const usable = tool.enabled && !tool.ldap_disabled;
                      return (
                        <label key={tool.id} part="tool" data-disabled={usable ? undefined : 'true'} title={tool.description} className={`flex items-center gap-2 py-0.5 ${usable ? 'cursor-pointer' : 'opacity-50 cursor-not-allowed'}`}>
                          <input type="checkbox" disabled={!usable} checked={usable && (enabledTools === null || enabledTools.has(tool.value))} onChange={() => toggleTool(tool.value)} />
                          <span>{tool.label}</span>
                          {!usable && <span className="text-muted">{t('tool_unavailable')}</span>}
                        </label>
                      );
                    })}
                  </fieldset>
                ))}
                </>
              )}
            </div>
          )}
        </span>
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
        <button type="button" part="chem-editor" className={toggle(false)} onClick={() => void openChemEditor()}>
          {t('chem_editor')}
        </button>
        <span className="flex-1" />
        {answering ? (
          <button type="button" part="stop" className="inline-flex items-center gap-1 rounded-csai border border-danger bg-surface text-danger px-3 py-1 text-sm cursor-pointer" onClick={() => void stop()}>
            <span part="spinner" aria-hidden="true" className="inline-block w-3 h-3 rounded-full border-2 border-danger animate-spin" style={{ borderTopColor: 'transparent' }} />
            {t('stop')}
          </button>
        ) : (
          <button type="button" part="send" disabled={busy || !isSendableQuestion(text)} aria-busy={sending} className="rounded-csai border-0 bg-accent text-accent-fg px-3 py-1 text-sm cursor-pointer disabled:opacity-50 disabled:cursor-not-allowed" onClick={() => void submit(text)}>
            {sending ? t('sending') : t('send')}
          </button>
        )}
      </div>
      {deepResearch && (
        <p part="deep-research-hint" className="m-0 text-xs text-muted">
          {t('deep_research_hint')}
        </p>
      )}
      {!sameOrigin && <InlineToasts label={t('notice')} closeLabel={t('close')} />}
    </div>
  );
}

/** The view the element imports on first connection. */
export const view = reactView<AskProps>(Ask);
