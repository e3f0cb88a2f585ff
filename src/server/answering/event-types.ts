import type { AnswerEvent } from '../../contract/channel';

/** An event before it is stored (the store gives it its id): what the local log and the shared log append. */
export type NewAnswerEvent = AnswerEvent extends infer E ? (E extends AnswerEvent ? Omit<E, 'id'> : never) : never;
