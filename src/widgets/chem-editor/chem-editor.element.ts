import { createCsaiElement } from '../shared/element';
import { defineOnce } from '../shared/define-once';

/** The element's own attributes, beside the common ones (theme, lang, api-base, accent, radius). */
export const chemEditorAttributes = {
  opened: 'boolean',
  smiles: 'string',
  editorUrl: 'string',
} as const;

/**
 * The chemical editor dialog: Ketcher (ketcher-react with the standalone Indigo WebAssembly
 * service) in an iframe of the CSAI server, loaded only when the dialog first opens, so it works
 * inside any shadow root and on a foreign page without touching the page's styles. It waits for
 * Ketcher as SPEC §9 says (every 100 ms, up to 3000 times); "插入 SMILES" sends `csai-chem-smiles`
 * and closes, or says "获取SMILES失败" when no structure comes back. A SMILES can also be pasted
 * (loaded into the editor, or inserted as is when nothing is drawn).
 *
 * @tagname csai-chem-editor
 * @summary Chemical structure editor dialog (Ketcher) that returns a SMILES.
 *
 * @attr {boolean} opened - Whether the dialog is open; `open(smiles?)` sets it, closing (`close()`, Esc, cancel, insert) removes it.
 * @attr {string} smiles - The structure the editor starts with.
 * @attr {string} editor-url - URL of the editor page (default: the Ketcher page built next to this script).
 * @attr {string} api-base - Origin of the CSAI server (unused by this element; accepted like every element).
 * @attr {"light" | "dark"} theme - Colour scheme of the dialog; `light` when absent.
 * @attr {string} lang - Language of the texts: `zh` (default) or `en`.
 * @attr {string} accent - Accent colour (any CSS colour); overrides `--csai-accent` for this element.
 * @attr {string} radius - Corner radius (any CSS length); overrides `--csai-radius` for this element.
 *
 * @fires {CustomEvent<CsaiChemSmilesDetail>} csai-chem-smiles - The user inserted a structure: `{ smiles }`. Bubbles, composed.
 * @fires {CustomEvent<CsaiErrorDetail>} csai-error - The element's code failed to load (`load_failed`) or render (`render_failed`). Bubbles, composed.
 *
 * @csspart root - The themed wrapper of everything inside.
 * @csspart dialog - The modal dialog.
 * @csspart base - The dialog's content.
 * @csspart title - The dialog title.
 * @csspart close - The close button.
 * @csspart frame - The Ketcher iframe.
 * @csspart status - "Loading the editor" notice.
 * @csspart load-error - The editor failed to load.
 * @csspart paste - The paste-SMILES field.
 * @csspart paste-apply - Load the pasted SMILES into the editor.
 * @csspart error - "获取SMILES失败".
 * @csspart cancel - The cancel button.
 * @csspart insert - The insert button.
 *
 * @cssprop --csai-accent - Accent colour (insert button). Default `#2563eb`.
 * @cssprop --csai-radius - Corner radius. Default `0.5rem`.
 * @cssprop --csai-font - Font family.
 */
export class CsaiChemEditorElement extends createCsaiElement(chemEditorAttributes, () => import('./ChemEditor')) {
  /** Opens the dialog, optionally with a starting structure. */
  open(initialSmiles?: string): void {
    if (initialSmiles) this.setAttribute('smiles', initialSmiles);
    else this.removeAttribute('smiles');
    this.setAttribute('opened', '');
  }

  /** Closes the dialog without inserting anything. */
  close(): void {
    this.removeAttribute('opened');
  }
}

defineOnce('csai-chem-editor', CsaiChemEditorElement);

declare global {
  interface HTMLElementTagNameMap {
    'csai-chem-editor': CsaiChemEditorElement;
  }
}
