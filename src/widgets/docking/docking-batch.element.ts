import { createCsaiElement } from '../shared/element';
import { defineOnce } from '../shared/define-once';

/** The element's own attributes, beside the common ones (theme, lang, api-base, accent, radius). */
export const dockingBatchAttributes = { moleculeIds: 'string', receptor: 'string' } as const;

/**
 * Batch docking: a form for up to 50 molecules — a SMILES list (one a line, optionally
 * a name), an SDF file, or the molecules of a molecule search (`molecule-ids`) — with the receptor,
 * the search box and the settings of a single docking; once submitted, the batch's table ranked by
 * Vina score, updated as molecules finish, with cancel all and CSV/SDF downloads. The signed-in
 * user's batch (cookie session). The React view loads on first use.
 *
 * @tagname csai-docking-batch
 * @summary Batch docking: submission form and ranked table.
 *
 * @attr {string} api-base - Origin of the CSAI server, e.g. `https://csai.example.com`; the page's own origin when absent.
 * @attr {"light" | "dark"} theme - Colour scheme; `light` when absent.
 * @attr {string} lang - Language of the texts: `zh` (default) or `en`, any region subtag accepted.
 * @attr {string} accent - Accent colour (any CSS colour); overrides `--csai-accent` for this element.
 * @attr {string} radius - Corner radius (any CSS length); overrides `--csai-radius` for this element.
 * @attr {string} molecule-ids - Comma-separated `molecule_id`s of molecule-search hits: the form docks these (more than 50 are refused with the limit message).
 * @attr {string} receptor - Receptor filled in at first: a PDB code (e.g. `5DPV`) or a PDB document id.
 *
 * @fires {CustomEvent<CsaiErrorDetail>} csai-error - A call failed (network, server error or unreadable answer), or the element's code failed to load (`load_failed`) or to render (`render_failed`). Bubbles, composed.
 *
 * @csspart root - The themed wrapper of everything inside.
 * @csspart docking-batch-form - The submission form.
 * @csspart docking-batch-smiles - The SMILES list.
 * @csspart docking-batch-sdf - The SDF file input.
 * @csspart docking-batch-searched - The line naming the molecule-search molecules being docked.
 * @csspart docking-batch-receptor - The receptor input.
 * @csspart docking-batch-error - What is wrong with the form, or the server's refusal.
 * @csspart docking-batch-submit - The submit button.
 * @csspart docking-batch - The submitted batch: state, progress, cancel all, the ranked table and downloads.
 * @csspart docking-batch-table - The ranked table.
 * @csspart error - The notice shown instead of the content when the element failed to render.
 *
 * @cssprop --csai-accent - Accent colour (submit button). Default `#2563eb`.
 * @cssprop --csai-radius - Corner radius. Default `0.5rem`.
 * @cssprop --csai-font - Font family. Default: the system UI font with Chinese fallbacks.
 * @cssprop --csai-surface - Background in the light theme (`--csai-surface-dark` in the dark one).
 * @cssprop --csai-ink - Text colour in the light theme (`--csai-ink-dark` in the dark one).
 */
export class CsaiDockingBatchElement extends createCsaiElement(dockingBatchAttributes, () => import('./DockingBatch')) {}

defineOnce('csai-docking-batch', CsaiDockingBatchElement);

declare global {
  interface HTMLElementTagNameMap {
    'csai-docking-batch': CsaiDockingBatchElement;
  }
}
