import { describe, expect, it } from 'vitest';
import { parseModelPlan, planHeuristically } from '../../../src/server/answering/research-plan';
import { aboutItem, readFindings } from '../../../src/server/answering/research-read';
import { localReport } from '../../../src/server/answering/research-report';
import type { RetrievedPassage } from '../../../src/server/retrieval/knowledge-port';

describe('deep research without a model: the heuristic plan', () => {
  it('splits a Chinese question on question marks and conjunctions, then adds the whole question', () => {
    const q = '阿司匹林的作用机制是什么？以及布洛芬的主要副作用有哪些？';
    expect(planHeuristically(q)).toEqual(['阿司匹林的作用机制是什么', '布洛芬的主要副作用有哪些', q]);
  });

  it('splits an English question on clauses and "and"', () => {
    const q = 'How does aspirin inhibit COX enzymes, and what are the side effects of ibuprofen?';
    expect(planHeuristically(q)).toEqual(['How does aspirin inhibit COX enzymes', 'what are the side effects of ibuprofen', q]);
  });

  it('keeps a question with one clause whole, and drops pieces that name no subject', () => {
    expect(planHeuristically('乱数假文是什么？')).toEqual(['乱数假文是什么？']);
    expect(planHeuristically('请问，阿司匹林的用途')).toEqual(['请问，阿司匹林的用途']);
  });

  it('caps a huge question at five sub-questions of at most 300 characters, plus the whole (cut) question', () => {
    const q = Array.from({ length: 40 }, (_, i) => `化合物${i}的溶解度与熔点分别是多少`).join('？') + '？' + '甲'.repeat(20_000);
    const plan = planHeuristically(q);
    expect(plan).toHaveLength(6);
    for (const s of plan) expect([...s].length).toBeLessThanOrEqual(301);
  });
});

describe('deep research with a model: the plan it gives', () => {
  it('reads {"sub_questions": [...]}, also in a code fence or after a <think> block, and a bare array', () => {
    expect(parseModelPlan('{"sub_questions": ["a 1", "b 2"]}')).toEqual(['a 1', 'b 2']);
    expect(parseModelPlan('```json\n{"sub_questions": ["甲", "乙", "甲"]}\n```')).toEqual(['甲', '乙']);
    expect(parseModelPlan('<think>{"x": 1}</think>\n["x", "y"]')).toEqual(['x', 'y']);
  });

  it('gives null for prose, broken JSON, a wrong shape or an empty list', () => {
    for (const bad of ['好的，我来拆解', '{"sub_questions": ["a", }', '{"questions": ["a"]}', '{"sub_questions": [1, 2]}', '{"sub_questions": ["  "]}', '']) {
      expect(parseModelPlan(bad)).toBeNull();
    }
  });

  it('keeps at most five sub-questions', () => {
    expect(parseModelPlan(JSON.stringify({ sub_questions: ['1', '2', '3', '4', '5', '6', '7'] }))).toHaveLength(5);
  });
});

describe('the read step', () => {
  const p = (docId: string, page: number, text: string, score: number): RetrievedPassage => ({ docId, title: `${docId}.pdf`, page, bbox: [0, 0, 10, 10], text, score });

  it('keeps of an item’s sub-question the passages about the item, those both searches found first', () => {
    const both = p('d1', 3, '布洛芬的作用机制：可逆地抑制环氧合酶', 6);
    const asked = [p('d1', 9, '常见问题与作用机制总结', 10), both, p('d1', 4, '萘普生的作用机制', 5)];
    const named = [p('d1', 1, '布洛芬的历史', 4), { ...both, score: 3 }, p('d2', 2, 'Ibuprofen (布洛芬) tablets', 2)];
    const kept = aboutItem('布洛芬', asked, named);
    // 6/10 + 3/4 for the passage both found; the others score their share of their one search.
    expect(kept.map((x) => [x.page, Number(x.score.toFixed(2))])).toEqual([[3, 1.35], [1, 1], [2, 0.5]]);
    // A passage naming the item is kept though only the sub-question's search found it.
    expect(aboutItem('萘普生', asked, []).map((x) => x.page)).toEqual([4]);
  });

  it('gives each passage to the first sub-question that found it, drops weak ones, numbers them in report order', () => {
    const shared = p('d1', 2, '阿司匹林抑制环氧合酶', 9);
    const sections = readFindings(
      ['阿司匹林的机制', '阿司匹林的剂量'],
      [
        [shared, p('d2', 5, '阿司匹林机制的综述', 6), p('d1', 7, '阿司匹林机制无关的弱段落', 1)],
        [shared, p('d1', 3, '阿司匹林的剂量为每日100毫克', 8)],
      ],
      { needOverlap: true },
    );
    expect(sections.map((s) => s.passages.map((x) => [x.n, x.docId, x.page]))).toEqual([
      [[1, 'd1', 2], [2, 'd2', 5]],
      [[3, 'd1', 3]],
    ]);
    const report = localReport('阿司匹林的机制和剂量', sections, 2);
    expect(report.split('\n')[0]).toContain('未配置大语言模型');
    expect(report).toContain('### 引言');
    expect(report).toContain('### 1. 阿司匹林的机制');
    expect(report).toContain('### 结论');
    expect([...report.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])).slice(0, 3)).toEqual([1, 2, 3]);
  });
});
