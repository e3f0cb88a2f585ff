import { describe, expect, it } from 'vitest';
import { ApiError, type AnswerStreamHandlers } from '../../src/core/api';
import { followAnswer, parseAnswerEvent, sseParser } from '../../src/core/answer-stream';
import type { AnswerEvent } from '../../src/contract/channel';

/** A text/event-stream answer made of the given chunks (a stream that then closes). */
const streamOf = (...chunks: string[]) =>
  new Response(new ReadableStream({
    start(c) {
      for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
      c.close();
    },
  }), { headers: { 'Content-Type': 'text/event-stream' } });

const frame = (id: number, event: string, data: unknown) => `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

function follow(open: (after: number) => Promise<Response>, from = 0) {
  const events: AnswerEvent[] = [];
  const controller = new AbortController();
  let ended: { error?: ApiError } | undefined;
  const handlers: AnswerStreamHandlers = { onEvent: (e) => events.push(e), onEnd: (error) => (ended = { error }) };
  const done = followAnswer(open, from, handlers, controller.signal);
  return { events, done, controller, ended: () => ended };
}

describe('the answer event stream', () => {
  it('parses SSE messages with the contract and refuses junk', () => {
    expect(parseAnswerEvent('delta', '12', '{"text":"苯"}')).toEqual({ id: 12, event: 'delta', data: { text: '苯' } });
    expect(parseAnswerEvent('delta', '12', 'not json')).toBe(null);
    expect(parseAnswerEvent('delta', '12', '{"txt":1}')).toBe(null);
    expect(parseAnswerEvent('unknown', '12', '{}')).toBe(null);
    expect(parseAnswerEvent('delta', 'x', '{"text":"a"}')).toBe(null);
  });

  it('splits frames across chunk boundaries, skips comments, joins data lines and reads retry', () => {
    const retries: number[] = [];
    const p = sseParser((ms) => retries.push(ms));
    expect(p.push(': ping\n\nid: 1\nevent: del')).toEqual([]);
    expect(p.push('ta\ndata: {"text":\ndata: "a"}\r\n\r\nretry: 2500\n')).toEqual([{ id: '1', event: 'delta', data: '{"text":\n"a"}' }]);
    expect(retries).toEqual([2500]);
  });

  it('delivers events in order and ends after done', async () => {
    const asked: number[] = [];
    const s = follow(async (after) => {
      asked.push(after);
      return streamOf(': stream\n\n', frame(4, 'status', { status: 'running' }), frame(5, 'delta', { text: '苯环' }), frame(6, 'done', { status: 'done' }));
    }, 3);
    await s.done;
    expect(asked).toEqual([3]);
    expect(s.events.map((e) => e.id)).toEqual([4, 5, 6]);
    expect(s.ended()).toEqual({ error: undefined });
  });

  it('resumes after the newest event when the connection drops, without repeating events', async () => {
    const asked: number[] = [];
    const s = follow(async (after) => {
      asked.push(after);
      // The first connection breaks after event 2 (retry shortened by the server's `retry:`).
      if (asked.length === 1) return streamOf('retry: 5\n\n', frame(1, 'delta', { text: 'a' }), frame(2, 'delta', { text: 'b' }));
      return streamOf(frame(2, 'delta', { text: 'b' }), frame(3, 'error', { status: 'failed', message: '模型服务不可用' }));
    });
    await s.done;
    expect(asked).toEqual([0, 2]);
    expect(s.events.map((e) => `${e.id}:${e.event}`)).toEqual(['1:delta', '2:delta', '3:error']);
  });

  it('stops on an HTTP failure (already reported by the client) and retries a network failure', async () => {
    const gone = new ApiError(404, '问题不存在', 'not_found', '/api/v1/channel/questions/q/events');
    const s = follow(async () => {
      throw gone;
    });
    await s.done;
    expect(s.ended()?.error).toBe(gone);

    let tries = 0;
    const t = follow(async () => {
      tries += 1;
      if (tries === 1) throw new ApiError(0, '网络连接失败，请检查网络后重试', 'network_error', '');
      return streamOf(frame(1, 'done', { status: 'stopped' }));
    });
    await t.done;
    expect(tries).toBe(2);
    expect(t.events.map((e) => e.event)).toEqual(['done']);
  });

  it('ends a stream that closes without anything new, and stops when closed', async () => {
    const s = follow(async () => streamOf(': stream\n\n'), 9);
    await s.done;
    expect(s.events).toEqual([]);
    expect(s.ended()).toEqual({ error: undefined });

    const controller = new AbortController();
    let opened = 0;
    const stopped = followAnswer(async () => {
      opened += 1;
      controller.abort();
      throw new ApiError(0, 'aborted', 'aborted', '');
    }, 0, { onEvent: () => undefined }, controller.signal);
    await stopped;
    expect(opened).toBe(1);
  });
});
