import { z } from 'zod';
import { subjectTokens } from './local-engine';
import { KEEP_ONLINE_PER_SUB_QUESTION, KEEP_PER_SUB_QUESTION } from './research-read';
import type { Finding } from './research-state';
import { cut } from './research-text';

/** Sub-questions a plan holds at most (the local planner adds the whole question after them). */
export const MAX_SUB_QUESTIONS = 5;
/** A sub-question is cut to this many characters (it is a search query and a section title). */
export const SUB_QUESTION_LENGTH = 300;
/**
 * With a model, research reads in rounds: after each round's searches the model names what is
 * still missing as follow-up sub-questions, which are searched in turn. At most this many rounds,
 * this many sub-questions in all, and only while the run has used less than READING_SHARE of its
 * time budget (the rest is the report's; deep-research.ts).
 */
export const MAX_FOLLOW_UP_ROUNDS = 3;
export const MAX_RESEARCH_QUESTIONS = 12;
const FOLLOW_UPS_PER_ROUND = 3;
/** Characters of each passage or result shown to the model when it looks for what is missing. */
const FOLLOW_UP_EXCERPT = 160;
export const PLAN_FALLBACK = '模型给出的研究计划无法解析，改为直接研究原问题';

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
export function findingsDigest(question: string, plan: readonly string[], findings: readonly Finding[]): string {
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
