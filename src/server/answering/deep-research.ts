import type { ResearchStep } from '../../contract/channel';
import type { Db } from '../db/database';
import { citationTracker, type AnswerEngine, type AnswerSink } from './engine';
import { kindsOf, type OnlineKind, type OnlineSources } from '../online/sources';
import type { ReadPage } from './online-search';
import type { ChatMessage } from '../llm/chat';
import { answerEventStore, type LiveEvents } from './events';
import { NO_MODEL_NO_SOURCES } from './local-engine';
import { sourcesOf, type StoredRequest } from './request';
import { citationGuard, removedCitationsNotice } from './citation-check';
import { enumerationOf, itemOf, withEnumeration } from './enumeration';
import type { KnowledgePort } from '../retrieval/knowledge-port';
import {
  findingsDigest,
  FOLLOW_UP_PROMPT,
  MAX_FOLLOW_UP_ROUNDS,
  MAX_RESEARCH_QUESTIONS,
  MAX_SUB_QUESTIONS,
  parseFollowUps,
  parseModelPlan,
  PLAN_FALLBACK,
  PLANNER_PROMPT,
  planHeuristically,
  SUB_QUESTION_LENGTH,
} from './research-plan';
import { readFindings } from './research-read';
import { CONTINUE_REPORT, localReport, reportPrompt } from './research-report';
import { searchAndRead, searchDocuments } from './research-search';
import { researchStore, type Finding, type ResearchPlan, type ResearchState } from './research-state';
import { cut } from './research-text';
import { channelHistory } from './channel-history';

/** The characters of each earlier answer given to the model. */
const HISTORY_ANSWER_CHARS = 4000;
/** Follow-up rounds stop once the run has used this share of its time budget (the rest is the report's). */
const READING_SHARE = 0.6;

export const WEB_NOT_CONFIGURED = '未配置联网搜索服务，本次深度研究只检索所选的文件和知识库';
/** The same for a search type of one source (网页/文献/专利). */
export const SOURCE_NOT_CONFIGURED: Record<OnlineKind, string> = {
  web: '未配置网页搜索服务，本次深度研究只检索所选的文件和知识库',
  literature: '未配置文献检索服务，本次深度研究只检索所选的文件和知识库',
  patents: '未配置专利检索服务，本次深度研究只检索所选的文件和知识库',
};
export const NO_SOURCES_SEARCH = '没有选择文件或知识库，跳过文档检索';

/** A deep-research answer to run: its question row and stored request. */
export interface ResearchJob {
  questionId: string;
  userId: string;
  question: string;
  request: StoredRequest;
}

const stepKey = (s: Pick<ResearchStep, 'step' | 'index'>) => `${s.step}:${s.index ?? 0}`;

/**
 * Deep research (DESIGN §4) as a durable job: plan → search every sub-question in the chosen files
 * or knowledge bases → read (keep and deduplicate the best passages) → write a cited report. The
 * state is saved in `research_runs` after each step (research-state.ts); a run started again for
 * the same question (after a restart) continues after its last finished step. Research steps
 * already stored are not sent again, and a report cut off mid-way is continued from what was
 * stored. This module runs the steps; planning (research-plan.ts), searching (research-search.ts),
 * reading (research-read.ts) and writing (research-report.ts) are modules of their own.
 */
export function deepResearch({
  db,
  engine,
  knowledge,
  live,
  online = {},
  readPage,
  budgetMs = 15 * 60_000,
}: {
  db: Db;
  engine: AnswerEngine;
  /** The time a run may take (SPEC: about 10–20 minutes shown to users); follow-up rounds stop at READING_SHARE of it. */
  budgetMs?: number;
  knowledge: KnowledgePort;
  live?: LiveEvents;
  /** The configured online sources, searched per sub-question when 联网搜索 is on. */
  online?: OnlineSources;
  /** Reads a page in full (page crawl); without it the snippets stand for the pages. */
  readPage?: ReadPage;
}) {
  const store = researchStore(db);

  /** Earlier questions of the channel with their answers, oldest first, as chat messages. */
  async function history(questionId: string): Promise<ChatMessage[]> {
    const q = await db.selectFrom('questions').select(['id', 'channel_id', 'created_at']).where('id', '=', questionId).executeTakeFirst();
    if (!q) return [];
    const rows = await channelHistory(db, q);
    return rows.reverse().flatMap((h): ChatMessage[] => [
      { role: 'user', content: h.question },
      { role: 'assistant', content: cut(h.answer, HISTORY_ANSWER_CHARS) },
    ]);
  }

  return {
    async run(job: ResearchJob, sink: AnswerSink, signal: AbortSignal): Promise<void> {
      const stopped = () => {
        if (signal.aborted) throw new Error('stopped');
      };
      const stored = await answerEventStore(db, live).after(job.questionId);
      const sent = new Set(stored.flatMap((e) => (e.event === 'research_step' ? [stepKey(e.data)] : [])));
      const step = (s: ResearchStep) => {
        if (sent.has(stepKey(s))) return;
        sent.add(stepKey(s));
        sink.researchStep(s);
      };
      const { request } = job;
      const thinking = (text: string) => request.if_thinking && sink.thinking(text);

      const loaded = await store.load(job.questionId);
      let state: ResearchState;
      if (loaded) {
        state = { ...loaded, resumes: loaded.resumes + 1 };
        await store.save(job.questionId, state);
        const next = { none: '拆解问题', plan: '检索', search: '阅读与筛选', read: '撰写报告', write: '完成' }[state.completed];
        step({ step: 'resume', index: state.resumes, title: '服务重启后继续研究', detail: `从“${next}”继续，已完成的步骤不再重复` });
      } else {
        state = { completed: 'none', plan: null, findings: [], resumes: 0 };
        await store.save(job.questionId, state);
      }

      const sources = sourcesOf(request);
      const hasSources = sources.docIds.length + sources.kbIds.length + sources.kbDocIds.length > 0;
      const docIds = hasSources ? await knowledge.documentsOf({ userId: job.userId }, sources) : [];
      const earlier = engine.chat ? await history(job.questionId) : [];
      stopped();

      // 1. Plan.
      if (!state.plan) {
        let plan: ResearchPlan;
        if (engine.chat) {
          const text = await engine.chat(
            { messages: [{ role: 'system', content: PLANNER_PROMPT }, ...earlier, { role: 'user', content: job.question }], thinking: request.if_thinking, signal },
            { reasoning: thinking },
          );
          const questions = parseModelPlan(text);
          plan = questions ? { questions, note: null, rounds: 0 } : { questions: [cut(job.question, SUB_QUESTION_LENGTH)], note: PLAN_FALLBACK, rounds: 0 };
        } else {
          plan = { questions: planHeuristically(job.question), note: null, rounds: 0 };
        }
        // A list in the question ("A、B 和 C 的…", "compare A, B and C") is searched item by item.
        plan = { ...plan, questions: withEnumeration(job.question, plan.questions, MAX_SUB_QUESTIONS).map((q) => cut(q, SUB_QUESTION_LENGTH)), startedAt: Date.now() };
        stopped();
        state = { ...state, plan, completed: 'plan' };
        await store.save(job.questionId, state);
      }
      const firstPlan = state.plan!.questions;
      step({
        step: 'plan',
        title: '拆解问题',
        detail: state.plan!.note ?? `拆解为 ${firstPlan.length} 个子问题`,
        plan: firstPlan,
        progress: { current: 1, total: firstPlan.length + 3 },
      });
      // 联网搜索: the sources of the search type, or said once that none is configured.
      const kinds = kindsOf(request.search_type);
      const searchesOnline = request.if_search_online && kinds.some((k) => online[k]);
      if (request.if_search_online && !searchesOnline) step({ step: 'web', title: '联网搜索', detail: kinds.length === 1 ? SOURCE_NOT_CONFIGURED[kinds[0]!] : WEB_NOT_CONFIGURED });

      // 2. Search each sub-question (documents, then online, then read the best pages); each
      // sub-question's finding is saved before the next, so a restart never repeats a search.
      let pagesRead = 0;
      // A sub-question about one item of the question's list is searched for that item alone too (research-search.ts).
      const items = enumerationOf(job.question)?.items ?? [];
      const searchPlan = async () => {
        const plan = state.plan!.questions;
        const total = plan.length + 3;
        for (const [i, question] of plan.entries()) {
          if (i >= state.findings.length) {
            stopped();
            const found = docIds.length ? await searchDocuments(knowledge, docIds, question, itemOf(items, question)) : [];
            stopped();
            const onlineFound = searchesOnline ? await searchAndRead({ online, readPage }, question, request.search_type, signal) : null;
            stopped();
            const findings: Finding[] = [...state.findings, { passages: found, online: onlineFound }];
            state = { ...state, findings, completed: findings.length === plan.length ? 'search' : 'plan' };
            await store.save(job.questionId, state);
          }
          const finding = state.findings[i]!;
          const count = finding.passages.length;
          step({
            step: 'search',
            index: i + 1,
            title: `检索子问题 ${i + 1}/${plan.length}`,
            detail: `${cut(question, 80)} —— ${hasSources ? `找到 ${count} 个相关段落` : NO_SOURCES_SEARCH}`,
            progress: { current: i + 2, total },
          });
          const o = finding.online;
          if (o) {
            const found = o.hits.length ? `找到 ${o.hits.length} 条结果` : o.failures.length ? '没有结果' : '没有找到结果';
            step({ step: 'web', index: i + 1, title: `联网搜索子问题 ${i + 1}/${plan.length}`, detail: `${cut(question, 80)} —— ${found}${o.failures.length ? `（${o.failures.join('；')}）` : ''}` });
            for (const h of o.hits) {
              const page = o.pages[h.url];
              const unread = o.unread[h.url];
              if (!page && !unread) continue;
              pagesRead++;
              step({ step: 'read_page', index: pagesRead, title: page ? '阅读网页' : '网页未能读取', detail: `${cut(page?.title || h.title, 80)}（${h.site}）${unread ? `：${cut(unread, 120)}，改用搜索摘要` : ''}` });
            }
          }
        }
      };
      await searchPlan();

      // 2b. With a model: follow-up rounds. The model reads what was found and names what is still
      // missing; those sub-questions are searched the same way. The round and its sub-questions are
      // saved together, so a restart neither asks again nor loses them.
      const startedAt = state.plan!.startedAt ?? Date.now();
      while (
        engine.chat &&
        (docIds.length > 0 || searchesOnline) &&
        (state.completed === 'plan' || state.completed === 'search') &&
        state.plan!.rounds < MAX_FOLLOW_UP_ROUNDS &&
        state.plan!.questions.length < MAX_RESEARCH_QUESTIONS &&
        Date.now() - startedAt < budgetMs * READING_SHARE
      ) {
        const round = state.plan!.rounds + 1;
        stopped();
        const text = await engine.chat(
          { messages: [{ role: 'system', content: FOLLOW_UP_PROMPT }, { role: 'user', content: findingsDigest(job.question, state.plan!.questions, state.findings) }], thinking: request.if_thinking, signal },
          { reasoning: thinking },
        );
        stopped();
        const room = MAX_RESEARCH_QUESTIONS - state.plan!.questions.length;
        const more = (parseFollowUps(text, state.plan!.questions) ?? []).slice(0, room);
        // No follow-up (enough found, or an answer that is not the JSON asked for) ends the rounds.
        const rounds = more.length ? round : MAX_FOLLOW_UP_ROUNDS;
        state = { ...state, plan: { ...state.plan!, questions: [...state.plan!.questions, ...more], rounds }, completed: more.length ? 'plan' : state.completed };
        await store.save(job.questionId, state);
        step({
          step: 'follow_up',
          index: round,
          title: `补充检索（第 ${round} 轮）`,
          detail: more.length ? `根据已读到的资料追加 ${more.length} 个子问题` : '已读到的资料足以回答，不再追加子问题',
          ...(more.length ? { plan: more } : {}),
        });
        if (more.length) await searchPlan();
      }
      const plan = state.plan!.questions;
      const total = plan.length + 3;

      // 3. Read: keep and deduplicate the best passages (deterministic, so a resumed run gets the same numbers).
      const sections = readFindings(plan, state.findings, { needOverlap: !engine.chat });
      const numbered = sections.flatMap((s) => s.passages);
      const onlineCited = sections.flatMap((s) => s.online);
      if (state.completed === 'search') {
        stopped();
        state = { ...state, completed: 'read' };
        await store.save(job.questionId, state);
      }
      const docCount = new Set(numbered.map((p) => p.docId)).size;
      const onlineNote = onlineCited.length ? `，另有 ${onlineCited.length} 条联网搜索结果` : '';
      step({ step: 'read', title: '阅读与筛选', detail: `去重后保留 ${numbered.length} 个段落，来自 ${docCount} 篇文档${onlineNote}`, progress: { current: total - 1, total } });

      // 4. Write the report (continuing what a previous run already wrote).
      step({ step: 'write', title: '撰写报告', detail: `引言、${plan.length} 个子问题各一节、结论，引用 ${numbered.length} 个段落${onlineNote}`, progress: { current: total, total } });
      if (state.completed === 'write') return;
      const written = stored.flatMap((e) => (e.event === 'delta' ? [e.data.text] : [])).join('');
      const citedBefore = new Set(stored.flatMap((e) => (e.event === 'citation' ? [e.data.n] : [])));
      const tracker = citationTracker([...numbered, ...onlineCited], { citation: (c) => citedBefore.has(c.n) || sink.citation(c) });
      tracker.push(written);
      const emit = (text: string) => {
        if (!text) return;
        sink.delta(text);
        tracker.push(text);
      };
      stopped();
      if (engine.chat) {
        // The model's [n] are checked against their passages before they are shown (citation-check.ts).
        const guard = citationGuard([...numbered, ...onlineCited], emit);
        guard.seed(written);
        const messages: ChatMessage[] = [
          { role: 'system', content: reportPrompt(sections, hasSources) },
          ...earlier,
          { role: 'user', content: `研究问题：${job.question}\n\n子问题：\n${plan.map((q, i) => `${i + 1}. ${q}`).join('\n')}` },
        ];
        if (written) messages.push({ role: 'assistant', content: written }, { role: 'user', content: CONTINUE_REPORT });
        await engine.chat({ messages, thinking: request.if_thinking, signal }, { content: (text) => guard.push(text), reasoning: thinking });
        const removed = guard.end();
        if (removed.length) sink.notice(removedCitationsNotice(removed));
      } else {
        const report = hasSources || onlineCited.length
          ? localReport(job.question, sections, docIds.length)
          : [NO_MODEL_NO_SOURCES, '', '深度研究需要资料来源：请在输入框的“文件”或“知识库”标签中选择文档后再提问。'].join('\n');
        // A report cut off by a restart is continued where the stored text ends (it is the same report).
        const rest = report.startsWith(written) ? report.slice(written.length) : `${written ? '\n\n' : ''}${report}`;
        for (const line of rest.split(/(?<=\n)/)) emit(line);
      }
      stopped();
      await store.save(job.questionId, { ...state, completed: 'write' });
    },
  };
}

export type DeepResearch = ReturnType<typeof deepResearch>;
