// Follows one answer's Server-Sent Events over fetch (not EventSource): the request goes through
// the API client, so it carries X-Requested-With, the element's credentials, and a failure meets
// the SPEC §8 mapping like any call. Events are parsed with the contract; a dropped connection
// resumes after the last event seen (Last-Event-ID). Loaded with the first stream, not the page.
import { answerEvent, type AnswerEvent } from '../contract/channel';
import { ApiError, type AnswerStreamHandlers } from './api-error';

/** Wait before reconnecting, unless the server sends `retry:`; doubles per failure up to the cap. */
const RETRY_MS = 1000;
const RETRY_CAP_MS = 15_000;

/** One SSE message as an answer event, or null when it is not one (parsed, never cast). */
export function parseAnswerEvent(type: string, id: string, data: string): AnswerEvent | null {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = answerEvent.safeParse({ id: Number(id), event: type, data: payload });
  return parsed.success ? parsed.data : null;
}

/** A raw SSE frame. */
export interface SseFrame {
  id: string;
  event: string;
  data: string;
}

/**
 * Splits an SSE byte stream into frames (the WHATWG rules for `id`, `event`, `data`, `retry` and
 * comments). Call `push` with each decoded chunk; frames come back as they complete.
 */
export function sseParser(onRetry: (ms: number) => void) {
  let buffer = '';
  let frame = { id: '', event: '', data: [] as string[] };
  return {
    push(chunk: string): SseFrame[] {
      buffer += chunk;
      const out: SseFrame[] = [];
      let nl: number;
      while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
        if (line === '') {
          if (frame.data.length) out.push({ id: frame.id, event: frame.event || 'message', data: frame.data.join('\n') });
          frame = { id: frame.id, event: '', data: [] };
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') frame.data.push(value);
        else if (field === 'event') frame.event = value;
        else if (field === 'id' && !value.includes('\0')) frame.id = value;
        else if (field === 'retry' && /^\d+$/.test(value)) onRetry(Number(value));
      }
      return out;
    },
  };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

/**
 * Reads the stream from `open(after)` until the answer ends, reconnecting after network drops
 * with the newest event id. An HTTP failure (401, 404 …) ends it: the client already reported it.
 */
export async function followAnswer(open: (after: number) => Promise<Response>, lastEventId: number, handlers: AnswerStreamHandlers, signal: AbortSignal): Promise<void> {
  let after = lastEventId;
  let retry = RETRY_MS;
  let failures = 0;
  while (!signal.aborted) {
    let res: Response;
    try {
      res = await open(after);
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ApiError && error.status !== 0) return handlers.onEnd?.(error);
      failures += 1;
      await sleep(Math.min(RETRY_CAP_MS, retry * 2 ** (failures - 1)), signal);
      continue;
    }
    failures = 0;
    const reader = res.body?.getReader();
    if (!reader) return handlers.onEnd?.();
    const decoder = new TextDecoder();
    const parser = sseParser((ms) => (retry = ms));
    let received = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const frame of parser.push(decoder.decode(value, { stream: true }))) {
          const event = parseAnswerEvent(frame.event, frame.id, frame.data);
          if (!event || event.id <= after) continue;
          after = event.id;
          received = true;
          handlers.onEvent(event);
          if (event.event === 'done' || event.event === 'error') {
            void reader.cancel().catch(() => undefined);
            return handlers.onEnd?.();
          }
        }
      }
    } catch {
      // The connection dropped mid-stream (or was closed): resume below unless closed.
      received = true;
    }
    if (signal.aborted) return;
    // A stream that closed cleanly without one new event has nothing more to give (the answer
    // ended before `after`, or the question is gone).
    if (!received) return handlers.onEnd?.();
    await sleep(retry, signal);
  }
}
