// Home's server-rendered first paint in the browser. For a signed-in `/`, the server sends, beside
// the empty #root, a static copy of home's first frame (src/host/first-paint.tsx): the shell, the
// heading and a <csai-ask> whose declarative shadow root holds the question box, so the user can
// read and type before any script runs. #root stays hidden while the copy is there (theme.css);
// home's first render takes the <csai-ask> over (its typed text goes with it) and drops the rest.

import { questionKeyAction } from '../../core/question-keys';
import { PRERENDERED_ATTR } from '../../widgets/shared/prerendered';

/** The id of the static copy's container. */
export const FIRST_PAINT_ID = 'first-paint';

/** The element `tag` of the static copy, while the copy is on the page. */
export function firstPaintElement(tag: string): HTMLElement | null {
  if (typeof document === 'undefined') return null;
  return document.getElementById(FIRST_PAINT_ID)?.querySelector<HTMLElement>(tag) ?? null;
}

/**
 * Settles once the live view inside `element` has taken its static copy over (no part of the copy
 * left in its shadow root), or after `limitMs` (a view whose code does not arrive).
 */
export function copyTakenOver(element: HTMLElement, limitMs: number): Promise<void> {
  const root = element.shadowRoot;
  const left = () => !!root && [...root.children].some((el) => el.hasAttribute(PRERENDERED_ATTR));
  if (!left()) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!left()) done();
    });
    const timer = window.setTimeout(() => done(), limitMs);
    const done = () => {
      observer.disconnect();
      window.clearTimeout(timer);
      resolve();
    };
    observer.observe(root!, { childList: true });
  });
}

/** Removes the static copy (the page rendered by React shows from then on). */
export function dropFirstPaint(): void {
  document.getElementById(FIRST_PAINT_ID)?.remove();
}

/** The question box's element as the page's code sees it. */
interface AskElement extends HTMLElement {
  ask(question: string): void;
}

/**
 * Sends from the static copy as the live box does, from the page's first module on (SPEC §5's keys:
 * Shift+Enter and Ctrl+Enter add a line): Enter or the send button asks the question through the element's
 * `ask()` (which waits for the box's code), instead of the form's fallback (a GET that puts the
 * text back in the box).
 */
export function sendFromFirstPaint(): void {
  const element = firstPaintElement('csai-ask');
  const form = element?.shadowRoot?.querySelector('form');
  const input = form?.querySelector('textarea');
  if (!element || !form || !input) return;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const question = input.value;
    if (!question.trim()) return;
    input.value = '';
    void customElements.whenDefined('csai-ask').then(() => (element as AskElement).ask(question));
  });
  input.addEventListener('keydown', (event) => {
    const action = questionKeyAction({ key: event.key, shiftKey: event.shiftKey, ctrlKey: event.ctrlKey, isComposing: event.isComposing || event.keyCode === 229 });
    if (action === 'none') return;
    event.preventDefault();
    if (action === 'send') form.requestSubmit();
    else input.setRangeText('\n', input.selectionStart, input.selectionEnd, 'end');
  });
}
