import { batch, signal, type Signal } from '@preact/signals-core';

/** Where the status store keeps its values: sessionStorage in the browser, anything shaped like it in tests. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Prefix of every sessionStorage key the store writes (`csai:<field>`). */
export const STORAGE_PREFIX = 'csai:';

// Stored values are checked with these small readers rather than zod: the store is in every
// page's first load, zod is not (the API client loads it with its first call).
/** Reads a stored value back: the value in its type, or INVALID (the default then stands). */
export type Reader<T> = (value: unknown) => T | typeof INVALID;
const INVALID: unique symbol = Symbol('invalid');

const str: Reader<string> = (v) => (typeof v === 'string' ? v : INVALID);
const bool: Reader<boolean> = (v) => (typeof v === 'boolean' ? v : INVALID);
const int: Reader<number> = (v) => (typeof v === 'number' && Number.isInteger(v) ? v : INVALID);
const json: Reader<unknown> = (v) => v;
function arrayOf<T>(item: Reader<T>): Reader<T[]> {
  return (v) => {
    if (!Array.isArray(v)) return INVALID;
    const out: T[] = [];
    for (const x of v) {
      const read = item(x);
      if (read === INVALID) return INVALID;
      out.push(read);
    }
    return out;
  };
}
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = arrayOf(str);

/** The user as the status store keeps it (SPEC §3 user_info). Empty strings when signed out. */
export interface StoredUser {
  show_name: string;
  username: string;
  id: string;
  department_name: string;
  /** An administrator (shows the admin pages' entries; the server checks every admin request itself). */
  is_admin?: boolean;
}
/** Reads a {@link StoredUser}. */
export const storedUser: Reader<StoredUser> = (v) => {
  if (!isRecord(v)) return INVALID;
  const { show_name, username, id, department_name, is_admin } = v;
  return typeof show_name === 'string' && typeof username === 'string' && typeof id === 'string' && typeof department_name === 'string'
    ? { show_name, username, id, department_name, ...(is_admin === true ? { is_admin } : {}) }
    : INVALID;
};

/** A chosen knowledge base as the question box shows it. */
export interface SelectedKnowledgeBase {
  id: string;
  name: string;
}
/** Reads a {@link SelectedKnowledgeBase}. */
export const selectedKnowledgeBase: Reader<SelectedKnowledgeBase> = (v) => {
  if (!isRecord(v)) return INVALID;
  const { id, name } = v;
  return typeof id === 'string' && typeof name === 'string' ? { id, name } : INVALID;
};

/** A chosen or uploaded document as the question box shows it. */
export interface SelectedDocument {
  docId: string;
  name: string;
}
/** Reads a {@link SelectedDocument}. */
export const selectedDocument: Reader<SelectedDocument> = (v) => {
  if (!isRecord(v)) return INVALID;
  const { docId, name } = v;
  return typeof docId === 'string' && typeof name === 'string' ? { docId, name } : INVALID;
};

const EMPTY_USER: StoredUser = { show_name: '', username: '', id: '', department_name: '' };

/**
 * One persisted field: a signal whose value is written to storage on every change and read
 * back (validated by its schema) when a store is created, falling back to the SPEC §3 default.
 */
function persisted<T>(storage: KeyValueStorage, name: string, read: Reader<T>, initial: T): Signal<T> {
  const key = STORAGE_PREFIX + name;
  let start = initial;
  try {
    const raw = storage.getItem(key);
    if (raw !== null) {
      const value = read(JSON.parse(raw));
      if (value !== INVALID) start = value;
    }
  } catch {
    // Unreadable or corrupt storage: the default stands.
  }
  const $value = signal(start);
  // subscribe() calls back at once with the value just read; only later changes are written.
  let loaded = false;
  $value.subscribe((value) => {
    if (!loaded) {
      loaded = true;
      return;
    }
    try {
      storage.setItem(key, JSON.stringify(value));
    } catch {
      // Storage full or blocked (private mode): the value still lives in memory for this page.
    }
  });
  return $value;
}

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
  const $file_data = persisted(s, 'file_data', arrayOf(json), []);
  const $files_list = persisted(s, 'files_list', arrayOf(selectedDocument), []);
  const $docIdList = persisted(s, 'docIdList', strings, []);
  const $docNameSelectList = persisted(s, 'docNameSelectList', strings, []);
  const $selectedKbs = persisted(s, 'selectedKbs', arrayOf(selectedKnowledgeBase), []);
  const $now_knowledge_list = persisted(s, 'now_knowledge_list', arrayOf(json), []);
  const $knowledgeCSAIDefault = persisted(s, 'knowledgeCSAIDefault', strings, []);
  const $prompt_list = persisted(s, 'prompt_list', arrayOf(json), []);
  const $change_to_question_page = persisted(s, 'change_to_question_page', bool, false);
  const $llm_select = persisted(s, 'llm_select', int, 0);
  const $isOnline = persisted(s, 'isOnline', bool, true);
  /** Whether the asker set 联网搜索 themselves; until then it follows what the server offers. */
  const $isOnlineChosen = persisted(s, 'isOnlineChosen', bool, false);
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
    $isOnlineChosen,
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
    $folder_list: persisted(s, 'folder_list', arrayOf(json), []),
    $now_knowledge: persisted(s, 'now_knowledge', json, null),
    $knowledge_folders: persisted(s, 'knowledge_folders', arrayOf(json), []),
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
