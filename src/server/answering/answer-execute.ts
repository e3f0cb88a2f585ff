import type { FastifyBaseLogger } from 'fastify';
import { TOOL_NAMES } from '../../contract/tools';
import type { Db } from '../db/database';
import { userLanguage } from '../i18n';
import { NOT_CONFIGURED, notConfiguredNotice, type OnlineSources } from '../online/sources';
import type { KnowledgePort } from '../retrieval/knowledge-port';
import type { ToolRegistry } from '../tools/registry';
import type { AnswerRun } from './answer-run';
import type { Finalise } from './answer-end';
import type { DeepResearch } from './deep-research';
import { AnswerError, type AnswerEngine, type AnswerSink, type NumberedPassage } from './engine';
import { channelHistory } from './channel-history';
import { searchBeforeAnswer } from './online-search';
import { sourcesOf, storedRequest } from './request';

/** Passages retrieved for one answer. */
export const PASSAGES_PER_ANSWER = 8;

/** Online search on, nothing configured for 全部 (the per-type wording: NOT_CONFIGURED in online/sources.ts). */
export const NO_WEB_SEARCH = NOT_CONFIGURED.all;
export const NO_TOOLS = '所选工具暂未提供，本次回答没有使用工具';

export interface ExecutionDeps {
  db: Db;
  log: FastifyBaseLogger;
  engine: AnswerEngine;
  tools: ToolRegistry;
  knowledge: KnowledgePort;
  online: OnlineSources;
  research: DeepResearch;
  finalise: Finalise;
}

/** The run's events as the engine's sink. */
const sinkOf = (run: AnswerRun): AnswerSink => ({
  notice: (message) => run.emit({ event: 'status', data: { status: 'running', message } }),
  thinking: (text) => text && run.emit({ event: 'thinking', data: { text } }),
  delta: (text) => text && run.emit({ event: 'delta', data: { text } }),
  toolCall: (call) => run.emit({ event: 'tool_call', data: call }),
  toolResult: (result) => run.emit({ event: 'tool_result', data: result }),
  citation: (citation) => run.emit({ event: 'citation', data: citation }),
  researchStep: (step) => run.emit({ event: 'research_step', data: step }),
});

/**
 * Writing one answer: its stored request (tools the asker may use), the passages of the chosen
 * sources, the channel's earlier turns and the online search before the answer, then the engine;
 * deep research runs as its own job. The end is written through `finalise`, also when it fails.
 */
export function answerExecution({ db, log, engine, tools, knowledge, online, research, finalise }: ExecutionDeps) {
  return async function execute(run: AnswerRun) {
    const sink = sinkOf(run);
    try {
      run.emit({ event: 'status', data: { status: 'running' } });
      const q = await db.selectFrom('questions').selectAll().where('id', '=', run.questionId).executeTakeFirstOrThrow();
      const stored = storedRequest.parse(JSON.parse(q.request));
      // SPEC §6: tools disabled for directory users are never offered to the model or run for them.
      const request = { ...stored, tools_name: tools.allowedFor(stored.tools_name, await tools.audience(q.user_id)) };
      if (request.deepresearch) {
        // A durable multi-step job of its own (deep-research.ts), resumed after a restart.
        await research.run({ questionId: q.id, userId: q.user_id, question: q.question, request }, sink, run.controller.signal);
        await run.close(() => finalise(run.questionId, { status: 'done' }).then(() => undefined));
        return;
      }
      // Tools write their refusals and notes in the language the asker reads.
      const viewer = { userId: q.user_id, lang: await userLanguage(db, q.user_id) };
      const sources = sourcesOf(request);
      const hasSources = sources.docIds.length + sources.kbIds.length + sources.kbDocIds.length > 0;
      // 联网搜索 on and nothing configured for the search type: said once, first.
      const onlineMissing = request.if_search_online ? notConfiguredNotice(online, request.search_type) : undefined;
      if (onlineMissing) sink.notice(onlineMissing);
      // Said only when the asker picked tools (not when all are on and none is usable here: GET /tools says why).
      const pickedAll = TOOL_NAMES.every((n) => request.tools_name.includes(n));
      if (request.tools_name.length && !pickedAll && !tools.select(request.tools_name).length) sink.notice(NO_TOOLS);
      const docIds = hasSources ? await knowledge.documentsOf(viewer, sources) : [];
      const passages: NumberedPassage[] = docIds.length
        ? (await knowledge.search(docIds, q.question, PASSAGES_PER_ANSWER)).map((p, i) => ({ ...p, n: i + 1 }))
        : [];
      const history = await channelHistory(db, q);
      if (run.closed) return;
      // 联网搜索: the sources of the search type, cited after the passages.
      const onlineHits = request.if_search_online && !onlineMissing
        ? await searchBeforeAnswer({ online, searchType: request.search_type, question: q.question, firstN: passages.length + 1, signal: run.controller.signal }, sink)
        : [];
      if (run.closed) return;
      await engine.answer(
        { question: q.question, history, hasSources, passages, online: onlineHits, options: request, viewer, docIds, signal: run.controller.signal, questionId: q.id },
        sink,
        tools,
      );
      await run.close(() => finalise(run.questionId, { status: 'done' }).then(() => undefined));
    } catch (err) {
      if (run.closed) return; // stopped or deleted meanwhile: whoever closed it wrote the end
      if (!(err instanceof AnswerError)) log.error({ err, questionId: run.questionId }, 'answer failed');
      const message = err instanceof AnswerError ? err.message : '回答生成失败，请稍后重试';
      await run.close(() => finalise(run.questionId, { status: 'failed', message }).then(() => undefined));
    }
  };
}
