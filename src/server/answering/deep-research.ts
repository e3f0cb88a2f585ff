import { engineOf, jsonTrue } from '../db/dialect';
import { z } from 'zod';
import type { ResearchStep } from '../../contract/channel';
import type { Db } from '../db/database';
import { now } from '../db/database';
import { citationTracker, type AnswerEngine, type AnswerSink, type NumberedHit, type NumberedPassage } from './engine';
import { kindsOf, normalizeUrl, searchOnline, type OnlineKind, type OnlineSources } from '../online/sources';
import type { ReadPage } from './online-search';
import type { ChatMessage } from '../llm/chat';
import { answerEventStore, type LiveEvents } from './events';
import { tokens } from '../text/segment';
import { NO_MODEL_LINE, NO_MODEL_NO_SOURCES, asQuoteText, hitQuoteLines, titleText, overlap, quoteOf, subjectTokens } from './local-engine';
import { sourcesOf, type StoredRequest } from './request';
import { citationGuard, removedCitationsNotice } from './citation-check';
import { enumerationOf, itemOf, withEnumeration } from './enumeration';
import type { KnowledgePort, RetrievedPassage } from '../retrieval/knowledge-port';

/** Sub-questions a plan holds at most (the local planner adds the whole question after them). */
export const MAX_SUB_QUESTIONS = 5;
/** A sub-question is cut to this many characters (it is a search query and a section title). */
const SUB_QUESTION_LENGTH = 300;
/** Passages retrieved per sub-question, and kept per sub-question after reading. */
const PASSAGES_PER_SEARCH = 8;
const KEEP_PER_SUB_QUESTION = 4;
/** Passages weaker than this share of the best one of their search are not kept. */
const MIN_RELATIVE_SCORE = 0.25;
/** Characters of one passage given to the model. */
const PROMPT_PASSAGE_CHARS = 1500;
/** Earlier turns of the channel given to the model, and the characters of each earlier answer. */
const HISTORY_TURNS = 4;
const HISTORY_ANSWER_CHARS = 4000;

export const WEB_NOT_CONFIGURED = '未配置联网搜索服务，本次深度研究只检索所选的文件和知识库';
/** The same for a search type of one source (网页/文献/专利). */
export const SOURCE_NOT_CONFIGURED: Record<OnlineKind, string> = {
  web: '未配置网页搜索服务，本次深度研究只检索所选的文件和知识库',
  literature: '未配置文献检索服务，本次深度研究只检索所选的文件和知识库',
  patents: '未配置专利检索服务，本次深度研究只检索所选的文件和知识库',
};
/** Online results searched per sub-question, and kept per sub-question after reading. */
const ONLINE_PER_SEARCH = 5;
const KEEP_ONLINE_PER_SUB_QUESTION = 3;
/** Pages read in full (through the page reader) per sub-question, and characters kept of each. */
const PAGES_PER_SUB_QUESTION = 2;
const PAGE_CHARS = 6000;
/**
 * With a model, research reads in rounds: after each round's searches the model names what is
 * still missing as follow-up sub-questions, which are searched in turn. At most this many rounds,
 * this many sub-questions in all, and only while the run has used less than READING_SHARE of its
 * time budget (the rest is the report's).
 */
export const MAX_FOLLOW_UP_ROUNDS = 3;
export const MAX_RESEARCH_QUESTIONS = 12;
const FOLLOW_UPS_PER_ROUND = 3;
const READING_SHARE = 0.6;
/** Characters of each passage or result shown to the model when it looks for what is missing. */
const FOLLOW_UP_EXCERPT = 160;
export const PLAN_FALLBACK = '模型给出的研究计划无法解析，改为直接研究原问题';
export const NO_SOURCES_SEARCH = '没有选择文件或知识库，跳过文档检索';
export const NOTHING_FOR_SUB_QUESTION = '在所选文档中没有找到与这个子问题相关的段落。';
export const CONTINUE_REPORT = '报告在上面中断了（服务重启）。请从中断处直接接着写完，不要重复已经写出的内容，也不要加任何说明。';

type Completed = 'none' | 'plan' | 'search' | 'read' | 'write';

const passageSchema = z.object({
  docId: z.string(),
  title: z.string(),
  page: z.number().int().nullable(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  text: z.string(),
  score: z.number(),
});
/**
 * The plan as saved: its sub-questions (follow-ups appended), the follow-up rounds done, and when
 * the run started (ms since the epoch; the budget counts from it across restarts).
 */
const planColumn = z.object({
  questions: z.array(z.string()).min(1),
  note: z.string().nullable(),
  rounds: z.number().int().min(0).default(0),
  startedAt: z.number().optional(),
});
const onlineHitStored = z.object({ url: z.string(), title: z.string(), site: z.string(), snippet: z.string(), kind: z.enum(['web', 'literature', 'patent']) });
/** The online search of one sub-question as saved: its hits, the sources that failed, when, and the pages read. */
const onlineFinding = z.object({
  hits: z.array(onlineHitStored),
  failures: z.array(z.string()),
  fetchedAt: z.string(),
  /** Pages read in full, by URL: their title and the start of their text (markdown). */
  pages: z.record(z.string(), z.object({ title: z.string(), text: z.string() })),
  /** Pages that could not be read, by URL, with why. */
  unread: z.record(z.string(), z.string()).default({}),
});
export type OnlineFinding = z.infer<typeof onlineFinding>;
/** One sub-question's finding: the passages (the old form: the passages alone) and its online search. */
const findingSchema = z.union([
  z.array(passageSchema).transform((passages) => ({ passages, online: null })),
  z.object({ passages: z.array(passageSchema), online: onlineFinding.nullable() }),
]);
const findingsColumn = z.array(findingSchema);
export interface Finding {
  passages: RetrievedPassage[];
  online: OnlineFinding | null;
}

/** What a deep-research run has finished so far (the `research_runs` row). */
export interface ResearchState {
  completed: Completed;
  plan: z.infer<typeof planColumn> | null;
  /** What each searched sub-question found, in plan order (a saved search is never made again). */
  findings: Finding[];
  resumes: number;
}

/** One section of the report: a sub-question with the passages kept for it, numbered as cited. */
export interface ResearchSection {
  question: string;
  passages: NumberedPassage[];
  /** Online results kept for it, numbered after its passages; `page` the text of a page read in full. */
  online: Array<NumberedHit & { page?: string }>;
}

const cut = (text: string, max: number) => {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : chars.join('');
};

const LEADING_CONJUNCTION = /^(?:以及|并且|而且|还有|另外|此外|同时|那么|并|且|和|与|及|or|and|also|then|as well as)\s*/i;
const TRAILING_PARTICLE = /[吗呢呀吧]$/;
/** Clause ends: question marks and sentence ends, semicolons, commas, line breaks. */
const CLAUSE_END = /[？?。！!；;，,\n]+|\.\s+/;
/** Conjunctions between clauses (Chinese multi-character ones, English words). */
const CONJUNCTION = /\s*(?:以及|并且|而且|还有|另外|此外|同时)\s*|\s+(?:and|as well as|also|then|while)\s+/i;

/**
 * The local planner (no model): the question split on clause and conjunction boundaries and
 * question marks, pieces that name a subject (two words or more) kept, then the whole question
 * (only the whole question when fewer than two pieces remain).
 */
export function planHeuristically(question: string): string[] {
  const whole = cut(question, SUB_QUESTION_LENGTH);
  const pieces: string[] = [];
  const seen = new Set<string>();
  // Pieces past the first few are never used: stop there (a question may hold 20,000 characters).
  outer: for (const clause of question.split(CLAUSE_END)) {
    for (const raw of clause.split(CONJUNCTION)) {
      if (pieces.length > MAX_SUB_QUESTIONS) break outer;
      let piece = cut(raw, SUB_QUESTION_LENGTH);
      for (let i = 0; i < 3 && LEADING_CONJUNCTION.test(piece); i++) piece = piece.replace(LEADING_CONJUNCTION, '').trim();
      piece = piece.replace(TRAILING_PARTICLE, '').trim();
      if (subjectTokens(piece).size < 2) continue;
      const key = piece.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      pieces.push(piece);
    }
  }
  const norm = (s: string) => s.replace(/[\s？?。！!；;，,.]+/g, '').toLowerCase();
  const distinct = pieces.filter((p) => norm(p) !== norm(whole)).slice(0, MAX_SUB_QUESTIONS);
  // One clause with a subject is the question itself: nothing to split.
  return distinct.length >= 2 ? [...distinct, whole] : [whole];
}

/** The planner's answer as the model should give it: {"sub_questions": [...]} (a bare array is accepted too). */
const modelPlan = z.union([z.object({ sub_questions: z.array(z.string()) }).loose(), z.array(z.string())]);

/** The JSON in a model's answer (its thinking and code fences aside), or undefined when there is none. */
function jsonIn(text: string): unknown {
  const cleaned = text.replace(/<think>[\s\S]*?<\/think>/g, '').replace(/```(?:json)?/gi, '');
  const start = cleaned.search(/[[{]/);
  if (start < 0) return undefined;
  const end = Math.max(cleaned.lastIndexOf('}'), cleaned.lastIndexOf(']'));
  try {
    return JSON.parse(cleaned.slice(start, end + 1));
  } catch {
    return undefined;
  }
}

/** The sub-questions in a model's planning answer, or null when it is not the JSON asked for. */
export function parseModelPlan(text: string): string[] | null {
  const parsed = modelPlan.safeParse(jsonIn(text));
  if (!parsed.success) return null;
  const list = Array.isArray(parsed.data) ? parsed.data : parsed.data.sub_questions;
  const out: string[] = [];
  for (const q of list) {
    const s = cut(q, SUB_QUESTION_LENGTH);
    if (s && !out.includes(s)) out.push(s);
  }
  return out.length ? out.slice(0, MAX_SUB_QUESTIONS) : null;
}

export const PLANNER_PROMPT = [
  '你是研究规划助手。把用户的研究问题拆解为 2 到 5 个可以分别在文献中检索的子问题，覆盖问题的各个方面，使用提问者所用的语言。',
  '只输出 JSON，格式为 {"sub_questions": ["子问题1", "子问题2"]}，不要输出其他任何内容。',
].join('\n');

export const FOLLOW_UP_PROMPT = [
  '你是研究助手。下面是一个研究问题、已经检索过的子问题，以及每个子问题找到的资料摘要。',
  `判断还缺少哪些方面的资料才能全面回答研究问题，给出最多 ${FOLLOW_UPS_PER_ROUND} 个新的、可以在文献中检索的补充子问题（不要重复已有的子问题），使用提问者所用的语言；资料已经足够时给出空列表。`,
  '只输出 JSON，格式为 {"follow_ups": ["补充子问题1"]}，不要输出其他任何内容。',
].join('\n');

const modelFollowUps = z.union([z.object({ follow_ups: z.array(z.string()) }).loose(), z.array(z.string())]);

/** The follow-up sub-questions in a model's answer (new ones only), or null when it is not the JSON asked for. */
export function parseFollowUps(text: string, known: readonly string[]): string[] | null {
  const parsed = modelFollowUps.safeParse(jsonIn(text));
  if (!parsed.success) return null;
  const norm = (q: string) => q.replace(/[\s？?。！!；;，,.]+/g, '').toLowerCase();
  const seen = new Set(known.map(norm));
  const out: string[] = [];
  for (const q of Array.isArray(parsed.data) ? parsed.data : parsed.data.follow_ups) {
    const s = cut(q, SUB_QUESTION_LENGTH);
    if (!s || seen.has(norm(s))) continue;
    seen.add(norm(s));
    out.push(s);
  }
  return out.slice(0, FOLLOW_UPS_PER_ROUND);
}

/** What the model is shown of the findings when it looks for what is missing: per sub-question, short excerpts. */
function findingsDigest(question: string, plan: readonly string[], findings: readonly Finding[]): string {
  const parts = plan.map((q, i) => {
    const f = findings[i];
    const lines = [
      ...(f?.passages ?? []).slice(0, KEEP_PER_SUB_QUESTION).map((p) => `- 《${p.title}》${p.page ? ` 第${p.page}页` : ''}：${cut(p.text, FOLLOW_UP_EXCERPT)}`),
      ...(f?.online?.hits ?? []).slice(0, KEEP_ONLINE_PER_SUB_QUESTION).map((h) => `- ${h.title}（${h.site}）：${cut(h.snippet, FOLLOW_UP_EXCERPT)}`),
    ];
    return `子问题 ${i + 1}：${q}\n${lines.length ? lines.join('\n') : '（没有找到资料）'}`;
  });
  return `研究问题：${question}\n\n${parts.join('\n\n')}`;
}

/**
 * The words a passage must share with a sub-question to be quoted without a model: the subject
 * words as segmented, not the character pairs (a pair like 的用 matches unrelated text) nor the
 * words linking clauses.
 */
const LINK_WORDS = new Set(['以及', '并且', '而且', '还有', '另外', '此外', '同时', '分别', 'as', 'well', 'also', 'then', 'while']);
function sectionWords(question: string): Set<string> {
  const subject = subjectTokens(question);
  const words = tokens(question, { bigrams: false }).filter((t) => subject.has(t) && !LINK_WORDS.has(t));
  return words.length ? new Set(words) : subject;
}

const passageKey = (p: RetrievedPassage) => `${p.docId}\u0000${p.page ?? ''}\u0000${p.text}`;

/**
 * The passages of a sub-question about one item of the question's list, from its own search and a
 * search for the item alone: those about the item (found by its search, or naming it), each scored
 * by its share of the best score in each search it is in (so a passage both found comes first);
 * the sub-question's other passages are about another item, or none, and are left out.
 */
export function aboutItem(item: string, asked: RetrievedPassage[], named: RetrievedPassage[]): RetrievedPassage[] {
  const shares = (list: RetrievedPassage[]) => {
    const top = Math.max(...list.map((p) => p.score), 1e-9);
    return new Map(list.map((p) => [passageKey(p), p.score / top]));
  };
  const [byQuestion, byItem] = [shares(asked), shares(named)];
  const name = item.toLowerCase();
  const out = new Map<string, RetrievedPassage>();
  for (const p of [...named, ...asked]) {
    const key = passageKey(p);
    if (out.has(key) || (!byItem.has(key) && !p.text.toLowerCase().includes(name))) continue;
    out.set(key, { ...p, score: (byQuestion.get(key) ?? 0) + (byItem.get(key) ?? 0) });
  }
  return [...out.values()].sort((a, b) => b.score - a.score);
}

/**
 * The read step: per sub-question the strongest passages (none far weaker than the best; for the
 * local engine, which cannot judge them, only ones sharing a word with the sub-question), each passage under the first
 * sub-question that found it, grouped by document, numbered in the order the report shows them.
 */
export function readFindings(plan: string[], findings: ReadonlyArray<Finding | RetrievedPassage[]>, { needOverlap }: { needOverlap: boolean }): ResearchSection[] {
  const taken = new Set<string>();
  const takenUrls = new Set<string>();
  let n = 0;
  return plan.map((question, i) => {
    const entry = findings[i];
    const finding: Finding = Array.isArray(entry) ? { passages: entry, online: null } : (entry ?? { passages: [], online: null });
    const found = [...finding.passages].sort((a, b) => b.score - a.score);
    const best = found[0]?.score ?? 0;
    const words = sectionWords(question);
    const kept: RetrievedPassage[] = [];
    for (const [k, p] of found.entries()) {
      if (kept.length >= KEEP_PER_SUB_QUESTION) break;
      if (k > 0 && p.score < best * MIN_RELATIVE_SCORE) continue;
      if (needOverlap && overlap(p.text, words) === 0) continue;
      if (taken.has(passageKey(p))) continue;
      taken.add(passageKey(p));
      kept.push(p);
    }
    const byDoc = new Map<string, RetrievedPassage[]>();
    for (const p of kept) byDoc.set(p.docId, [...(byDoc.get(p.docId) ?? []), p]);
    const passages = [...byDoc.values()].flat().map((p) => ({ ...p, n: ++n }));
    // Online results in the order found, each URL once in the whole report.
    const online: ResearchSection['online'] = [];
    for (const h of finding.online?.hits ?? []) {
      if (online.length >= KEEP_ONLINE_PER_SUB_QUESTION) break;
      const key = normalizeUrl(h.url);
      if (takenUrls.has(key)) continue;
      takenUrls.add(key);
      const page = finding.online?.pages[h.url];
      online.push({ ...h, n: ++n, fetchedAt: finding.online!.fetchedAt, ...(page ? { page: page.text } : {}) });
    }
    return { question, passages, online };
  });
}

/** The local engine's report: the quoted passages per sub-question, with an introduction and a conclusion. */
export function localReport(question: string, sections: ResearchSection[], docCount: number): string {
  const cited = sections.reduce((sum, s) => sum + s.passages.length, 0);
  const citedOnline = sections.reduce((sum, s) => sum + s.online.length, 0);
  const lines = [
    NO_MODEL_LINE,
    '',
    `## 深度研究报告：${asQuoteText(cut(question, 80))}`,
    '',
    '### 引言',
    `本报告把问题拆解为 ${sections.length} 个子问题，在所选的 ${docCount} 篇文档中逐一检索，去重后摘录 ${cited} 个段落${citedOnline ? `，并引用 ${citedOnline} 条联网搜索结果` : ''}。各节按子问题列出原文要点并标注出处，点击引用可以打开原文并定位到对应页面。`,
    '',
  ];
  sections.forEach((s, i) => {
    lines.push(`### ${i + 1}. ${asQuoteText(s.question)}`);
    if (!s.passages.length && !s.online.length) lines.push(NOTHING_FOR_SUB_QUESTION);
    const words = subjectTokens(s.question);
    let doc = '';
    for (const p of s.passages) {
      if (p.docId !== doc) {
        doc = p.docId;
        lines.push(`**《${titleText(p.title)}》**`);
      }
      lines.push(`- ${p.page ? `第${p.page}页：` : ''}“${quoteOf(p.text, words)}” [${p.n}]`);
    }
    // Online results: the snippet (or the page read in full) quoted where it meets the sub-question.
    if (s.online.length) lines.push(...hitQuoteLines(s.online.map((h) => (h.page ? { ...h, snippet: h.page } : h)), words).slice(0, -1));
    lines.push('');
  });
  lines.push('### 结论');
  const answered = sections.filter((s) => s.passages.length || s.online.length);
  if (!answered.length) lines.push('在所选文档中没有找到与这些子问题相关的段落，可以换个说法或选择其他文档再试。');
  for (const s of answered) {
    const p = s.passages[0];
    const h = s.online[0];
    const source = p ? `《${titleText(p.title)}》${p.page ? `第${p.page}页` : ''} [${p.n}]` : `${titleText(h!.site)}《${titleText(h!.title)}》 [${h!.n}]`;
    lines.push(`- ${asQuoteText(cut(s.question, 60))}：主要依据${source}。`);
  }
  lines.push('', '以上均为原文摘录，未经模型归纳，请结合原文判断。');
  return lines.join('\n');
}

/** The writer's system prompt: the report's structure and the passages, numbered, per sub-question. */
export function reportPrompt(sections: ResearchSection[], hasSources: boolean): string {
  const lines = [
    '你是 CSAI，一名面向药物研发与化学研究的助手，现在撰写一份深度研究报告。',
    '始终使用提问者所用的语言撰写。使用 Markdown：一级标题为报告题目；“引言”一节概述问题与研究思路；每个子问题一节，以子问题为小标题；最后“结论”一节综合回答原问题。',
  ];
  const any = sections.some((s) => s.passages.length || s.online.length);
  if (any) {
    lines.push(
      '下面是按子问题检索到的段落，编号为 [n]。凡依据这些段落的陈述，都在句末用对应的 [n] 标注出处（可写作 [1][3]）；只使用下列编号，不要编造引用；段落中没有的信息要说明。',
    );
  } else if (hasSources) {
    lines.push('在用户所选文档中没有检索到与这些子问题相关的段落：先说明这一点，再谨慎地依据通用知识撰写，不要编造引用。');
  } else {
    lines.push('用户没有选择文档：依据你的知识撰写，不要编造引用或出处。');
  }
  sections.forEach((s, i) => {
    lines.push('', `## 子问题 ${i + 1}：${s.question}`);
    if (!s.passages.length && !s.online.length && any) lines.push('（没有找到相关段落）');
    for (const p of s.passages) lines.push(`[${p.n}] 《${p.title}》${p.page ? ` 第${p.page}页` : ''}`, cut(p.text, PROMPT_PASSAGE_CHARS), '');
    // Online results (web pages, papers, patents): the page read in full when there is one, else the snippet.
    for (const h of s.online) lines.push(`[${h.n}] ${h.title}（联网搜索：${h.site}，${h.url}）`, cut(h.page ?? h.snippet, PROMPT_PASSAGE_CHARS), '');
  });
  return lines.join('\n');
}

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
 * state is saved in `research_runs` after each step; a run started again for the same question
 * (after a restart) continues after its last finished step. Research steps already stored are not
 * sent again, and a report cut off mid-way is continued from what was stored.
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
  async function load(questionId: string): Promise<ResearchState | null> {
    const row = await db.selectFrom('research_runs').selectAll().where('question_id', '=', questionId).executeTakeFirst();
    if (!row) return null;
    return {
      completed: row.completed,
      plan: row.plan === null ? null : planColumn.parse(JSON.parse(row.plan)),
      findings: findingsColumn.parse(JSON.parse(row.findings)),
      resumes: row.resumes,
    };
  }

  async function save(questionId: string, s: ResearchState) {
    const values = {
      completed: s.completed,
      plan: s.plan ? JSON.stringify(s.plan) : null,
      findings: JSON.stringify(s.findings),
      resumes: s.resumes,
      updated_at: now(),
    };
    await db
      .insertInto('research_runs')
      .values({ question_id: questionId, ...values })
      .onConflict((oc) => oc.column('question_id').doUpdateSet(values))
      .execute();
  }

  /** Earlier questions of the channel with their answers, oldest first, as chat messages. */
  async function history(questionId: string): Promise<ChatMessage[]> {
    const q = await db.selectFrom('questions').select(['channel_id', 'created_at']).where('id', '=', questionId).executeTakeFirst();
    if (!q) return [];
    const rows = await db
      .selectFrom('questions')
      .select(['question', 'answer'])
      .where('channel_id', '=', q.channel_id)
      .where('id', '!=', questionId)
      .where('created_at', '<=', q.created_at)
      .where('status', 'in', ['done', 'stopped'])
      .where('answer', 'is not', null)
      .orderBy('created_at', 'desc')
      .limit(HISTORY_TURNS)
      .execute();
    return rows.reverse().flatMap((h): ChatMessage[] => [
      { role: 'user', content: h.question },
      { role: 'assistant', content: cut(h.answer ?? '', HISTORY_ANSWER_CHARS) },
    ]);
  }

  /** One sub-question's online search and the best pages read in full (a page that cannot be read keeps its snippet). */
  async function searchAndRead(question: string, searchType: string, signal: AbortSignal): Promise<OnlineFinding> {
    const found = await searchOnline(online, searchType, { query: cut(question, 200), limit: ONLINE_PER_SEARCH, signal });
    const finding: OnlineFinding = { hits: found.hits, failures: found.failures, fetchedAt: new Date().toISOString(), pages: {}, unread: {} };
    if (!readPage) return finding;
    for (const h of found.hits.filter((x) => x.kind === 'web').slice(0, PAGES_PER_SUB_QUESTION)) {
      if (signal.aborted) break;
      try {
        const page = await readPage(h.url, signal);
        finding.pages[h.url] = { title: cut(page.title, 200), text: [...page.markdown].slice(0, PAGE_CHARS).join('') };
      } catch (err) {
        if (signal.aborted) throw err;
        finding.unread[h.url] = err instanceof Error ? err.message : String(err);
      }
    }
    return finding;
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

      const loaded = await load(job.questionId);
      let state: ResearchState;
      if (loaded) {
        state = { ...loaded, resumes: loaded.resumes + 1 };
        await save(job.questionId, state);
        const next = { none: '拆解问题', plan: '检索', search: '阅读与筛选', read: '撰写报告', write: '完成' }[state.completed];
        step({ step: 'resume', index: state.resumes, title: '服务重启后继续研究', detail: `从“${next}”继续，已完成的步骤不再重复` });
      } else {
        state = { completed: 'none', plan: null, findings: [], resumes: 0 };
        await save(job.questionId, state);
      }

      const sources = sourcesOf(request);
      const hasSources = sources.docIds.length + sources.kbIds.length + sources.kbDocIds.length > 0;
      const docIds = hasSources ? await knowledge.documentsOf({ userId: job.userId }, sources) : [];
      const earlier = engine.chat ? await history(job.questionId) : [];
      stopped();

      // 1. Plan.
      if (!state.plan) {
        let plan: z.infer<typeof planColumn>;
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
        await save(job.questionId, state);
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
      // A sub-question about one item of the question's list is searched for that item alone too:
      // "插图" finds the pages on figures that "系统总结…插图的用法与常见问题" loses to pages
      // on errors, whose words (总结, 常见, 问题) every item's sub-question shares.
      const items = enumerationOf(job.question)?.items ?? [];
      const searchDocuments = async (question: string, item: string | null) => {
        const asked = await knowledge.search(docIds, question, PASSAGES_PER_SEARCH);
        return item ? aboutItem(item, asked, await knowledge.search(docIds, item, PASSAGES_PER_SEARCH)) : asked;
      };
      const searchPlan = async () => {
        const plan = state.plan!.questions;
        const total = plan.length + 3;
        for (const [i, question] of plan.entries()) {
          if (i >= state.findings.length) {
            stopped();
            const found = docIds.length ? await searchDocuments(question, itemOf(items, question)) : [];
            stopped();
            const onlineFound = searchesOnline ? await searchAndRead(question, request.search_type, signal) : null;
            stopped();
            const findings: Finding[] = [...state.findings, { passages: found, online: onlineFound }];
            state = { ...state, findings, completed: findings.length === plan.length ? 'search' : 'plan' };
            await save(job.questionId, state);
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
        await save(job.questionId, state);
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
        await save(job.questionId, state);
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
      await save(job.questionId, { ...state, completed: 'write' });
    },
  };
}

export type DeepResearch = ReturnType<typeof deepResearch>;

/** Restarts a deep-research run survives; one interrupted more often (it may be what brings the server down) fails as other answers do. */
export const MAX_RESUMES = 3;

/**
 * At start-up: deep-research answers left `running` by a crash or shutdown go back to `queued`, so
 * the queue starts them again and they resume from their saved state. Returns how many. The saved
 * state of research that has ended (done, stopped, failed) is dropped: it is never needed again.
 */
export async function requeueInterruptedResearch(db: Db, only?: readonly string[]): Promise<number> {
  if (only && !only.length) return 0;
  await db
    .deleteFrom('research_runs')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('questions').select('id').whereRef('questions.id', '=', 'research_runs.question_id').where('status', 'in', ['queued', 'running']))),
    )
    .execute();
  const res = await db
    .updateTable('questions')
    .set({ status: 'queued' })
    .where('status', '=', 'running')
    .$if(only !== undefined, (qb) => qb.where('id', 'in', only ?? []))
    .where(jsonTrue(engineOf(db), 'request', 'deepresearch'))
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('research_runs').select('question_id').whereRef('research_runs.question_id', '=', 'questions.id').where('resumes', '>=', MAX_RESUMES))),
    )
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}
