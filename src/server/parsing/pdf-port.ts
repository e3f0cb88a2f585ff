/**
 * The channel between pdf.js's two halves when both run in this thread (Node has no web workers).
 *
 * pdf.js's own fallback (its "fake worker", LoopbackPort) deep-copies every message with
 * structuredClone, as a real worker's postMessage would. In a parse of lshort-zh-cn.pdf (139
 * pages) that is about 14,000 messages and a tenth of the thread's time, most of it spent on two
 * kinds that need no copy:
 *   - stream control messages (pull, pull complete, start complete, close), whose fields are all
 *     numbers, strings or booleans: passed as they are;
 *   - text-content chunks (getTextContent's stream): after sending a chunk, pdf.js's evaluator
 *     gives the chunk object new `items` and `styles` and never touches the old ones (the items
 *     and the style entries are created for it); the receiving side only reads them. So the
 *     chunk object itself is copied (one level) and its items go across as they are.
 * Everything else (document data, operator lists, whose arrays pdf.js empties and refills after
 * sending, errors, annotations…) is copied with structuredClone as before, transfers included.
 * Delivery stays asynchronous and in order, as LoopbackPort's.
 */
type Listener = (event: { data: unknown }) => void;

/** pdf.js's StreamKind.ENQUEUE (src/shared/message_handler.js). */
const ENQUEUE = 4;

const isPrimitive = (v: unknown) => v === null || (typeof v !== 'object' && typeof v !== 'function');

/** A text-content chunk: { items: [...], styles: {...} } and primitives (lang). */
function isTextChunk(chunk: unknown): chunk is { items: unknown[]; styles: object } {
  if (!chunk || typeof chunk !== 'object') return false;
  const { items, styles, ...rest } = chunk as Record<string, unknown>;
  return Array.isArray(items) && !!styles && typeof styles === 'object' && Object.values(rest).every(isPrimitive);
}

/** What the receiving side gets for a message: the message itself, a shallow copy, or a deep copy. */
export function delivered(message: unknown, transfer?: Transferable[]): unknown {
  if (!transfer?.length && message && typeof message === 'object' && !Array.isArray(message)) {
    const fields = message as Record<string, unknown>;
    if (Object.values(fields).every(isPrimitive)) return message;
    if (fields.stream === ENQUEUE && isTextChunk(fields.chunk) && Object.entries(fields).every(([k, v]) => k === 'chunk' || isPrimitive(v))) {
      return { ...fields, chunk: { ...fields.chunk } };
    }
  }
  return structuredClone(message, transfer ? { transfer } : undefined);
}

/** A port both halves of pdf.js use in this thread (pdf.js's PDFWorker `port` option). */
export class SameThreadPort {
  #listeners = new Map<Listener, (() => void) | null>();
  #deferred = Promise.resolve();

  postMessage(message: unknown, transfer?: Transferable[]): void {
    const event = { data: delivered(message, transfer) };
    void this.#deferred.then(() => {
      for (const [listener] of this.#listeners) listener.call(this, event);
    });
  }

  addEventListener(_type: 'message', listener: Listener, options?: { signal?: AbortSignal }): void {
    const signal = options?.signal;
    if (signal?.aborted) return;
    let stop: (() => void) | null = null;
    if (signal) {
      const onAbort = () => this.removeEventListener('message', listener);
      signal.addEventListener('abort', onAbort);
      stop = () => signal.removeEventListener('abort', onAbort);
    }
    this.#listeners.set(listener, stop);
  }

  removeEventListener(_type: 'message', listener: Listener): void {
    this.#listeners.get(listener)?.();
    this.#listeners.delete(listener);
  }

  terminate(): void {
    for (const stop of this.#listeners.values()) stop?.();
    this.#listeners.clear();
  }
}
