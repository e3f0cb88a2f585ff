import { createCsaiElement } from '../shared/element';
import { defineOnce } from '../shared/define-once';
import { requestAsk } from './ask-request';

/** The element's own attributes, beside the common ones (theme, lang, api-base, accent, radius). */
export const askAttributes = { channelId: 'string', navigate: 'string' } as const;

/**
 * The question box (SPEC §2, §4, §5): Files and Knowledge tabs with chips, drag and drop, pasted
 * images as files, uploads into the question folder with progress and parse polling, the
 * thinking / deep research / online search / tools toggles and search type, the chemical
 * editor, and the submit flow. After sending it opens the conversation on the CSAI site.
 *
 * @tagname csai-ask
 * @summary The question box: ask with files or knowledge bases as context.
 *
 * @attr {string} api-base - Origin of the CSAI server, e.g. `https://csai.example.com`; the page's own origin when absent.
 * @attr {"light" | "dark"} theme - Colour scheme; `light` when absent.
 * @attr {string} lang - Language of the texts: `zh` (default) or `en`, any region subtag accepted. SPEC messages stay Chinese.
 * @attr {string} accent - Accent colour (any CSS colour); overrides `--csai-accent` for this element.
 * @attr {string} radius - Corner radius (any CSS length); overrides `--csai-radius` for this element.
 * @attr {string} channel-id - Ask in this channel (a follow-up); absent: a channel named after the question is created first.
 * @attr {string} navigate - `"false"`: after sending, only emit `csai-submitted` (and show the answering state with a stop button); otherwise open `/channels?channel_id=…&closeSider=true`.
 *
 * @fires {CustomEvent<CsaiSubmittedDetail>} csai-submitted - A question was sent: `{ channelId, questionId }`. Bubbles, composed.
 * @fires {CustomEvent<CsaiNavigateDetail>} csai-navigate - About to open the conversation: `{ path, url }`; cancelable (call `preventDefault()` to route yourself). Bubbles, composed.
 * @fires {CustomEvent<CsaiErrorDetail>} csai-error - Creating the channel, sending or uploading failed (`code` from the server, `upload_failed`), or the element's code failed to load (`load_failed`) or render (`render_failed`). Bubbles, composed.
 *
 * @csspart root - The themed wrapper of everything inside.
 * @csspart base - The box.
 * @csspart tabs - The Files / Knowledge tab list; each tab is `tab` (`tab-files`, `tab-knowledge`).
 * @csspart files - The Files panel; `upload` is its button, `upload-total` the batch progress.
 * @csspart knowledge - The knowledge-base picker; each entry is `kb-option`.
 * @csspart chips - The chosen files and knowledge bases; each is `chip` (`file-chip` with `data-phase`, or `kb-chip`), its state `chip-status`.
 * @csspart input - The question text area.
 * @csspart message - A validation message (SPEC §5).
 * @csspart retry - "重新发送": sends again a question whose channel creation or sending failed.
 * @csspart toolbar - The toggles and buttons; each toggle is `toggle` (`toggle-thinking`, `toggle-deep-research`, `toggle-online`, `toggle-tools`), with `aria-pressed`.
 * @csspart tools-panel - The tools hover panel; groups are `tool-group`, tools `tool`.
 * @csspart search-type - The search type select.
 * @csspart chem-editor - The button opening the chemical editor.
 * @csspart send - The send button.
 * @csspart stop - The stop button shown while the question is answered.
 * @csspart spinner - The answering indicator.
 * @csspart deep-research-hint - The duration hint of deep research.
 * @csspart smiles-hint - Valid molecules proposed for a malformed SMILES being typed (POST /api/v1/mol/smiles_completion).
 * @csspart smiles-hint-candidate - One proposed molecule; choosing it replaces the typed SMILES.
 * @csspart smiles-hint-dismiss - Closes the SMILES proposals.
 * @csspart toasts - Notifications on foreign pages; each is `toast`.
 * @csspart error - The notice shown instead of the content when the element failed to render.
 *
 * @cssprop --csai-accent - Accent colour. Default `#2563eb`.
 * @cssprop --csai-radius - Corner radius. Default `0.5rem`.
 * @cssprop --csai-font - Font family.
 * @cssprop --csai-surface - Background in the light theme (`--csai-surface-dark` in the dark one).
 * @cssprop --csai-ink - Text colour in the light theme (`--csai-ink-dark` in the dark one).
 */
export class CsaiAskElement extends createCsaiElement(askAttributes, () => import('./Ask')) {
  /**
   * Asks `question` at once, as if typed and sent (the home page's example questions). Works
   * before the element's code has loaded: the question waits for it.
   */
  ask(question: string): void {
    requestAsk(this, question);
  }
}

defineOnce('csai-ask', CsaiAskElement);

declare global {
  interface HTMLElementTagNameMap {
    'csai-ask': CsaiAskElement;
  }
}
