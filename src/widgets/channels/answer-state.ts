// The answer's SSE events as the conversation view reads them. The answer itself is the
// contract's fold (src/contract/answer-fold.ts) held by the core's answerModel.
import { answerEvent, type AnswerEvent } from '../../contract/channel';

/** The names of the answer's SSE events. */
export const ANSWER_EVENT_NAMES = ['status', 'thinking', 'delta', 'tool_call', 'tool_result', 'citation', 'research_step', 'done', 'error'] as const;

/** An SSE message as an answer event, or null when it is not one (parsed, never cast). */
export function parseEvent(type: string, lastEventId: string, data: string): AnswerEvent | null {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = answerEvent.safeParse({ id: Number(lastEventId), event: type, data: payload });
  return parsed.success ? parsed.data : null;
}
