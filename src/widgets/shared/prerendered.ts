// A server-rendered copy of an element's view (home's first paint, see src/host/first-paint.tsx):
// a declarative shadow root holding the view's markup, marked `data-csai-prerendered`, that the
// browser shows before any script runs. The live view renders beside it and takes it over.

/** The attribute marking the static copy inside a shadow root. */
export const PRERENDERED_ATTR = 'data-csai-prerendered';

/** The static copy's parts: its markup and its style element (`:scope` matches nothing in a shadow root). */
const copyParts = (root: ShadowRoot) => [...root.children].filter((el) => el.hasAttribute(PRERENDERED_ATTR));

/**
 * Takes the static copy over once the live view has committed (call it from a layout effect, so
 * no frame shows both): what was typed into the copy's text area moves into `live` (through
 * `setText`, the view's own state), with the caret and focus where they were, and the copy goes.
 */
export function takeOverPrerendered(root: ShadowRoot, live: HTMLTextAreaElement | null, setText: (text: string) => void): void {
  const parts = copyParts(root);
  if (!parts.length) return;
  const typed = parts.map((p) => p.querySelector('textarea')).find((t) => t !== null) ?? null;
  const focused = !!typed && root.activeElement === typed;
  for (const part of parts) part.remove();
  if (!typed || !live) return;
  if (typed.value) {
    live.value = typed.value;
    setText(typed.value);
  }
  if (focused) {
    live.focus({ preventScroll: true });
    live.setSelectionRange(typed.selectionStart, typed.selectionEnd, typed.selectionDirection);
  }
}
