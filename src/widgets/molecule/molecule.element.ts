import { createCsaiElement } from '../shared/element';
import { defineOnce } from '../shared/define-once';

/** The element's own attributes, beside the common ones (theme, lang, api-base, accent, radius). */
export const moleculeAttributes = {
  smiles: 'string',
  molKey: 'string',
  molfile: 'string',
  width: 'number',
  height: 'number',
  caption: 'boolean',
  hideCopy: 'boolean',
  highlightAtoms: 'string',
  highlightBonds: 'string',
} as const;

/**
 * A 2D chemical structure drawn by the server (`POST /api/v1/mol/draw_svg`, RDKit), from a SMILES,
 * a molfile or a molecule of a parsed SDF document (`mol-key`). Drawings are shared by every
 * element on the page; the SVG joins the page as parsed nodes, never as an HTML string. Failures
 * show inline in Chinese. Small: many of these appear in one answer.
 *
 * @tagname csai-molecule
 * @summary A 2D chemical structure with its formula and a copy-SMILES button.
 *
 * @attr {string} smiles - The structure as SMILES.
 * @attr {string} mol-key - A molecule of a parsed SDF document: `docId:index` (GET /api/v1/mol/get_mol_string).
 * @attr {string} molfile - The structure as a molfile (V2000/V3000 text); for long ones set the property `molfile`.
 * @attr {number} width - Drawing width in pixels (50–2000, default 240).
 * @attr {number} height - Drawing height in pixels (50–2000, default 180).
 * @attr {boolean} caption - Show the molecular formula under the drawing.
 * @attr {boolean} hide-copy - Hide the copy-SMILES button.
 * @attr {string} highlight-atoms - Atoms to highlight, comma-separated 0-based indices in the order of `smiles` (a substructure match).
 * @attr {string} highlight-bonds - Bonds to highlight, comma-separated 0-based indices in the order of `smiles`.
 * @attr {string} api-base - Origin of the CSAI server; the page's own origin when absent.
 * @attr {"light" | "dark"} theme - Colour scheme; `light` when absent.
 * @attr {string} lang - Language of the texts: `zh` (default) or `en`.
 * @attr {string} accent - Accent colour (any CSS colour); overrides `--csai-accent` for this element.
 * @attr {string} radius - Corner radius (any CSS length); overrides `--csai-radius` for this element.
 *
 * @fires {CustomEvent<CsaiErrorDetail>} csai-error - The drawing failed (the server's code such as `invalid_smiles`, `network_error`), or the element's code failed to load (`load_failed`) or render (`render_failed`). Bubbles, composed.
 *
 * @csspart root - The themed wrapper of everything inside.
 * @csspart base - The figure.
 * @csspart drawing - The box holding the SVG drawing.
 * @csspart caption - The line under the drawing.
 * @csspart formula - The molecular formula.
 * @csspart copy - The copy-SMILES button.
 * @csspart status - The "drawing…" notice.
 * @csspart error - The failure notice.
 *
 * @cssprop --csai-accent - Accent colour (focus ring). Default `#2563eb`.
 * @cssprop --csai-radius - Corner radius of the drawing box. Default `0.5rem`.
 * @cssprop --csai-font - Font family.
 */
export class CsaiMoleculeElement extends createCsaiElement(moleculeAttributes, () => import('./Molecule')) {}

defineOnce('csai-molecule', CsaiMoleculeElement);

declare global {
  interface HTMLElementTagNameMap {
    'csai-molecule': CsaiMoleculeElement;
  }
}
