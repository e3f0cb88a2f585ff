import { describe, expect, it } from 'vitest';
import { applyEvent, fromQuestion, isLive, type AnswerState } from '../../../src/widgets/channels/answer-state';
import { citationPath, looksLikeSmiles } from '../../../src/widgets/channels/markdown';

const start: AnswerState = { status: 'queued', answer: '开头', thinking: '', steps: [], citations: [], error: null, lastEventId: 3 };
const citation = { n: 2, docId: 'd1', title: 'a.pdf', page: 4, bbox: [1, 2, 3, 4] as [number, number, number, number], text: '' };

describe('answer state', () => {
  it('applies events in order and ignores ones already applied (a resumed stream repeats)', () => {
    let s = applyEvent(start, { id: 3, event: 'delta', data: { text: '重复' } });
    expect(s).toBe(start);
    s = applyEvent(s, { id: 4, event: 'status', data: { status: 'running' } });
    s = applyEvent(s, { id: 5, event: 'thinking', data: { text: '想' } });
    s = applyEvent(s, { id: 6, event: 'delta', data: { text: '，继续' } });
    s = applyEvent(s, { id: 7, event: 'citation', data: citation });
    s = applyEvent(s, { id: 8, event: 'citation', data: { ...citation, n: 1 } });
    s = applyEvent(s, { id: 9, event: 'tool_call', data: { call_id: 'c', name: 'admet', arguments: '{}' } });
    expect(s).toMatchObject({ status: 'running', answer: '开头，继续', thinking: '想', lastEventId: 9 });
    expect(s.citations.map((c) => c.n)).toEqual([1, 2]);
    expect(s.steps).toEqual([{ type: 'tool_call', call_id: 'c', name: 'admet', arguments: '{}' }]);
    expect(isLive(s.status)).toBe(true);
    const failed = applyEvent(s, { id: 10, event: 'error', data: { status: 'failed', message: '模型服务不可用' } });
    expect(failed).toMatchObject({ status: 'failed', error: '模型服务不可用' });
    expect(isLive(applyEvent(s, { id: 10, event: 'done', data: { status: 'stopped' } }).status)).toBe(false);
  });

  it('starts from the stored question', () => {
    const s = fromQuestion({
      question_id: 'q', channel_id: 'c', question: '?', status: 'running', answer: 'a', thinking: 't', steps: [], citations: [citation], error: null,
      effect: null, effect_comment: null, docIdList: [], docIdListKnowledge: [], kb_ids: [], if_search_online: false, search_type: 'all', if_thinking: true,
      deepresearch: false, tools_name: [], engine: 'local', last_event_id: 42, created_at: '', finished_at: null,
    });
    expect(s).toMatchObject({ status: 'running', answer: 'a', thinking: 't', lastEventId: 42 });
  });
});

describe('answer markup helpers', () => {
  it('tells SMILES from words and numbers', () => {
    for (const s of ['CCO', 'c1ccccc1', 'CC(=O)Oc1ccccc1C(=O)O', '[Na+].[Cl-]', 'C/C=C/C', 'N#N']) expect(looksLikeSmiles(s), s).toBe(true);
    for (const s of ['npm', 'Python', '123', 'x', 'hello world', 'const a = 1']) expect(looksLikeSmiles(s), s).toBe(false);
  });

  it('links a citation to the viewer at its page and box', () => {
    const url = new URL(citationPath(citation), 'http://x');
    expect(url.pathname).toBe('/pdf_viewer');
    expect(Object.fromEntries(url.searchParams)).toEqual({ docId: 'd1', page: '4', bbox: '1,2,3,4' });
    expect(citationPath({ ...citation, page: null, bbox: null })).toBe('/pdf_viewer?docId=d1');
  });
});
