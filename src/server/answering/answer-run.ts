import type { FastifyBaseLogger } from 'fastify';
import type { AnswerEventWriter, NewAnswerEvent } from './events';

/** One answer being written: events go out in order; once closed (finished, stopped, deleted) nothing more is written. */
export class AnswerRun {
  closed = false;
  readonly controller = new AbortController();
  private ended: Promise<unknown> | undefined;

  constructor(
    readonly questionId: string,
    readonly userId: string,
    private readonly writer: AnswerEventWriter,
    private readonly log: FastifyBaseLogger,
  ) {}

  emit(event: NewAnswerEvent) {
    if (this.closed) return;
    // Handed to the writer at once (it keeps each question's order and stores events waiting
    // together in one batch); `close` waits until it has stored them all.
    this.writer.push(this.questionId, event, (err) => this.log.warn({ err, questionId: this.questionId }, 'answer event not stored'));
  }

  /** Closes the run (no event after this one is written) and runs `last` after the events already sent. */
  close(last?: () => Promise<void>): Promise<unknown> {
    if (this.ended) return this.ended;
    this.closed = true;
    this.controller.abort();
    const drained = this.writer.drained(this.questionId);
    this.ended = last ? drained.then(last).catch((err: unknown) => this.log.error({ err, questionId: this.questionId }, 'answer not finalised')) : drained;
    return this.ended;
  }
}

/** The runs of this process, by question. */
export type Runs = Map<string, AnswerRun>;
