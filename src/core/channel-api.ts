// The conversation calls of SPEC §7 (history, questions, feedback, stop, delete) and the sandbox's
// POST /code/run over an API client, every answer parsed by the contract schemas.
import { channel, deletedResult, effectResult, question, stopResult, type Channel, type Question } from '../contract/channel';
import { codeExecutionResult, type CodeExecutionResult } from '../contract/code';
import { paged } from '../contract/envelope';
import type { AnswerStreamHandlers, ApiClient, CallOptions } from './api';

const channelPage = paged(channel);
const questionPage = paged(question);

/** A page of the history: its conversations and how many there are in all. */
export interface ChannelList {
  items: Channel[];
  total: number;
}

/** Conversations per page of the history. */
export const CHANNEL_PAGE_SIZE = 20;
/** Questions read of one conversation (SPEC §7: one page of 100). */
export const QUESTION_PAGE_SIZE = 100;

/** A press of 运行 on one Python block of an answer. */
export interface CodeRunRequest {
  code: string;
  docIds: string[];
  questionId: string;
  block: number;
}

/**
 * The conversation calls bound to one API client (the page's, at the element's `api-base`). The
 * verbs a view shows its own failure for are quiet (SPEC §8 rows of their own).
 * @example const channels = createChannelApi(api()); const { items } = await channels.list({ page: 1 });
 */
export function createChannelApi(client: ApiClient) {
  const enc = encodeURIComponent;
  return {
    /** GET channel: one page of the history, newest first, optionally searched by name. */
    list: async ({ page, search = '' }: { page: number; search?: string }, signal?: AbortSignal): Promise<ChannelList> => {
      const q = new URLSearchParams({ page: String(page), size: String(CHANNEL_PAGE_SIZE) });
      if (search.trim()) q.set('search', search.trim());
      const res = await client.get(`/channel?${q.toString()}`, channelPage, { signal });
      return { items: res.items, total: res.total };
    },
    /** GET channel/questions/{id}: a conversation's questions, oldest first. */
    questions: async (channelId: string, signal?: AbortSignal): Promise<Question[]> => {
      const res = await client.get(`/channel/questions/${enc(channelId)}?page=1&size=${QUESTION_PAGE_SIZE}`, questionPage, { signal });
      return [...res.items].reverse();
    },
    rename: (channelId: string, name: string) => client.put(`/channel/${enc(channelId)}`, { name }, channel, { quiet: true }),
    remove: (channelId: string) => client.delete(`/channel/${enc(channelId)}`, deletedResult, { quiet: true }),
    /** POST channel/answer/effect: like, dislike or clear the feedback on an answer. */
    setEffect: (questionId: string, effect: 'like' | 'dislike' | 'clear') => client.post('/channel/answer/effect', { question_id: questionId, effect }, effectResult, { quiet: true }),
    stopQuestion: (questionId: string) => client.put(`/channel/stop_questions/${enc(questionId)}`, {}, stopResult, { quiet: true }),
    deleteQuestion: (questionId: string) => client.delete(`/channel/questions/${enc(questionId)}`, deletedResult, { quiet: true }),
    /** An answer's event stream from after `lastEventId` (the client's reader, resumed after a dropped connection). */
    answerEvents: (questionId: string, lastEventId: number, handlers: AnswerStreamHandlers) => client.answerEvents(questionId, lastEventId, handlers),
    /** POST code/run: one Python block of an answer in the sandbox, with up to six of the question's documents. */
    runCode: ({ code, docIds, questionId, block }: CodeRunRequest): Promise<CodeExecutionResult> =>
      client.post('/code/run', { code, doc_ids: docIds, question_id: questionId, block }, codeExecutionResult, { quiet: true }),
    /** GET code/artifacts/{id}: a file a sandbox run kept (served only to its owner). */
    codeArtifact: (artifactId: string, opts: CallOptions = {}) => client.download(`/code/artifacts/${enc(artifactId)}`, opts),
  };
}
/** The conversation calls. */
export type ChannelApi = ReturnType<typeof createChannelApi>;
