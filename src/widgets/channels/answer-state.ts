// An answer as the conversation view holds it: the persisted question, then every SSE event
// applied in order (DESIGN §3). Pure functions, shared by the history and the live stream.
import { type AnswerEvent, type AnswerStatus, type AnswerStep, type Citation, type Question } from '../../contract/channel';

/** What the view shows of one answer. */
export interface AnswerState {
  status: AnswerStatus;
  answer: string;
  thinking: string;
  steps: AnswerStep[];
  citations: Citation[];
  error: string | null;
  /** The newest event applied; later events only. */
  lastEventId: number;
}

/** The answer as stored: the starting point before subscribing (a reload starts here). */
export function fromQuestion(q: Question): AnswerState {
  return { status: q.status, answer: q.answer, thinking: q.thinking, steps: q.steps, citations: q.citations, error: q.error, lastEventId: q.last_event_id };
}

/** Whether an answer may still change (its stream is worth following). */
export const isLive = (status: AnswerStatus) => status === 'queued' || status === 'running';

/** Applies one event; events at or before `lastEventId` are ignored (a resumed stream may repeat). */
export function applyEvent(state: AnswerState, e: AnswerEvent): AnswerState {
  if (e.id <= state.lastEventId) return state;
  const next = { ...state, lastEventId: e.id };
  switch (e.event) {
    case 'status':
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
      return { ...next, citations: [...next.citations.filter((c) => c.n !== e.data.n), e.data].sort((a, b) => a.n - b.n) };
    case 'done':
      return { ...next, status: e.data.status };
    case 'error':
      return { ...next, status: 'failed', error: e.data.message };
  }
}
