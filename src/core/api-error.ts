// The failure every API call ends in and what the answer stream hands its reader: a leaf module, so
// the client (api.ts) and the stream reader it loads on demand (answer-stream.ts) share them
// without importing each other.
import type { AnswerEvent } from '../contract/channel';

/**
 * A failed call: HTTP status (0 when the network failed), the server's message and code, and
 * the URL asked. Every failure of the API client (`createApiClient`) is one of these.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly url: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** One answer's event stream, as the client's `answerEvents` delivers it. */
export interface AnswerStreamHandlers {
  /** Each event parsed with the contract, in order, none repeated after a reconnection. */
  onEvent(event: AnswerEvent): void;
  /** The stream is over: after `done`/`error`, or a failed request (`error` set; already reported). */
  onEnd?(error?: ApiError): void;
}
