// `askElement.ask(question)` reaches the React view through this tiny queue: the method may be
// called before the view's code has loaded (the home page's example questions), so questions
// wait here until the view listens. Shared by the element shell and the lazily loaded view.
const pending = new WeakMap<HTMLElement, string[]>();
const listeners = new WeakMap<HTMLElement, (question: string) => void>();

/** Hands a question to the element's view, now or as soon as it listens. */
export function requestAsk(host: HTMLElement, question: string): void {
  const listener = listeners.get(host);
  if (listener) listener(question);
  else pending.set(host, [...(pending.get(host) ?? []), question]);
}

/** The view listens for questions (queued ones are delivered at once); returns the unsubscribe. */
export function onAskRequest(host: HTMLElement, listener: (question: string) => void): () => void {
  listeners.set(host, listener);
  const queued = pending.get(host) ?? [];
  pending.delete(host);
  for (const q of queued) listener(q);
  return () => {
    if (listeners.get(host) === listener) listeners.delete(host);
  };
}
