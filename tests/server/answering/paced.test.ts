import { describe, expect, it } from 'vitest';
import { paced } from '../../../src/server/answering';
import type { AnswerEngine, AnswerInput, AnswerSink } from '../../../src/server/answering/engine';
import { createToolRegistry } from '../../../src/server/tools/registry';

// CSAI_LOCAL_ENGINE_DELAY_MS (test only): the engine's output is replayed with pauses.
const engine: AnswerEngine = {
  name: 'local',
  async answer(_input, sink) {
    sink.thinking('想');
    sink.delta('一');
    sink.delta('二');
    sink.delta('三');
  },
};
const recorder = () => {
  const seen: string[] = [];
  const sink: AnswerSink = {
    notice: (m) => seen.push(`notice:${m}`),
    thinking: (t) => seen.push(`thinking:${t}`),
    delta: (t) => seen.push(`delta:${t}`),
    toolCall: (c) => seen.push(`call:${c.name}`),
    toolResult: (r) => seen.push(`result:${r.name}`),
    citation: (c) => seen.push(`cite:${c.n}`),
    researchStep: (s) => seen.push(`step:${s.step}`),
  };
  return { seen, sink };
};
const input = (signal: AbortSignal): AnswerInput => ({
  question: 'q', history: [], hasSources: false, passages: [], signal,
  options: { if_search_online: false, search_type: 'all', if_thinking: false, deepresearch: false, tools_name: [] },
  viewer: { userId: 'u1' }, docIds: [],
});
const tools = createToolRegistry([], { restricted: false, log: { error: () => {} } });

describe('paced local engine', () => {
  it('without a delay is the engine itself', () => {
    expect(paced(engine, 0)).toBe(engine);
  });

  it('replays every piece in order, after the engine finished', async () => {
    const { seen, sink } = recorder();
    const running = paced(engine, 1).answer(input(new AbortController().signal), sink, tools);
    expect(seen).toEqual([]);
    await running;
    expect(seen).toEqual(['thinking:想', 'delta:一', 'delta:二', 'delta:三']);
  });

  it('a stop ends the replay, keeping what was written', async () => {
    const { seen, sink } = recorder();
    const stop = new AbortController();
    const original = sink.delta;
    sink.delta = (t) => {
      original(t);
      stop.abort();
    };
    await paced(engine, 1).answer(input(stop.signal), sink, tools);
    expect(seen).toEqual(['thinking:想', 'delta:一']);
  });
});
