// The conversations view's state without a framework: the history (page, search, list), the open
// conversation (its questions and the documents they used) and the reloads a new question asks for.
import { computed, signal } from '@preact/signals-core';
import type { Question } from '../contract/channel';
import { CHANNEL_PAGE_SIZE, type ChannelApi, type ChannelList } from './channel-api';
import { createChannelDocuments } from './knowledge-extras';
import type { KnowledgeApi } from './knowledge-api';

/** What the model needs: the conversation calls and the two knowledge calls the documents list makes. */
export interface ChannelsModelDeps {
  api: Pick<ChannelApi, 'list' | 'questions'>;
  knowledge: Pick<KnowledgeApi, 'channelDocIds' | 'doc'>;
}

/** One load at a time per list: a newer load aborts the one in flight, whose answer is then dropped. */
function latest() {
  let abort: AbortController | undefined;
  return {
    next(): AbortSignal {
      abort?.abort();
      abort = new AbortController();
      return abort.signal;
    },
    stop() {
      abort?.abort();
    },
  };
}

/**
 * The history and the open conversation of one `<csai-channels>`. A list that fails to load shows
 * as empty; a list being reloaded keeps showing the previous one until the new one arrives.
 * @example const m = createChannelsModel({ api, knowledge }, 'c1'); m.$questions.value
 */
export function createChannelsModel({ api, knowledge }: ChannelsModelDeps, channelId = '') {
  const $search = signal('');
  const $page = signal(1);
  /** null until the first page of the history has loaded. */
  const $list = signal<ChannelList | null>(null);
  const $current = signal(channelId);
  /** null while no conversation is open or before its questions first loaded. */
  const $questions = signal<Question[] | null>(null);
  const documents = createChannelDocuments(knowledge);
  const listLoad = latest();
  const questionsLoad = latest();

  const loadList = () => {
    const signal = listLoad.next();
    api.list({ page: $page.peek(), search: $search.peek() }, signal).then(
      (list) => !signal.aborted && ($list.value = list),
      () => !signal.aborted && ($list.value = { items: [], total: 0 }),
    );
  };
  const loadConversation = () => {
    const id = $current.peek();
    void documents.load(id);
    if (!id) {
      questionsLoad.stop();
      $questions.value = null;
      return;
    }
    const signal = questionsLoad.next();
    api.questions(id, signal).then(
      (questions) => !signal.aborted && ($questions.value = questions),
      () => !signal.aborted && ($questions.value = []),
    );
  };

  const open = (id: string) => {
    if ($current.peek() === id) return;
    $current.value = id;
    loadConversation();
  };

  return {
    $search,
    $page,
    $list,
    $current,
    $questions,
    /** The documents the open conversation's questions used. */
    documents,
    /** Pages of the history (at least one). */
    $pages: computed(() => Math.max(1, Math.ceil(($list.value?.total ?? 0) / CHANNEL_PAGE_SIZE))),
    /** The open conversation's name when it is on the page of the history shown. */
    $currentName: computed(() => $list.value?.items.find((c) => c.id === $current.value)?.name),
    /** Loads the history and the conversation given at creation. */
    start() {
      loadList();
      loadConversation();
    },
    /** Searches the history by name, from its first page. */
    setSearch(text: string) {
      $search.value = text;
      $page.value = 1;
      loadList();
    },
    goToPage(page: number) {
      $page.value = page;
      loadList();
    },
    /** Opens a conversation ('' closes it); the one already open stays as it is. */
    open,
    /** Reads the history again (a question asked, a conversation renamed or deleted). */
    reloadList() {
      loadList();
    },
    /** Reads the open conversation again (a follow-up asked in it). */
    reloadConversation() {
      loadConversation();
    },
    /** A conversation of the list was renamed or deleted (`deletedActive`: the open one is gone). */
    channelChanged(deletedActive = false) {
      loadList();
      if (deletedActive) open('');
    },
    /** A question was deleted: it leaves the conversation shown. */
    questionDeleted(questionId: string) {
      $questions.value = $questions.peek()?.filter((q) => q.question_id !== questionId) ?? null;
    },
    /** Stops the loads in flight. */
    dispose() {
      listLoad.stop();
      questionsLoad.stop();
      documents.dispose();
    },
  };
}
/** A conversations model. */
export type ChannelsModel = ReturnType<typeof createChannelsModel>;
