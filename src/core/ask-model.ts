// The question box's behaviour (SPEC §2/§4/§5) without a framework: chips of uploaded and
// preselected documents with parse polling, the knowledge-base choice, the tools, and the verbs
// send / stop / retry. Widgets render its signals; tests drive it without a browser.
import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import type { z } from 'zod';
import type { ToolGroup } from '../contract/channel';
import type { KbFolder } from '../contract/knowledge';
import { ApiError, lazySchema, UPLOAD_SESSION_MESSAGE, type ApiClient } from './api';
import type { StatusStore } from './status-store';
import type { ToastStore } from './toast';
import { perFileProgress } from './upload-progress';
import { canSelectFile, canSelectKnowledgeBase, channelNameFor, checkUpload, isSendableQuestion, MAX_KNOWLEDGE_BASES } from './validation';

/** SPEC §9: parse status polling interval. */
export const PARSE_POLL_MS = 1000;
/** SPEC §9: the built-in folder for question files (contract `QUESTION_FOLDER_ID`; kept here so zod stays out of the first load). */
const QUESTION_FOLDER_ID = 'folder_for_question_channel';
/** SPEC §9 / §7: the question box lists folders with page 1, size 100. */
const FOLDER_PAGE = '?page=1&size=100';

/** Response schemas, loaded with the first call that needs them (zod is not in the box's first load). */
const loadSchemas = () => import('./ask-schemas').then((m) => m.schemas);
const responses = {
  tools: lazySchema(() => loadSchemas().then((s) => s.tools)),
  folders: lazySchema(() => loadSchemas().then((s) => s.folders)),
  document: lazySchema(() => loadSchemas().then((s) => s.document)),
  checkFolder: lazySchema(() => loadSchemas().then((s) => s.checkFolder)),
  channel: lazySchema(() => loadSchemas().then((s) => s.channel)),
  sent: lazySchema(() => loadSchemas().then((s) => s.sent)),
  stopped: lazySchema(() => loadSchemas().then((s) => s.stopped)),
  uploaded: lazySchema(() => loadSchemas().then((s) => s.uploaded)),
  online: lazySchema(() => loadSchemas().then((s) => s.online)),
};

/** GET /online/status: which online sources the server has, and what to set for each missing one. */
export interface OnlineStatusView {
  web: boolean;
  literature: boolean;
  patents: boolean;
  missing: { web?: string | undefined; literature?: string | undefined; patents?: string | undefined };
}

/** The search-type menu's sources (全部/网页/文献/专利), as the server routes them. */
const TYPE_SOURCES: Record<string, ReadonlyArray<'web' | 'literature' | 'patents'>> = { all: ['web', 'literature', 'patents'], web: ['web'], paper: ['literature'], patent: ['patents'] };

/** What a search type would not search on this server: `all` (nothing configured), one source, or null (it searches). */
export type OnlineMissing = 'all' | 'web' | 'literature' | 'patents';

/**
 * What a question with online search on would not search, before it is sent, or null when the
 * chosen type searches something. For 全部, said only when none is configured (the others are
 * searched). Issue 32 §2: the asker gets one short line; what to configure is for administrators
 * (the /test page), so the server's `missing` sentences are not shown here.
 */
export function onlineMissing(status: OnlineStatusView | null, searchType: string): OnlineMissing | null {
  if (!status) return null;
  const kinds = TYPE_SOURCES[searchType] ?? TYPE_SOURCES.all!;
  if (kinds.some((k) => status[k])) return null;
  return kinds.length === 1 ? kinds[0]! : 'all';
}

/** Whether the server has any online source at all. */
const anyOnline = (status: OnlineStatusView) => status.web || status.literature || status.patents;
type KbDocument = z.output<Awaited<ReturnType<typeof loadSchemas>>['document']>;

/** One file chip: uploading, parsing, done or failed (SPEC §4 parseStatus and upload progress). */
export interface FileChip {
  key: string;
  name: string;
  docId?: string;
  phase: 'uploading' | 'parsing' | 'done' | 'failed';
  percent: number;
}

/** The texts the model shows in toasts (SPEC §8, in the element's language). */
export type AskTexts = (key: 'cannot_send' | 'file_parsing' | 'kb_parsing' | 'channel_failed' | 'send_failed' | 'retry_later' | 'stop_failed') => string;

/** What the model needs. */
export interface AskModelDeps {
  client: ApiClient;
  store: Pick<StatusStore, 'ask' | 'session'>;
  toasts: ToastStore;
  t: AskTexts;
  /** `web` on the site, `embed` on another page (the question request's `client`). */
  clientKind: 'web' | 'embed';
  /** Goes to sign-in after an upload refused for the session (SPEC §8; the element asks the page first). */
  signIn: () => void;
  /** Timers (tests may pass their own). */
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

/** Where a sent question went. */
export interface Sent {
  channelId: string;
  questionId: string;
}

let chipCounter = 0;
const chipKey = () => `chip-${++chipCounter}`;
const phaseOf = (doc: Pick<KbDocument, 'parseStatus'>): FileChip['phase'] => (doc.parseStatus === 1 ? 'parsing' : doc.parseStatus === 2 ? 'done' : 'failed');
const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : '');

/**
 * The question box model. Signals: `$chips`, `$message` (a SPEC §5 verdict), `$sending`,
 * `$answering` (the question being answered after a send that stays), `$tools`, `$enabledTools`
 * (null = all), `$folders`, `$failed` (a send that can be retried). Verbs: `addFiles`,
 * `removeChip`, `toggleKb`, `loadTools`, `loadFolders`, `setTools`, `send`, `stop`, `retry`.
 * @example const ask = createAskModel({ client, store: statusStore(), toasts, t, clientKind: 'web' }); await ask.send('阿司匹林的副作用？');
 */
export function createAskModel(deps: AskModelDeps) {
  const { client, toasts, t } = deps;
  const store = deps.store.ask;
  const later = deps.setTimeout ?? ((fn, ms) => globalThis.setTimeout(fn, ms));
  const cancel = deps.clearTimeout ?? ((h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>));
  let disposed = false;

  const $chips = signal<FileChip[]>(store.$files_list.peek().map((f) => ({ key: chipKey(), name: f.name, docId: f.docId, phase: 'parsing', percent: 0 })));
  const $message = signal('');
  const $sending = signal(false);
  const $answering = signal<string | null>(null);
  const $tools = signal<ToolGroup[] | null>(null);
  const $online = signal<OnlineStatusView | null>(null);
  const $enabledTools = signal<ReadonlySet<string> | null>(null);
  const $folders = signal<{ own: KbFolder[]; shared: KbFolder[] } | null>(null);
  const $failed = signal<{ question: string; channelId?: string } | null>(null);
  const usable = (groups: readonly ToolGroup[]) => groups.flatMap((g) => g.tools.filter((x) => x.enabled && !x.ldap_disabled).map((x) => x.value));
  /** Once the list is known, a server without a usable tool shows the toggle off. */
  const $toolsOn = computed(() => !($tools.value !== null && usable($tools.value).length === 0) && ($enabledTools.value === null || $enabledTools.value.size > 0));
  const live = (list = $chips.peek()) => list.filter((c) => c.phase !== 'failed');

  // The selection lives in the status store (SPEC §3 docIdList, files_list) so it survives navigation.
  const pending = new Set<string>();
  const setChips = (next: FileChip[]) => {
    const withId = live(next).filter((c): c is FileChip & { docId: string } => !!c.docId);
    batch(() => {
      $chips.value = next;
      store.$files_list.value = withId.map((c) => ({ docId: c.docId, name: c.name }));
      store.$docIdList.value = [...new Set([...withId.map((c) => c.docId), ...pending])];
    });
    schedulePoll();
  };
  const update = (fn: (c: FileChip) => FileChip) => setChips($chips.peek().map(fn));

  // SPEC §4: documents still parsing are polled every second until their status is no longer 1.
  let pollTimer: unknown;
  let polling: AbortController | undefined;
  function schedulePoll() {
    if (pollTimer !== undefined || disposed) return;
    if (!$chips.peek().some((c) => c.phase === 'parsing' && c.docId)) return;
    pollTimer = later(() => {
      pollTimer = undefined;
      polling = new AbortController();
      const { signal: aborted } = polling;
      const ids = $chips.peek().filter((c) => c.phase === 'parsing' && c.docId).map((c) => c.docId!);
      void Promise.all(
        ids.map((docId) =>
          client.get(`/knowledge_base/doc/${encodeURIComponent(docId)}`, responses.document, { quiet: true, redirect: false, signal: aborted }).then(
            (doc) => ({ docId, doc }),
            () => null,
          ),
        ),
      ).then((found) => {
        if (aborted.aborted) return;
        const byId = new Map(found.filter((f) => f !== null).map((f) => [f.docId, f.doc]));
        update((c) => {
          const doc = c.docId && c.phase === 'parsing' ? byId.get(c.docId) : undefined;
          return doc ? { ...c, phase: phaseOf(doc), percent: doc.parse_progress } : c;
        });
      });
    }, PARSE_POLL_MS);
  }

  /** Ids put in the store by the page (the home page's `docIds`) become chips once fetched. */
  const adoptStoreIds = (wanted: readonly string[]) => {
    const known = new Set($chips.peek().map((c) => c.docId));
    const missing = wanted.filter((id) => !known.has(id) && !pending.has(id));
    if (!missing.length) return;
    for (const id of missing) pending.add(id);
    void Promise.all(
      missing.map((docId) =>
        client.get(`/knowledge_base/doc/${encodeURIComponent(docId)}`, responses.document, { quiet: true, redirect: false }).then(
          (doc): FileChip => ({ key: chipKey(), name: doc.title, docId, phase: phaseOf(doc), percent: doc.parse_progress }),
          () => null, // not found or not the user's: dropped
        ),
      ),
    ).then((found) => {
      for (const id of missing) pending.delete(id);
      if (disposed) return;
      const add = found.filter((c): c is FileChip => c !== null && !$chips.peek().some((x) => x.docId === c.docId));
      setChips([...$chips.peek(), ...add].slice(0, 6));
    });
  };
  const unwatchStore = store.$docIdList.subscribe((ids) => adoptStoreIds(ids));

  /** SPEC §4/§5: checks and uploads files into the question folder with per-file progress. */
  async function addFiles(files: readonly File[]): Promise<void> {
    if (!files.length) return;
    const current = live();
    const allowed = canSelectFile(current.length, store.$selectedKbs.peek().length);
    if (!allowed.ok) {
      $message.value = allowed.message;
      return;
    }
    const check = checkUpload(files, current.map((c) => c.name));
    $message.value = check.message ?? '';
    if (!check.accepted.length) return;
    const added: FileChip[] = check.accepted.map((a) => ({ key: chipKey(), name: a.name, phase: 'uploading', percent: 0 }));
    const keys = added.map((b) => b.key);
    setChips([...current, ...added]);
    const form = new FormData();
    for (const f of check.accepted) form.append('files', f.file, f.name);
    form.append('folder_id', QUESTION_FOLDER_ID);
    // Multipart overhead makes the body a little larger than the files; progress is against the files.
    const sizes = check.accepted.map((f) => f.file.size);
    try {
      const { name_id: named } = await client.upload(`/knowledge_base/upload?folder_id=${QUESTION_FOLDER_ID}`, form, responses.uploaded, {
        redirect: false,
        onProgress: (loaded, total) => {
          const percents = perFileProgress(sizes, loaded, total);
          update((c) => (keys.includes(c.key) && c.phase === 'uploading' ? { ...c, percent: percents[keys.indexOf(c.key)] ?? c.percent } : c));
        },
      });
      update((c) => {
        const i = keys.indexOf(c.key);
        const docId = i >= 0 ? named[i]?.docId : undefined;
        return i < 0 ? c : docId ? { ...c, docId, phase: 'parsing', percent: 0 } : { ...c, phase: 'failed' };
      });
    } catch (error) {
      // SPEC §4: on an upload error every file of the batch becomes failed (status 3); the
      // client showed the SPEC §8 upload row and reported the failure.
      update((c) => (keys.includes(c.key) ? { ...c, phase: 'failed' } : c));
      if (error instanceof ApiError && (error.status === 401 || error.status === 403 || error.message === UPLOAD_SESSION_MESSAGE)) deps.signIn();
    }
  }

  function removeChip(key: string) {
    setChips($chips.peek().filter((c) => c.key !== key));
    $message.value = '';
  }

  /** SPEC §5: chooses or drops a knowledge base (at most 2, never beside files). */
  function toggleKb(folder: Pick<KbFolder, 'id' | 'name'>) {
    const selected = store.$selectedKbs.peek();
    if (selected.some((k) => k.id === folder.id)) {
      store.$selectedKbs.value = selected.filter((k) => k.id !== folder.id);
      $message.value = '';
      return;
    }
    const verdict = canSelectKnowledgeBase(selected.length, live().length);
    $message.value = verdict.ok ? '' : verdict.message;
    if (verdict.ok) store.$selectedKbs.value = [...selected, { id: folder.id, name: folder.name }];
  }

  // Online sources of GET /online/status, fetched when the toolbar shows (the toggle explains what is missing).
  // Issue 32 §2: until the asker sets 联网搜索 themselves it is on exactly when the server has a source.
  let onlineLoad: Promise<void> | null = null;
  function loadOnline(): Promise<void> {
    onlineLoad ??= client.get('/online/status', responses.online, { quiet: true, redirect: false }).then(
      (status) => {
        $online.value = status;
        if (!store.$isOnlineChosen.peek()) store.$isOnline.value = anyOnline(status);
      },
      () => void (onlineLoad = null),
    );
    return onlineLoad;
  }
  /** The asker turns 联网搜索 on or off; from then on their choice stands. */
  function setOnline(on: boolean) {
    store.$isOnlineChosen.value = true;
    store.$isOnline.value = on;
  }

  // Tools of GET /tools, fetched on first use (hover, click, send); all usable ones on by default (SPEC §4).
  let toolsLoad: Promise<string[]> | null = null;
  function loadTools(): Promise<string[]> {
    toolsLoad ??= client.get('/tools', responses.tools, { quiet: true, redirect: false }).then(
      (groups) => {
        $tools.value = groups;
        return usable(groups);
      },
      () => {
        toolsLoad = null; // a later use retries
        return [];
      },
    );
    return toolsLoad;
  }
  /** The tools button: all off, or all (usable) on. */
  function toggleAllTools() {
    if ($toolsOn.peek()) $enabledTools.value = new Set();
    else void loadTools().then((all) => ($enabledTools.value = new Set(all)));
  }
  function toggleTool(value: string) {
    const next = new Set($enabledTools.peek() ?? usable($tools.peek() ?? []));
    if (next.has(value)) next.delete(value);
    else next.add(value);
    $enabledTools.value = next;
  }

  /** The knowledge-base picker: own folders and shared ones (SPEC §7 usage notes), once. */
  function loadFolders() {
    if ($folders.peek()) return;
    Promise.all([
      client.get(`/knowledge_base/folder${FOLDER_PAGE}`, responses.folders),
      client.get(`/knowledge_base/get_share_folders${FOLDER_PAGE}&sort=-createTime`, responses.folders),
    ]).then(
      ([own, shared]) => ($folders.value = { own: own.items, shared: shared.items }),
      () => ($folders.value = { own: [], shared: [] }),
    );
  }

  /** SPEC §3: the full question request. */
  async function request(question: string, channelId: string, files: readonly FileChip[]) {
    const kbIds = store.$selectedKbs.peek().map((k) => k.id);
    const docIds = files.map((c) => c.docId).filter((id): id is string => !!id);
    // Documents picked inside knowledge bases, and the default (public) knowledge bases: never
    // beside files (SPEC §5), and the defaults only up to the limit of two with the chosen ones.
    const picked = store.$now_knowledge_list.peek().flatMap((d) => (typeof d === 'object' && d !== null && 'docId' in d && typeof d.docId === 'string' ? [d.docId] : []));
    const defaults = store.$knowledgeCSAIDefault.peek().filter((id) => !kbIds.includes(id)).slice(0, Math.max(0, MAX_KNOWLEDGE_BASES - kbIds.length));
    return {
      question,
      channel_id: channelId,
      docIdList: docIds,
      user_id: deps.store.session.$user_id.peek() || null,
      docIdListKnowledge: docIds.length ? [] : picked,
      knowledgeCSAIDefault: docIds.length ? [] : defaults,
      client: deps.clientKind,
      kb_ids: kbIds,
      // Not yet chosen: the server's sources decide (a quick send before the toolbar loaded them waits for them).
      if_search_online: store.$isOnlineChosen.peek() ? store.$isOnline.peek() : (await loadOnline(), store.$isOnline.peek()),
      search_type: store.$searchType.peek() || 'all',
      if_thinking: store.$isThinking.peek(),
      deepresearch: store.$isDeepResearch.peek(),
      tools_name: $enabledTools.peek() ? [...$enabledTools.peek()!] : await loadTools(),
    };
  }

  const failToast = (title: string, error: unknown) => toasts.toast({ variant: 'destructive', title, description: messageOf(error) || t('retry_later') });

  /**
   * SPEC §4 submit flow: no file still uploading or parsing; the chosen knowledge bases parsed;
   * a new channel named after the question unless `channelId`; then the question. Clears the
   * box on success and returns where it went; null when it was not sent (told by a toast).
   */
  async function send(raw: string, channelId?: string): Promise<Sent | null> {
    const question = raw.trim();
    if (!isSendableQuestion(question) || $sending.peek()) return null;
    const current = live();
    if (current.some((c) => c.phase === 'uploading' || c.phase === 'parsing')) {
      toasts.toast({ variant: 'destructive', title: t('cannot_send'), description: t('file_parsing') });
      return null;
    }
    const kbs = store.$selectedKbs.peek();
    $sending.value = true;
    try {
      if (kbs.length) {
        const parsed = await client.post('/knowledge_base/folder/check_folder', { folder_ids: kbs.map((k) => k.id) }, responses.checkFolder, { quiet: true }).then((r) => r.all_parsed, () => false);
        if (!parsed) {
          toasts.toast({ variant: 'destructive', title: t('cannot_send'), description: t('kb_parsing') });
          return null;
        }
      }
      let target = channelId;
      if (!target) {
        try {
          target = (await client.post('/channel', { name: channelNameFor(question) }, responses.channel, { quiet: true })).id;
        } catch (error) {
          failToast(t('channel_failed'), error);
          $failed.value = { question };
          return null;
        }
      }
      let sent: { question_id: string; channel_id: string };
      try {
        sent = await client.post('/channel/init_questions', await request(question, target, current), responses.sent, { quiet: true });
      } catch (error) {
        failToast(t('send_failed'), error);
        $failed.value = { question, channelId: target };
        return null;
      }
      batch(() => {
        $failed.value = null;
        $message.value = '';
        store.$selectedKbs.value = [];
        store.$channel_id.value = sent.channel_id;
      });
      setChips([]);
      return { channelId: sent.channel_id, questionId: sent.question_id };
    } finally {
      $sending.value = false;
    }
  }

  /** Sends again what failed last (into the channel already made, if any). */
  const retry = () => {
    const failed = $failed.peek();
    return failed ? send(failed.question, failed.channelId) : Promise.resolve(null);
  };

  // The answer followed after a send that stays on the page: the client's one event stream.
  let stream: { close(): void } | undefined;
  function follow(questionId: string) {
    stream?.close();
    $answering.value = questionId;
    stream = client.answerEvents(questionId, 0, {
      onEvent: () => undefined,
      onEnd: () => {
        if ($answering.peek() === questionId) $answering.value = null;
      },
    });
  }

  /** Stops the answer being followed (PUT /channel/stop_questions/{id}); the stream then ends. */
  async function stop(): Promise<void> {
    const id = $answering.peek();
    if (!id) return;
    try {
      await client.put(`/channel/stop_questions/${encodeURIComponent(id)}`, {}, responses.stopped, { quiet: true });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'aborted')) failToast(t('stop_failed'), error);
    }
  }

  schedulePoll(); // chips kept in the store from before a navigation may still be parsing
  return {
    $chips: $chips as ReadonlySignal<FileChip[]>,
    $message,
    $sending: $sending as ReadonlySignal<boolean>,
    $answering: $answering as ReadonlySignal<string | null>,
    $tools: $tools as ReadonlySignal<ToolGroup[] | null>,
    $enabledTools: $enabledTools as ReadonlySignal<ReadonlySet<string> | null>,
    $toolsOn,
    $online: $online as ReadonlySignal<OnlineStatusView | null>,
    loadOnline,
    setOnline,
    $folders: $folders as ReadonlySignal<{ own: KbFolder[]; shared: KbFolder[] } | null>,
    $failed: $failed as ReadonlySignal<{ question: string; channelId?: string } | null>,
    addFiles,
    removeChip,
    toggleKb,
    loadTools,
    toggleAllTools,
    toggleTool,
    loadFolders,
    send,
    retry,
    follow,
    stop,
    /** Stops polling and the answer stream (the element left the page). */
    dispose() {
      disposed = true;
      unwatchStore();
      if (pollTimer !== undefined) cancel(pollTimer);
      polling?.abort();
      stream?.close();
    },
  };
}
/** The question box model. */
export type AskModel = ReturnType<typeof createAskModel>;
