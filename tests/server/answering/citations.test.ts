import { describe, expect, it } from 'vitest';
import { citationTracker, type AnswerSink, type NumberedPassage } from '../../../src/server/answering/engine';
import { asQuoteText, quoteOf } from '../../../src/server/answering/local-engine';
import { tokens } from '../../../src/server/text/segment';
import type { Citation } from '../../../src/contract/channel';

const passage = (n: number): NumberedPassage => ({ n, docId: `d${n}`, title: `t${n}.pdf`, page: n, bbox: [0, 0, 10, 10], text: `passage ${n}`, score: 1 });

const sinkInto = (out: Citation[]): AnswerSink => ({
  notice: () => undefined,
  thinking: () => undefined,
  delta: () => undefined,
  toolCall: () => undefined,
  toolResult: () => undefined,
  citation: (c) => out.push(c),
  researchStep: () => undefined,
});

describe('citations in a streamed answer', () => {
  it('are emitted once per passage when [n] first appears, even split across chunks', () => {
    const out: Citation[] = [];
    const t = citationTracker([passage(1), passage(2), passage(3)], sinkInto(out));
    for (const piece of ['阿司匹林抑制 COX [', '2', ']。又见 [1][', '2] 与 [3，1]', '，以及 [9] 和 [x]。']) t.push(piece);
    expect(out.map((c) => c.n)).toEqual([2, 1, 3]);
    expect(out[0]).toEqual({ n: 2, docId: 'd2', title: 't2.pdf', page: 2, bbox: [0, 0, 10, 10], text: 'passage 2' });
  });

  it('handles lists like [1, 2] and ignores numbers without a passage', () => {
    const out: Citation[] = [];
    const t = citationTracker([passage(1), passage(2)], sinkInto(out));
    t.push('见 [1, 2] 和 [12]');
    expect(out.map((c) => c.n)).toEqual([1, 2]);
  });

  it('still finds markers deep into a long answer, after a bracket that never closed', () => {
    const out: Citation[] = [];
    const t = citationTracker([passage(1), passage(2)], sinkInto(out));
    t.push('数组写作 a[i');
    for (let i = 0; i < 2000; i++) t.push('很长的回答。');
    for (const piece of ['结论见 [', '1', ',', ' 2', ']。']) t.push(piece);
    expect(out.map((c) => c.n)).toEqual([1, 2]);
  });
});

describe('quotes of the local engine', () => {
  it('picks the sentences sharing the most words with the question, shortened', () => {
    const text = 'Aspirin is old. Aspirin irreversibly inhibits cyclooxygenase. It was made by Bayer.';
    expect(quoteOf(text, new Set(tokens('Which enzyme does aspirin inhibit? cyclooxygenase')))).toBe('Aspirin is old. Aspirin irreversibly inhibits cyclooxygenase.');
    const long = '布洛芬'.repeat(100);
    expect([...quoteOf(long, new Set(['布洛']))].length).toBe(161);
  });
});

describe('document text quoted in a local answer', () => {
  it('never looks like a citation or markup', () => {
    expect(asQuoteText('see [3] and *bold* <b>x</b>')).toBe('see ［3］ and \\*bold\\* \\<b\\>x\\</b\\>');
    expect(asQuoteText('| aspirin | 66 | 简 | 维基百科条目：阿司匹林 | • |')).toBe('aspirin · 66 · 简 · 维基百科条目：阿司匹林 · •');
  });
});
