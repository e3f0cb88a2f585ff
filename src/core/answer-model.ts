// One answer as the conversation view follows it: the answer as the server gave it with its
// question, then the events that follow, folded by the contract's one reducer (foldAnswer).
// No network here: whoever reads the event stream hands the events to `apply`.
import { computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { answerOf, emptyAnswer, foldAnswer, isLiveAnswer, type AnswerState } from '../contract/answer-fold';
import type { AnswerEvent, Question } from '../contract/channel';

/** The state of one answer and the verbs that move it. */
export interface AnswerModel {
  readonly questionId: string;
  /** The answer so far. */
  readonly $state: ReadonlySignal<AnswerState>;
  /** Whether it may still change (queued or running): its event stream is worth following. */
  readonly $live: ReadonlySignal<boolean>;
  /** The id of the newest event applied (send it as Last-Event-ID to resume). */
  readonly $lastEventId: ReadonlySignal<number>;
  /** Applies events in order; events already applied (a resumed stream repeats some) change nothing. */
  apply(events: AnswerEvent | Iterable<AnswerEvent>): void;
  /** Starts again from the question as the server gave it (a reload, a refreshed page), or from nothing. */
  reset(from?: Question | AnswerState): void;
}

const isQuestion = (v: Question | AnswerState): v is Question => 'question_id' in v;

/**
 * The model of the answer to `questionId`.
 *
 * @example
 * const answer = answerModel(q.question_id);
 * answer.reset(q);
 * answer.apply(event); // for each event of the stream after q.last_event_id
 * answer.$state.value.answer;
 */
export function answerModel(questionId: string): AnswerModel {
  const $folded = signal<AnswerState>(emptyAnswer);
  const $state = computed(() => $folded.value);
  return {
    questionId,
    $state,
    $live: computed(() => isLiveAnswer($state.value.status)),
    $lastEventId: computed(() => $state.value.lastEventId),
    apply(events) {
      const list = Symbol.iterator in events ? events : [events];
      let state = $folded.peek();
      for (const e of list) state = foldAnswer(state, e);
      $folded.value = state;
    },
    reset(from) {
      if (from && isQuestion(from) && from.question_id !== questionId) throw new Error(`answerModel(${questionId}) reset with question ${from.question_id}`);
      $folded.value = !from ? emptyAnswer : isQuestion(from) ? answerOf(from) : from;
    },
  };
}
