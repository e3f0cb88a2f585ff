import { removeArtifacts } from '../sandbox/artifacts';
import { sql } from 'kysely';
import type { Db, Executor } from '../db/database';
import { now } from '../db/database';
import { lockForTransaction } from '../db/dialect';
import { randomToken } from '../auth/crypto';
import { DomainError } from '../errors';
import type { Viewer } from '../access/access';
import { likePattern, pageOf } from '../knowledge/documents';
import { answerEventStore } from '../answering/events';
import type { KnowledgePort } from '../retrieval/knowledge-port';
import { sourcesOf, storedRequest, toStoredRequest } from '../answering/request';
import type { AnswerService } from '../answering/answers';
import { answerStep, citation, type AnswerEvent, type Channel, type Question, type QuestionRequest } from '../../contract/channel';
import { foldAnswerEvents, isLiveAnswer, type AnswerState } from '../../contract/answer-fold';
import type { QuestionTable } from '../db/schema';
import { z } from 'zod';
import { codeRunsOf } from '../sandbox/runs';

const CHANNEL_NOT_FOUND = '频道不存在';
/** Questions one user may have waiting; more are refused until some have been answered. */
export const MAX_QUEUED_PER_USER = 20;
const QUESTION_NOT_FOUND = '问题不存在';

const stepsJson = z.array(answerStep);
const citationsJson = z.array(citation);

type AnswerRow = Pick<QuestionTable, 'status' | 'finished_at' | 'answer' | 'thinking' | 'steps' | 'citations' | 'error'>;

/**
 * A question's answer as the history gives it. An ended answer was written on its row. One still
 * being written is folded from its events, read after the row: when they end meanwhile (the row
 * read while running, the events with the end), the end is its status, as its answer and error are.
 */
export function answerSoFar(row: AnswerRow, events: readonly AnswerEvent[] = []): Omit<AnswerState, 'lastEventId'> {
  if (row.finished_at === null) {
    const { status, answer, thinking, steps, citations, error } = foldAnswerEvents(events);
    return { status: isLiveAnswer(status) ? row.status : status, answer, thinking, steps, citations, error };
  }
  return {
    status: row.status,
    answer: row.answer ?? '',
    thinking: row.thinking ?? '',
    steps: stepsJson.parse(JSON.parse(row.steps ?? '[]')),
    citations: citationsJson.parse(JSON.parse(row.citations ?? '[]')),
    error: row.error,
  };
}

interface ListArgs {
  page: number;
  size: number;
  search?: string | undefined;
}

/**
 * The one access check for channels and questions (DESIGN §9): only their owner may see or change
 * them; anyone else gets the same 404 as for a missing id.
 */
export async function canAccessChannel(db: Executor, viewer: Viewer, channelId: string) {
  const row = await db.selectFrom('channels').selectAll().where('id', '=', channelId).executeTakeFirst();
  if (!row || row.user_id !== viewer.userId) throw new DomainError('not_found', CHANNEL_NOT_FOUND);
  return row;
}

export async function canAccessQuestion(db: Executor, viewer: Viewer, questionId: string) {
  const row = await db.selectFrom('questions').selectAll().where('id', '=', questionId).executeTakeFirst();
  if (!row || row.user_id !== viewer.userId) throw new DomainError('not_found', QUESTION_NOT_FOUND);
  return row;
}

/** Channels and their questions (SPEC §7 Channels). Knows nothing of HTTP. */
export function channelService(db: Db, knowledge: KnowledgePort, answers: AnswerService, engineName: string, dataDir?: string) {
  /** The files code runs kept with these questions: their rows go with the questions (cascade), their bytes here. */
  const runFilesOf = async (questionIds: readonly string[]) =>
    questionIds.length ? (await db.selectFrom('artifacts').select('id').where('question_id', 'in', [...questionIds]).execute()).map((r) => r.id) : [];
  const removeRunFiles = async (ids: readonly string[]) => {
    if (dataDir) await removeArtifacts(db, dataDir, ids);
  };
  const events = answerEventStore(db, answers.events);

  const channelView = async (ids: string[]): Promise<Map<string, number>> => {
    if (!ids.length) return new Map();
    const rows = await db
      .selectFrom('questions')
      .select(['channel_id', sql<number>`count(*)`.as('n')])
      .where('channel_id', 'in', ids)
      .groupBy('channel_id')
      .execute();
    return new Map(rows.map((r) => [r.channel_id, r.n]));
  };

  const toChannel = (row: { id: string; name: string; created_at: string; updated_at: string }, count: number): Channel => ({
    id: row.id,
    name: row.name,
    question_count: count,
    created_at: row.created_at,
    updated_at: row.updated_at,
  });

  return {
    /** The viewer's own channels, most recently active first. */
    async list(viewer: Viewer, args: ListArgs) {
      let q = db.selectFrom('channels').selectAll().where('user_id', '=', viewer.userId);
      if (args.search) q = q.where(sql<boolean>`lower(name) like ${likePattern(args.search)} escape '\\'`);
      const total = await q.clearSelect().select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .orderBy('updated_at', 'desc')
        .orderBy('id')
        .limit(args.size)
        .offset((args.page - 1) * args.size)
        .execute();
      const counts = await channelView(rows.map((r) => r.id));
      return pageOf(rows.map((r) => toChannel(r, counts.get(r.id) ?? 0)), total.n, args.page, args.size);
    },

    async create(viewer: Viewer, name: string) {
      const t = now();
      const row = { id: randomToken(12), user_id: viewer.userId, name, created_at: t, updated_at: t };
      await db.insertInto('channels').values(row).execute();
      return toChannel(row, 0);
    },

    async rename(viewer: Viewer, channelId: string, name: string) {
      const row = await canAccessChannel(db, viewer, channelId);
      const t = now();
      await db.updateTable('channels').set({ name, updated_at: t }).where('id', '=', channelId).execute();
      return toChannel({ ...row, name, updated_at: t }, (await channelView([channelId])).get(channelId) ?? 0);
    },

    /** Deletes a channel with its questions and their events; running answers stop first. */
    async remove(viewer: Viewer, channelId: string) {
      await canAccessChannel(db, viewer, channelId);
      const ids = (await db.selectFrom('questions').select('id').where('channel_id', '=', channelId).execute()).map((r) => r.id);
      await answers.cancel(ids);
      const files = await runFilesOf(ids);
      await db.deleteFrom('channels').where('id', '=', channelId).where('user_id', '=', viewer.userId).execute();
      answers.deleted(ids);
      await removeRunFiles(files);
      return { deleted: 1 };
    },

    /** The documents used by the channel's questions, in order of first use. */
    async documents(viewer: Viewer, channelId: string): Promise<string[]> {
      await canAccessChannel(db, viewer, channelId);
      const rows = await db.selectFrom('questions').select('request').where('channel_id', '=', channelId).orderBy('created_at').orderBy(sql`rowid`).execute();
      const out = new Set<string>();
      for (const r of rows) {
        const req = storedRequest.safeParse(JSON.parse(r.request));
        if (req.success) for (const id of [...req.data.docIdList, ...req.data.docIdListKnowledge]) out.add(id);
      }
      return [...out];
    },

    /** Stores a question (SPEC §4 step 4) and queues its answer. */
    async ask(viewer: Viewer, request: QuestionRequest) {
      await canAccessChannel(db, viewer, request.channel_id);
      const stored = toStoredRequest(request);
      await knowledge.checkSources(viewer, sourcesOf(stored));
      const id = randomToken(12);
      const t = now();
      await db.transaction().execute(async (tx) => {
        // Counted in the transaction that stores the question, under a per-user lock: questions
        // posted at once (to one node or several) never leave more than the cap waiting.
        await lockForTransaction(tx, 'questions-of-user', viewer.userId);
        const waiting = await tx
          .selectFrom('questions')
          .select(sql<number>`count(*)`.as('n'))
          .where('user_id', '=', viewer.userId)
          .where('status', '=', 'queued')
          .executeTakeFirstOrThrow();
        if (Number(waiting.n) >= MAX_QUEUED_PER_USER) throw new DomainError('too_many_queued', `排队中的问题已有${MAX_QUEUED_PER_USER}个，请等待前面的回答完成后再提问`);
        await tx
          .insertInto('questions')
          .values({
            id,
            channel_id: request.channel_id,
            user_id: viewer.userId,
            question: request.question,
            request: JSON.stringify(stored),
            engine: engineName,
            status: 'queued',
            answer: null,
            thinking: null,
            steps: null,
            citations: null,
            error: null,
            effect: null,
            effect_comment: null,
            created_at: t,
            started_at: null,
            finished_at: null,
          })
          .execute();
        await answerEventStore(tx).append(id, { event: 'status', data: { status: 'queued' } });
        await tx.updateTable('channels').set({ updated_at: t }).where('id', '=', request.channel_id).execute();
      });
      answers.enqueued();
      const row = await db.selectFrom('questions').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      return { question_id: id, channel_id: request.channel_id, status: row.status === 'queued' ? ('queued' as const) : ('running' as const) };
    },

    /** A page of the channel's questions, newest first, each with its answer so far. */
    async questions(viewer: Viewer, channelId: string, args: { page: number; size: number }) {
      await canAccessChannel(db, viewer, channelId);
      const total = await db.selectFrom('questions').select(sql<number>`count(*)`.as('n')).where('channel_id', '=', channelId).executeTakeFirstOrThrow();
      const rows = await db
        .selectFrom('questions')
        .selectAll()
        .where('channel_id', '=', channelId)
        .orderBy('created_at', 'desc')
        .orderBy(sql`rowid`, 'desc')
        .limit(args.size)
        .offset((args.page - 1) * args.size)
        .execute();
      const ids = rows.map((r) => r.id);
      const lastIds = await events.lastIds(ids);
      // Answers still being written are folded from their events; ended ones were written on the row.
      // A running answer's last_event_id is that of the last event folded (read after lastIds, so an
      // event written in between is in the answer and not sent again after the id).
      const live = await events.ofQuestions(rows.filter((r) => r.finished_at === null).map((r) => r.id));
      const codeRuns = await codeRunsOf(db, ids);
      const items: Question[] = rows.map((r) => {
        const req = storedRequest.parse(JSON.parse(r.request));
        return {
          question_id: r.id,
          channel_id: r.channel_id,
          question: r.question,
          ...answerSoFar(r, live.get(r.id)),
          effect: r.effect,
          effect_comment: r.effect_comment,
          docIdList: req.docIdList,
          docIdListKnowledge: req.docIdListKnowledge,
          kb_ids: [...new Set([...req.kb_ids, ...req.knowledgeCSAIDefault])],
          if_search_online: req.if_search_online,
          search_type: req.search_type,
          if_thinking: req.if_thinking,
          deepresearch: req.deepresearch,
          tools_name: req.tools_name,
          engine: r.engine,
          last_event_id: (r.finished_at === null ? live.get(r.id)?.at(-1)?.id : undefined) ?? lastIds.get(r.id) ?? 0,
          created_at: r.created_at,
          finished_at: r.finished_at,
          code_runs: codeRuns.get(r.id) ?? [],
        };
      });
      return pageOf(items, total.n, args.page, args.size);
    },

    async removeQuestion(viewer: Viewer, questionId: string) {
      await canAccessQuestion(db, viewer, questionId);
      await answers.cancel([questionId]);
      const files = await runFilesOf([questionId]);
      await db.deleteFrom('questions').where('id', '=', questionId).where('user_id', '=', viewer.userId).execute();
      answers.deleted([questionId]);
      await removeRunFiles(files);
      return { deleted: 1 };
    },

    async stop(viewer: Viewer, questionId: string) {
      await canAccessQuestion(db, viewer, questionId);
      await answers.stop(questionId);
      const row = await db.selectFrom('questions').select('status').where('id', '=', questionId).executeTakeFirst();
      if (!row) throw new DomainError('not_found', QUESTION_NOT_FOUND);
      return { question_id: questionId, status: row.status };
    },

    async setEffect(viewer: Viewer, questionId: string, effect: 'like' | 'dislike' | 'clear', comment: string | undefined) {
      await canAccessQuestion(db, viewer, questionId);
      const value = effect === 'clear' ? null : effect;
      const text = value && comment ? comment : null;
      await db.updateTable('questions').set({ effect: value, effect_comment: text }).where('id', '=', questionId).execute();
      return { question_id: questionId, effect: value, effect_comment: text };
    },
  };
}

export type ChannelService = ReturnType<typeof channelService>;
