import { createCsaiElement } from '../shared/element';
import { defineOnce } from '../shared/define-once';

/** The element's own attributes, beside the common ones (theme, lang, api-base, accent, radius). */
export const molecule3dAttributes = {
  pdbId: 'string',
  docId: 'string',
  molKey: 'string',
  taskId: 'string',
  pose: 'number',
  representation: 'string',
  spin: 'boolean',
} as const;

/**
 * A 3D structure in 3Dmol.js: a PDB entry (`pdb-id`: the user's PDB document or a configured
 * mirror), a PDB or SDF document of the knowledge base (`doc-id`), or one molecule of a parsed
 * SDF (`mol-key`), or a docking task's receptor with one of its poses (`task-id`, `pose`). Cartoon / stick / sphere styles, ligand focus (hetero residues other than
 * water), reset and spin. 3Dmol (and WebGL) load only when the element is used; without WebGL
 * it says so in Chinese.
 *
 * @tagname csai-molecule-3d
 * @summary 3D viewer of PDB and SDF structures with styles and ligand focus.
 *
 * @attr {string} pdb-id - A PDB id (e.g. `1CRN`) or the id of one of the user's PDB documents (GET /api/v1/mol/get_pdb_string).
 * @attr {string} doc-id - A PDB (type 6) or SDF (type 5) document of the knowledge base.
 * @attr {string} mol-key - A molecule of a parsed SDF document: `docId:index`.
 * @attr {string} task-id - One of the user's docking tasks (GET /api/v1/tasks/{id}/download): its receptor with a docked pose.
 * @attr {number} pose - With `task-id`: which pose to show, from 1 (the best); 1 when absent, unreadable or below 1; a fraction counts as its whole part, a number past the last pose as the last.
 * @attr {"cartoon" | "stick" | "sphere"} representation - The first style; cartoon for PDB and stick for SDF when absent.
 * @attr {boolean} spin - Start spinning.
 * @attr {string} api-base - Origin of the CSAI server; the page's own origin when absent.
 * @attr {"light" | "dark"} theme - Colour scheme of the controls; `light` when absent.
 * @attr {string} lang - Language of the texts: `zh` (default) or `en`.
 * @attr {string} accent - Accent colour (any CSS colour); overrides `--csai-accent` for this element.
 * @attr {string} radius - Corner radius (any CSS length); overrides `--csai-radius` for this element.
 *
 * @fires {CustomEvent<CsaiErrorDetail>} csai-error - The structure failed to load (the server's code, `network_error`, `webgl_missing`), or the element's code failed to load (`load_failed`) or render (`render_failed`). Bubbles, composed.
 *
 * @csspart root - The themed wrapper of everything inside.
 * @csspart base - The viewer (toolbar and canvas).
 * @csspart toolbar - The controls.
 * @csspart style - The style selector.
 * @csspart ligand - Focus the ligand button (PDB only; disabled without a ligand).
 * @csspart reset - Reset the view button.
 * @csspart spin - Spin toggle.
 * @csspart atoms - The atom count.
 * @csspart canvas - The box 3Dmol draws in; with `task-id`, its `data-pose` is the pose drawn (from 1).
 * @csspart status - The loading notice.
 * @csspart error - The failure notice.
 *
 * @cssprop --csai-accent - Accent colour (pressed spin button, focus ring). Default `#2563eb`.
 * @cssprop --csai-radius - Corner radius. Default `0.5rem`.
 * @cssprop --csai-font - Font family.
 */
export class CsaiMolecule3dElement extends createCsaiElement(molecule3dAttributes, () => import('./Molecule3d')) {}

defineOnce('csai-molecule-3d', CsaiMolecule3dElement);

declare global {
  interface HTMLElementTagNameMap {
    'csai-molecule-3d': CsaiMolecule3dElement;
  }
}
