// The one fold of answer events (DESIGN §3): the server folds an answer's stored events into the
// row it writes at the end and into the history of an answer still being written; the browser
// starts from that row and applies the events that follow. Both use these functions, so a
// reloaded answer is the same as the one watched live.
import type { AnswerEvent, AnswerStatus, AnswerStep, Citation, Question } from './channel';

/** What is shown of one answer: its state, texts, steps, citations and failure, and the newest event applied. */
export interface AnswerState {
  status: AnswerStatus;
  answer: string;
  thinking: string;
  steps: AnswerStep[];
  /** One per number, in the order of the numbers. */
  citations: Citation[];
  error: string | null;
  /** The id of the newest event applied: later events only. */
  lastEventId: number;
}

/** An answer before its first event (a new question waits as `queued`). */
export const emptyAnswer: AnswerState = Object.freeze({ status: 'queued', answer: '', thinking: '', steps: [], citations: [], error: null, lastEventId: 0 });

/** The answer as the server gave it with its question: where the browser starts before following its events. */
export function answerOf(q: Question): AnswerState {
  return { status: q.status, answer: q.answer, thinking: q.thinking, steps: q.steps, citations: q.citations, error: q.error, lastEventId: q.last_event_id };
}

/** Whether an answer may still change (its event stream is worth following). */
export const isLiveAnswer = (status: AnswerStatus) => status === 'queued' || status === 'running';

/**
 * Applies one event to an answer. An event at or before `lastEventId` changes nothing (a resumed
 * stream may repeat one). What a reader sees:
 * - a citation keeps the first passage given its number (the chip `[n]` already read stays
 *   what it was) and the list is in the order of the numbers, as a paper's references are;
 * - a `status` with a message while running (e.g. "web search is not configured") is a notice
 *   kept among the steps, live as after a reload; the message of a queued answer (why it waits)
 *   is transient and not kept;
 * - a `tool_result` step keeps every field of its event (the structured `data` a tool card shows).
 *
 * @example foldAnswer(emptyAnswer, { id: 1, event: 'delta', data: { text: '苯' } }).answer === '苯'
 */
export function foldAnswer(state: AnswerState, e: AnswerEvent): AnswerState {
  if (e.id <= state.lastEventId) return state;
  const next = { ...state, lastEventId: e.id };
  switch (e.event) {
    case 'status':
      if (e.data.message && e.data.status === 'running') return { ...next, status: e.data.status, steps: [...next.steps, { type: 'notice', message: e.data.message }] };
      return { ...next, status: e.data.status };
    case 'thinking':
      return { ...next, thinking: next.thinking + e.data.text };
    case 'delta':
      return { ...next, answer: next.answer + e.data.text };
    case 'tool_call':
      return { ...next, steps: [...next.steps, { type: 'tool_call', ...e.data }] };
    case 'tool_result':
      return { ...next, steps: [...next.steps, { type: 'tool_result', ...e.data }] };
    case 'research_step':
      return { ...next, steps: [...next.steps, { type: 'research_step', ...e.data }] };
    case 'citation':
      if (next.citations.some((c) => c.n === e.data.n)) return next;
      return { ...next, citations: [...next.citations, e.data].sort((a, b) => a.n - b.n) };
    case 'done':
      return { ...next, status: e.data.status };
    case 'error':
      return { ...next, status: 'failed', error: e.data.message };
  }
}

/** Applies events in order to an answer (by default an empty one). */
export function foldAnswerEvents(events: Iterable<AnswerEvent>, from: AnswerState = emptyAnswer): AnswerState {
  let state = from;
  for (const e of events) state = foldAnswer(state, e);
  return state;
}
