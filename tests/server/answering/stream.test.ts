import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { CH, answerText, ask, readEvents, startFakeLlm } from '../answering-helpers';
import { readSseData } from '../../../src/server/answering/openai-engine';

// Events are stored in batches (group commit) and text events of one answer waiting in the same
// batch are joined: what a stream shows, what a reload resumes and what is stored stay the same.
let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let server: TestServer;
let alice: Client;

beforeAll(async () => {
  llm = await startFakeLlm();
  server = await startServer({ LLM_BASE_URL: llm.url, LLM_MODEL: 'chat-model', LLM_IDLE_TIMEOUT_MS: '2000' });
  alice = (await signedInUser(server)).client;
});
afterAll(async () => {
  await server?.close();
  await llm?.close();
});

const expected = Array.from({ length: 50 }, (_, i) => `${i} `).join('');
const storedEvents = (questionId: string) => {
  const db = server.sqlite();
  try {
    return db.prepare('select seq, type, data from question_events where question_id = ? order by seq').all(questionId) as Array<{ seq: number; type: string; data: string }>;
  } finally {
    db.close();
  }
};

describe('a burst of tokens', () => {
  it('arrives joined in fewer delta events, with the whole text, numbered without gaps', async () => {
    const { questionId } = await ask(alice, '[burst] 很多小块');
    const { events } = await readEvents(alice, questionId);
    const deltas = events.filter((e) => e.event === 'delta');
    expect(answerText(events)).toBe(expected);
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.length).toBeLessThan(50);
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
    // Stored exactly as streamed.
    expect(storedEvents(questionId).map((r) => ({ id: r.seq, event: r.type, data: JSON.parse(r.data) as unknown }))).toEqual(events);
  });

  it('resumes exactly after any Last-Event-ID, and a second stream sees the same events', async () => {
    const { channelId, questionId } = await ask(alice, '[burst] 刷新后继续');
    const { events } = await readEvents(alice, questionId);
    for (const e of events) {
      const resumed = await readEvents(alice, questionId, { lastEventId: e.id });
      expect(resumed.events).toEqual(events.filter((x) => x.id > e.id));
    }
    expect((await readEvents(alice, questionId)).events).toEqual(events);
    const list = await alice.get<{ items: Array<{ question_id: string; answer: string; status: string }> }>(`${CH}/questions/${channelId}`);
    expect(list.body.data.items.find((q) => q.question_id === questionId)).toMatchObject({ status: 'done', answer: expected });
  });

  it('of answers running side by side are each stored whole and in order', async () => {
    const asked = await Promise.all(Array.from({ length: 4 }, (_, i) => ask(alice, `[burst] 并行 ${i}`)));
    const streams = await Promise.all(asked.map((a) => readEvents(alice, a.questionId)));
    for (const [i, { events }] of streams.entries()) {
      expect(answerText(events)).toBe(expected);
      expect(events.map((e) => e.id)).toEqual(events.map((_, k) => k + 1));
      expect(storedEvents(asked[i]!.questionId).map((r) => r.seq)).toEqual(events.map((e) => e.id));
    }
  });
});

describe('the model stream reader', () => {
  const read = async (parts: Array<string | Uint8Array>) => {
    const out: string[] = [];
    await readSseData(Readable.from(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))), (d) => void out.push(d));
    return out;
  };

  it('gives every data payload once, whole, in order, whatever the reads cut', async () => {
    const text = 'data: {"a":1}\n\n: a comment\n\ndata: {"b":"中文"}\r\n\r\nevent: x\ndata: line one\ndata: line two\n\ndata: [DONE]\n\n';
    const whole = await read([text]);
    expect(whole).toEqual(['{"a":1}', '{"b":"中文"}', 'line one\nline two', '[DONE]']);
    // Cut anywhere, even inside a multi-byte character.
    const bytes = new TextEncoder().encode(text);
    for (let cut = 1; cut < bytes.length; cut += 7) expect(await read([bytes.slice(0, cut), bytes.slice(cut)])).toEqual(whole);
  });

  it('keeps a last event without its blank line, and nothing from an empty body', async () => {
    expect(await read(['data: tail'])).toEqual(['tail']);
    expect(await read([])).toEqual([]);
  });

  it('stops when asked: the rest of the body is read to its end (its connection can be reused) and not handed on', async () => {
    const body = Readable.from([Buffer.from('data: 1\n\ndata: [DONE]\n\n'), Buffer.from('data: 2\n\n')]);
    const got: string[] = [];
    await readSseData(body, (d) => (got.push(d), d !== '[DONE]'));
    await new Promise((resolve) => body.once('close', resolve));
    expect(got).toEqual(['1', '[DONE]']);
    expect(body.readableEnded).toBe(true);
  });

  it('ends with the error of the handler or of the body', async () => {
    await expect(readSseData(Readable.from([Buffer.from('data: x\n\n')]), () => { throw new Error('bad chunk'); })).rejects.toThrow('bad chunk');
    const failing = new Readable({ read() {} });
    const reading = readSseData(failing, () => undefined);
    failing.push('data: half');
    failing.destroy(new Error('connection reset'));
    await expect(reading).rejects.toThrow('connection reset');
  });
});
