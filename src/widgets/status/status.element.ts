import { createCsaiElement } from '../shared/element';
import { defineOnce } from '../shared/define-once';

/** The element's own attributes, beside the common ones (theme, lang, api-base, accent, radius). */
export const statusAttributes = { compact: 'boolean' } as const;

/**
 * Shows whether the CSAI server can be reached and, when the server has one, its banner notice
 * coloured by type. The banner is hidden when its call fails. The React view loads on first use.
 *
 * @tagname csai-status
 * @summary Server reachability and the server banner.
 *
 * @attr {string} api-base - Origin of the CSAI server, e.g. `https://csai.example.com`; the page's own origin when absent.
 * @attr {"light" | "dark"} theme - Colour scheme; `light` when absent.
 * @attr {string} lang - Language of the texts: `zh` (default) or `en`, any region subtag accepted.
 * @attr {string} accent - Accent colour (any CSS colour); overrides `--csai-accent` for this element.
 * @attr {string} radius - Corner radius (any CSS length); overrides `--csai-radius` for this element.
 * @attr {boolean} compact - Only the coloured dot; the words stay readable by screen readers. Present or `"true"` means on, `"false"` off.
 *
 * @fires {CustomEvent<CsaiErrorDetail>} csai-error - The ping failed (network, server error or unreadable answer: code `network_error`, `unexpected_response` or the server's code, with `status`), or the element's code failed to load (`load_failed`) or to render (`render_failed`). Bubbles, composed.
 * @fires {CustomEvent<CsaiStatusChangeDetail>} csai-status-change - Reachability became known: `{ online, version? }`. Bubbles, composed.
 *
 * @csspart root - The themed wrapper of everything inside.
 * @csspart base - The column holding the pill and the banner.
 * @csspart pill - The reachability pill (`data-state` is `checking`, `online` or `offline`).
 * @csspart indicator - The coloured dot.
 * @csspart product - The product name.
 * @csspart label - The reachability text.
 * @csspart banner - The server banner (`data-type` is `info`, `success`, `warning` or `error`).
 * @csspart error - The notice shown instead of the content when the element failed to render.
 *
 * @cssprop --csai-accent - Accent colour (product name). Default `#2563eb`.
 * @cssprop --csai-accent-dark - Accent colour in the dark theme. Default: `--csai-accent`, else `#60a5fa`.
 * @cssprop --csai-radius - Corner radius of the pill and the banner. Default `0.5rem`.
 * @cssprop --csai-font - Font family. Default: the system UI font with Chinese fallbacks.
 * @cssprop --csai-surface - Background in the light theme (`--csai-surface-dark` in the dark one).
 * @cssprop --csai-ink - Text colour in the light theme (`--csai-ink-dark` in the dark one).
 */
export class CsaiStatusElement extends createCsaiElement(statusAttributes, () => import('./Status')) {}

defineOnce('csai-status', CsaiStatusElement);

declare global {
  interface HTMLElementTagNameMap {
    'csai-status': CsaiStatusElement;
  }
}
