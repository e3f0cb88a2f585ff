import { batch, signal, type Signal } from '@preact/signals-core';
import { z } from 'zod';

/** Where the status store keeps its values: sessionStorage in the browser, anything shaped like it in tests. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Prefix of every sessionStorage key the store writes (`csai:<field>`). */
export const STORAGE_PREFIX = 'csai:';

/** The user as the status store keeps it (SPEC §3 user_info). Empty strings when signed out. */
export const storedUser = z.object({
  show_name: z.string(),
  username: z.string(),
  id: z.string(),
  department_name: z.string(),
});
/** See {@link storedUser}. */
export type StoredUser = z.infer<typeof storedUser>;

/** A chosen knowledge base as the question box shows it. */
export const selectedKnowledgeBase = z.object({ id: z.string(), name: z.string() });
/** See {@link selectedKnowledgeBase}. */
export type SelectedKnowledgeBase = z.infer<typeof selectedKnowledgeBase>;

/** A chosen or uploaded document as the question box shows it. */
export const selectedDocument = z.object({ docId: z.string(), name: z.string() });
/** See {@link selectedDocument}. */
export type SelectedDocument = z.infer<typeof selectedDocument>;

const EMPTY_USER: StoredUser = { show_name: '', username: '', id: '', department_name: '' };
const json = z.unknown();

/**
 * One persisted field: a signal whose value is written to storage on every change and read
 * back (validated by its schema) when a store is created, falling back to the SPEC §3 default.
 */
function persisted<T>(storage: KeyValueStorage, name: string, schema: z.ZodType<T>, initial: T): Signal<T> {
  const key = STORAGE_PREFIX + name;
  let start = initial;
  try {
    const raw = storage.getItem(key);
    if (raw !== null) {
      const parsed = schema.safeParse(JSON.parse(raw));
      if (parsed.success) start = parsed.data;
    }
  } catch {
    // Unreadable or corrupt storage: the default stands.
  }
  const $value = signal(start);
  $value.subscribe((value) => {
    try {
      storage.setItem(key, JSON.stringify(value));
    } catch {
      // Storage full or blocked (private mode): the value still lives in memory for this page.
    }
  });
  return $value;
}

const str = z.string();
const strings = z.array(z.string());
const bool = z.boolean();
const int = z.number().int();

/** Who is signed in and the sign-in flow (SPEC §3, §6). */
function sessionModel(s: KeyValueStorage) {
  const $user_info = persisted(s, 'user_info', storedUser, EMPTY_USER);
  const $need_login = persisted(s, 'need_login', bool, false);
  const $login_dialog = persisted(s, 'login_dialog', bool, false);
  const $user_tab = persisted(s, 'user_tab', str, 'sign_in');
  const $password_token = persisted(s, 'password_token', str, '');
  const $user_id = persisted(s, 'user_id', str, '');
  return {
    $user_info,
    $need_login,
    $login_dialog,
    $user_tab,
    $password_token,
    $user_id,
    /** Records the signed-in user. */
    signIn(user: StoredUser) {
      batch(() => {
        $user_info.value = user;
        $user_id.value = user.id;
        $need_login.value = false;
      });
    },
    /** Forgets the user; `needLogin` marks that a page asked for a session it did not get. */
    signOut(needLogin = false) {
      batch(() => {
        $user_info.value = EMPTY_USER;
        $user_id.value = '';
        $need_login.value = needLogin;
      });
    },
  };
}

/** Layout of the site: sidebars, the side rail and which main view shows (SPEC §3, §4). */
function layoutModel(s: KeyValueStorage) {
  const $main_status = persisted(s, 'main_status', int, 1);
  const $isSidebarOpen = persisted(s, 'isSidebarOpen', bool, true);
  const $isRightSidebarOpen = persisted(s, 'isRightSidebarOpen', bool, false);
  const $show_main_router = persisted(s, 'show_main_router', bool, true);
  const $current_btn = persisted(s, 'current_btn', str, 'new');
  const $miniside_tab = persisted(s, 'miniside_tab', str, '-1');
  const $miniside_show_content = persisted(s, 'miniside_show_content', str, '');
  const $ask_active = persisted(s, 'ask_active', int, -1);
  const $knowledge_active = persisted(s, 'knowledge_active', int, -1);
  return {
    $main_status,
    $isSidebarOpen,
    $isRightSidebarOpen,
    $show_main_router,
    $current_btn,
    $miniside_tab,
    $miniside_show_content,
    $ask_active,
    $knowledge_active,
    /** SPEC §4: main_status can be incremented (views watch it to reset themselves). */
    incrementMainStatus() {
      $main_status.value += 1;
    },
    /** Expands or collapses the sidebar. */
    toggleSidebar() {
      $isSidebarOpen.value = !$isSidebarOpen.value;
    },
    /** Marks which side-rail entry is active (`new`, `channels`, `knowledges`). */
    setCurrentButton(button: string) {
      $current_btn.value = button;
    },
  };
}

/** The question box: chosen context and answer toggles (SPEC §3, §4). */
function askModel(s: KeyValueStorage) {
  const $channel_id = persisted(s, 'channel_id', str, '');
  const $file_data = persisted(s, 'file_data', z.array(json), []);
  const $files_list = persisted(s, 'files_list', z.array(selectedDocument), []);
  const $docIdList = persisted(s, 'docIdList', strings, []);
  const $docNameSelectList = persisted(s, 'docNameSelectList', strings, []);
  const $selectedKbs = persisted(s, 'selectedKbs', z.array(selectedKnowledgeBase), []);
  const $now_knowledge_list = persisted(s, 'now_knowledge_list', z.array(json), []);
  const $knowledgeCSAIDefault = persisted(s, 'knowledgeCSAIDefault', strings, []);
  const $prompt_list = persisted(s, 'prompt_list', z.array(json), []);
  const $change_to_question_page = persisted(s, 'change_to_question_page', bool, false);
  const $llm_select = persisted(s, 'llm_select', int, 0);
  const $isOnline = persisted(s, 'isOnline', bool, true);
  const $searchType = persisted(s, 'searchType', str, 'all');
  const $isThinking = persisted(s, 'isThinking', bool, true);
  const $isDeepResearch = persisted(s, 'isDeepResearch', bool, false);
  return {
    $channel_id,
    $file_data,
    $files_list,
    $docIdList,
    $docNameSelectList,
    $selectedKbs,
    $now_knowledge_list,
    $knowledgeCSAIDefault,
    $prompt_list,
    $change_to_question_page,
    $llm_select,
    $isOnline,
    $searchType,
    $isThinking,
    $isDeepResearch,
    /** Preselects documents by id (the home page's `docIds` query). */
    preselectDocuments(docIds: readonly string[]) {
      $docIdList.value = [...new Set([...$docIdList.value, ...docIds])];
    },
  };
}

/** The knowledge-base view (SPEC §3). */
function knowledgeModel(s: KeyValueStorage) {
  return {
    $folder_id: persisted(s, 'folder_id', str, ''),
    $folder_name: persisted(s, 'folder_name', str, ''),
    $folder_file_count: persisted(s, 'folder_file_count', int, 0),
    $folder_list: persisted(s, 'folder_list', z.array(json), []),
    $now_knowledge: persisted(s, 'now_knowledge', json, null),
    $knowledge_folders: persisted(s, 'knowledge_folders', z.array(json), []),
  };
}

/** The document viewer (SPEC §3). */
function viewerModel(s: KeyValueStorage) {
  return {
    $current_pdf_url: persisted(s, 'current_pdf_url', str, ''),
    $if_highlight_card: persisted(s, 'if_highlight_card', str, ''),
  };
}

/**
 * Builds the client status store of SPEC §3 over the given storage: small named models of
 * signals, each field persisted under `csai:<field>`. Most code wants {@link statusStore}.
 * @example const store = createStatusStore(window.sessionStorage); store.layout.toggleSidebar();
 */
export function createStatusStore(storage: KeyValueStorage) {
  return {
    session: sessionModel(storage),
    layout: layoutModel(storage),
    ask: askModel(storage),
    knowledge: knowledgeModel(storage),
    viewer: viewerModel(storage),
  };
}
/** The status store: its models `session`, `layout`, `ask`, `knowledge`, `viewer`. */
export type StatusStore = ReturnType<typeof createStatusStore>;

/** Memory storage for environments without sessionStorage (or where it throws). */
export function memoryStorage(): KeyValueStorage {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

let pageStore: StatusStore | undefined;

/**
 * The page's one status store, created on first use over sessionStorage. Every element and
 * the site share it because they share this module (the loader keeps src/core in one chunk).
 */
export function statusStore(): StatusStore {
  if (!pageStore) {
    let storage: KeyValueStorage;
    try {
      storage = window.sessionStorage;
      storage.getItem(STORAGE_PREFIX);
    } catch {
      storage = memoryStorage();
    }
    pageStore = createStatusStore(storage);
  }
  return pageStore;
}

/** Removes every persisted field of the store from storage (used on sign-out and in tests). */
export function clearStatusStorage(storage: KeyValueStorage & { length?: number; key?: (i: number) => string | null }) {
  if (typeof storage.length !== 'number' || !storage.key) return;
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith(STORAGE_PREFIX)) keys.push(key);
  }
  for (const key of keys) storage.removeItem(key);
}
