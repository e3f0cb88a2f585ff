import { describe, expect, it } from 'vitest';
import { emptyAnswer, foldAnswer, foldAnswerEvents, isLiveAnswer, type AnswerState } from '../../src/contract/answer-fold';
import type { AnswerEvent, Citation } from '../../src/contract/channel';

const cite = (n: number, docId = `d${n}`): Citation => ({ n, docId, title: `${docId}.pdf`, page: n, bbox: [1, 2, 3, 4], text: `段落 ${n}` });

/** An answer with everything a stream carries: queue, notice, thinking, tools, citations out of order and repeated. */
const log: AnswerEvent[] = [
  { id: 1, event: 'status', data: { status: 'queued' } },
  { id: 2, event: 'status', data: { status: 'queued', message: '您同时进行的回答已达上限（2个），本问题排队等待' } },
  { id: 3, event: 'status', data: { status: 'running' } },
  { id: 4, event: 'status', data: { status: 'running', message: '未配置联网搜索服务，本次回答没有进行联网搜索' } },
  { id: 5, event: 'thinking', data: { text: '先想一想，' } },
  { id: 6, event: 'thinking', data: { text: '再回答。' } },
  { id: 7, event: 'tool_call', data: { call_id: 'call_1', name: 'admet', arguments: '{"smiles":"CCO"}' } },
  { id: 8, event: 'tool_result', data: { call_id: 'call_1', name: 'admet', ok: true, content: 'MW 46.07', data: { smiles: 'CCO', mw: 46.07 } } },
  { id: 9, event: 'delta', data: { text: '乙醇的分子量 [2]' } },
  { id: 10, event: 'citation', data: cite(2) },
  { id: 11, event: 'delta', data: { text: '，见 [1]。' } },
  { id: 12, event: 'citation', data: cite(1) },
  { id: 13, event: 'citation', data: cite(2, 'other') },
  { id: 14, event: 'done', data: { status: 'done' } },
];

describe('folding an answer', () => {
  const end = foldAnswerEvents(log);

  it('joins the texts and ends with the status of the last event', () => {
    expect(end).toMatchObject({ status: 'done', answer: '乙醇的分子量 [2]，见 [1]。', thinking: '先想一想，再回答。', error: null, lastEventId: 14 });
    expect(isLiveAnswer(end.status)).toBe(false);
  });

  it('keeps the first passage given a number, listed in the order of the numbers', () => {
    expect(end.citations).toEqual([cite(1), cite(2)]);
  });

  it('keeps a notice made while running as a step, not why it waited in the queue', () => {
    expect(end.steps.filter((s) => s.type === 'notice')).toEqual([{ type: 'notice', message: '未配置联网搜索服务，本次回答没有进行联网搜索' }]);
  });

  it('carries the structured data of a tool result into its step', () => {
    expect(end.steps.filter((s) => s.type !== 'notice')).toEqual([
      { type: 'tool_call', call_id: 'call_1', name: 'admet', arguments: '{"smiles":"CCO"}' },
      { type: 'tool_result', call_id: 'call_1', name: 'admet', ok: true, content: 'MW 46.07', data: { smiles: 'CCO', mw: 46.07 } },
    ]);
  });

  it('is the same answer when resumed after any event, with events repeated around the cut', () => {
    for (let cut = 0; cut <= log.length; cut++) {
      const reloaded: AnswerState = JSON.parse(JSON.stringify(foldAnswerEvents(log.slice(0, cut))));
      // A resumed stream may repeat events before the cut: they change nothing.
      expect(foldAnswerEvents(log.slice(Math.max(0, cut - 3)), reloaded), `cut after ${cut}`).toEqual(end);
    }
  });

  it('ignores an event already applied and returns the same state', () => {
    const s = foldAnswerEvents(log.slice(0, 9));
    expect(foldAnswer(s, log[4]!)).toBe(s);
    expect(foldAnswer(s, log[8]!)).toBe(s);
  });

  it('fails with the message of the error event, keeping what was written', () => {
    const failed = foldAnswerEvents([...log.slice(0, 9), { id: 10, event: 'error', data: { status: 'failed', message: '模型服务不可用' } }]);
    expect(failed).toMatchObject({ status: 'failed', error: '模型服务不可用', answer: '乙醇的分子量 [2]' });
  });

  it('stops with what was written', () => {
    const stopped = foldAnswerEvents([...log.slice(0, 9), { id: 10, event: 'done', data: { status: 'stopped' } }]);
    expect(stopped).toMatchObject({ status: 'stopped', answer: '乙醇的分子量 [2]', error: null });
  });

  it('keeps deep research steps in order', () => {
    const research = foldAnswerEvents([
      { id: 1, event: 'status', data: { status: 'running' } },
      { id: 2, event: 'research_step', data: { step: 'plan', title: '拆解问题', plan: ['甲', '乙'], progress: { current: 1, total: 5 } } },
      { id: 3, event: 'research_step', data: { step: 'search', title: '检索：甲', index: 1, progress: { current: 2, total: 5 } } },
      { id: 4, event: 'delta', data: { text: '# 报告' } },
    ]);
    expect(research.steps.map((s) => (s.type === 'research_step' ? s.step : s.type))).toEqual(['plan', 'search']);
    expect(isLiveAnswer(research.status)).toBe(true);
  });

  it('does not change the empty answer it starts from', () => {
    foldAnswerEvents(log);
    expect(emptyAnswer).toEqual({ status: 'queued', answer: '', thinking: '', steps: [], citations: [], error: null, lastEventId: 0 });
  });
});
