/** A message of a plain chat completion (deep research plans and writes with these). */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A plain streamed completion: text and reasoning go to the handlers as they come; resolves with the whole text. */
export type ChatCompletion = (
  request: { messages: ChatMessage[]; thinking: boolean; signal: AbortSignal },
  on: { content?(text: string): void; reasoning?(text: string): void },
) => Promise<string>;
