import { describe, expect, it } from 'vitest';
import { effect } from '@preact/signals-core';
import { answerModel } from '../../src/core/answer-model';
import type { Question } from '../../src/contract/channel';
import { questionRecord } from '../widgets/ask/fake-csai';

const question = (over: Partial<Question> = {}) =>
  questionRecord({ question: '乙醇的分子量？', status: 'running', answer: '乙醇', if_thinking: false, last_event_id: 4, created_at: '2026-01-01T00:00:00Z', ...over });

describe('answerModel', () => {
  it('starts from the question as the server gave it, then applies the events that follow', () => {
    const m = answerModel('q1');
    m.reset(question());
    expect(m.$state.value).toMatchObject({ status: 'running', answer: '乙醇', lastEventId: 4 });
    expect(m.$live.value).toBe(true);
    // A resumed stream repeats event 4: it changes nothing.
    m.apply([
      { id: 4, event: 'delta', data: { text: '乙醇' } },
      { id: 5, event: 'delta', data: { text: '的分子量是 46.07' } },
    ]);
    m.apply({ id: 6, event: 'done', data: { status: 'done' } });
    expect(m.$state.value).toMatchObject({ status: 'done', answer: '乙醇的分子量是 46.07', lastEventId: 6 });
    expect(m.$live.value).toBe(false);
    expect(m.$lastEventId.value).toBe(6);
  });

  it('tells its readers once per batch of events, and not for events already applied', () => {
    const m = answerModel('q1');
    m.reset(question());
    const seen: string[] = [];
    const stop = effect(() => void seen.push(m.$state.value.answer));
    m.apply([
      { id: 5, event: 'delta', data: { text: 'A' } },
      { id: 6, event: 'delta', data: { text: 'B' } },
    ]);
    m.apply({ id: 6, event: 'delta', data: { text: 'B' } });
    stop();
    expect(seen).toEqual(['乙醇', '乙醇AB']);
  });

  it('resets to a refreshed question, or to nothing', () => {
    const m = answerModel('q1');
    m.reset(question());
    m.apply({ id: 5, event: 'error', data: { status: 'failed', message: '模型服务不可用' } });
    expect(m.$state.value).toMatchObject({ status: 'failed', error: '模型服务不可用' });
    m.reset(question({ status: 'failed', answer: '乙醇', error: '模型服务不可用', last_event_id: 5 }));
    expect(m.$state.value).toMatchObject({ status: 'failed', lastEventId: 5 });
    m.reset();
    expect(m.$state.value).toMatchObject({ status: 'queued', answer: '', lastEventId: 0 });
  });

  it('refuses the question of another answer', () => {
    expect(() => answerModel('q1').reset(question({ question_id: 'q2' }))).toThrow(/q2/);
  });
});
