// Sending a question (SPEC §4 submit flow with the full SPEC §3 request), retrying a failed send,
// and following and stopping the answer of a send that stays on the page.
import { batch, signal, type ReadonlySignal, type Signal } from '@preact/signals-core';
import { ApiError } from './api';
import type { AskFiles } from './ask-files';
import type { AskOptions } from './ask-options';
import { responses } from './ask-responses';
import type { AskModelDeps, FileChip, Sent } from './ask-types';
import { channelNameFor, isSendableQuestion, MAX_KNOWLEDGE_BASES } from './validation';

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : '');

/** What sending needs: the model's dependencies, the box's files and options, its message line. */
export interface AskSendingDeps extends Pick<AskModelDeps, 'client' | 'store' | 'toasts' | 't' | 'clientKind'> {
  files: Pick<AskFiles, 'live' | 'clear'>;
  options: Pick<AskOptions, 'loadOnline' | 'loadTools' | '$enabledTools'>;
  $message: Signal<string>;
}

/**
 * The question box's sends: `send`, `retry`, `follow`, `stop`, with `$sending`, `$answering` and
 * `$failed` (a send that can be retried).
 * @example const sending = createAskSending(deps); await sending.send('阿司匹林的副作用？');
 */
export function createAskSending(deps: AskSendingDeps) {
  const { client, toasts, t, files, options, $message } = deps;
  const store = deps.store.ask;
  const $sending = signal(false);
  const $answering = signal<string | null>(null);
  const $failed = signal<{ question: string; channelId?: string } | null>(null);
  const { $enabledTools, loadOnline, loadTools } = options;
  const live = () => files.live();

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
      files.clear();
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

  return {
    $sending: $sending as ReadonlySignal<boolean>,
    $answering: $answering as ReadonlySignal<string | null>,
    $failed: $failed as ReadonlySignal<{ question: string; channelId?: string } | null>,
    send,
    retry,
    follow,
    stop,
    /** Closes the answer stream. */
    dispose() {
      stream?.close();
    },
  };
}
/** The sends of a question box. */
export type AskSending = ReturnType<typeof createAskSending>;
