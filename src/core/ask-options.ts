// The question box's options: online search (GET /online/status; SPEC §4), the tools
// (GET /tools, all usable ones on by default) and the knowledge-base picker's folders (SPEC §7).
import { computed, signal, type ReadonlySignal } from '@preact/signals-core';
import type { ToolGroup } from '../contract/channel';
import type { KbFolder } from '../contract/knowledge';
import type { ApiClient } from './api';
import { FOLDER_PAGE, responses } from './ask-responses';
import type { OnlineStatusView } from './ask-types';
import type { StatusStore } from './status-store';

/** The search-type menu's sources (全部/网页/文献/专利), as the server routes them. */
const TYPE_SOURCES: Record<string, ReadonlyArray<'web' | 'literature' | 'patents'>> = { all: ['web', 'literature', 'patents'], web: ['web'], paper: ['literature'], patent: ['patents'] };

/** What a search type would not search on this server: `all` (nothing configured), one source, or null (it searches). */
export type OnlineMissing = 'all' | 'web' | 'literature' | 'patents';

/**
 * What a question with online search on would not search, before it is sent, or null when the
 * chosen type searches something. For 全部, said only when none is configured (the others are
 * searched). The asker gets one short line; what to configure is for administrators
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

/**
 * The options of one question box, each list fetched on first use.
 * @example const options = createAskOptions({ client, store: statusStore().ask }); await options.loadTools();
 */
export function createAskOptions({ client, store }: { client: ApiClient; store: StatusStore['ask'] }) {
  const $tools = signal<ToolGroup[] | null>(null);
  const $online = signal<OnlineStatusView | null>(null);
  const $enabledTools = signal<ReadonlySet<string> | null>(null);
  const $folders = signal<{ own: KbFolder[]; shared: KbFolder[] } | null>(null);
  const usable = (groups: readonly ToolGroup[]) => groups.flatMap((g) => g.tools.filter((x) => x.enabled && !x.ldap_disabled).map((x) => x.value));
  /** Once the list is known, a server without a usable tool shows the toggle off. */
  const $toolsOn = computed(() => !($tools.value !== null && usable($tools.value).length === 0) && ($enabledTools.value === null || $enabledTools.value.size > 0));

  // Online sources of GET /online/status, fetched when the toolbar shows (the toggle explains what is missing).
  // Until the asker sets 联网搜索 themselves it is on exactly when the server has a source.
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

  return {
    $tools: $tools as ReadonlySignal<ToolGroup[] | null>,
    $enabledTools: $enabledTools as ReadonlySignal<ReadonlySet<string> | null>,
    $toolsOn,
    $online: $online as ReadonlySignal<OnlineStatusView | null>,
    $folders: $folders as ReadonlySignal<{ own: KbFolder[]; shared: KbFolder[] } | null>,
    loadOnline,
    setOnline,
    loadTools,
    toggleAllTools,
    toggleTool,
    loadFolders,
  };
}
/** The options of a question box. */
export type AskOptions = ReturnType<typeof createAskOptions>;
