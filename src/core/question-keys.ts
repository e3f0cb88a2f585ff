/** SPEC §5: what a key press in the question box does. */
export type QuestionKeyAction = 'send' | 'newline' | 'none';

/** SPEC §5: Enter sends; Shift+Enter and Ctrl+Enter add a newline; nothing is sent while composing. */
export function questionKeyAction(event: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'isComposing'>): QuestionKeyAction {
  if (event.key !== 'Enter') return 'none';
  if (event.isComposing) return 'none';
  if (event.shiftKey || event.ctrlKey) return 'newline';
  return 'send';
}
