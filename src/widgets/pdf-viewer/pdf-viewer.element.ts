import { createCsaiElement } from '../shared/element';
import { defineOnce } from '../shared/define-once';

/** The longest the view's code waits for the document's bytes to reach pdf.js (prefetch.ts). */
const OPENING_WAIT_MS = 300;
/** The latest connection's prefetch call (the view's loader runs after it). */
let prefetching: Promise<void> = Promise.resolve();

/** The element's own attributes, beside the common ones (theme, lang, api-base, accent, radius). */
export const pdfViewerAttributes = {
  docId: 'string',
  ifImg: 'boolean',
  downloadUrl: 'string',
  downloadKey: 'string',
  page: 'number',
  highlight: 'string',
  structureId: 'number',
} as const;

/**
 * A document of the knowledge base: PDF pages rendered lazily with pdf.js (selectable text, page
 * navigation, zoom and fit, search with next/previous, the outline when the PDF has one, the
 * parsed markdown beside the pages, download) or an image document with zoom. The structures
 * recognised in a PDF's drawings are outlined on their pages (a toolbar toggle hides them); a click
 * opens the review panel: the drawing beside the molecule read from it, its label, confidence and
 * method, and a correction (chemical editor or SMILES) any reader of the document may save. Opened from a
 * citation (`page` plus `highlight`), it scrolls to the cited box and outlines it. Keys inside the
 * pages: ←/→ (or p/n) previous/next page, Home/End, +/− zoom, Ctrl+F search. The code (pdf.js
 * included) loads on first use.
 *
 * @tagname csai-pdf-viewer
 * @summary PDF and image document viewer with search, outline, parsed text and citation highlight.
 *
 * @attr {string} doc-id - The document's id (SPEC `docId`).
 * @attr {boolean} if-img - Show the document as an image (SPEC `if_img`); image documents (type 3) are detected without it.
 * @attr {string} download-url - The API path of the file (SPEC `download_url`, e.g. `/api/v1/knowledge_base/download/…`); only paths under `/api/v1/` are used.
 * @attr {string} download-key - The document key (SPEC `download_key`); used as the id when `doc-id` is absent.
 * @attr {number} page - Page (1-based) to open at.
 * @attr {string} highlight - Box of a cited passage on `page` in PDF points, origin bottom-left: `"x0,y0,x1,y1"`, a JSON array or `{"bbox":[…]}`.
 * @attr {number} structure-id - A structure recognised in the document's drawings (GET …/doc/{id}/structures) to open in the review panel.
 * @attr {string} api-base - Origin of the CSAI server; the page's own origin when absent.
 * @attr {"light" | "dark"} theme - Colour scheme; `light` when absent.
 * @attr {string} lang - Language of the texts: `zh` (default) or `en`.
 * @attr {string} accent - Accent colour (any CSS colour); overrides `--csai-accent` for this element.
 * @attr {string} radius - Corner radius (any CSS length); overrides `--csai-radius` for this element.
 *
 * @fires {CustomEvent<CsaiErrorDetail>} csai-error - Loading, the parsed text or the download failed (the server's code, `network_error`, `pdf_failed`), or the element's code failed to load (`load_failed`) or render (`render_failed`). Bubbles, composed.
 *
 * @csspart root - The themed wrapper of everything inside.
 * @csspart base - The viewer (toolbar and content).
 * @csspart toolbar - The toolbar.
 * @csspart prev - Previous page button.
 * @csspart next - Next page button.
 * @csspart page-input - The page number field.
 * @csspart page-count - The page count.
 * @csspart zoom-in - Zoom in button.
 * @csspart zoom-out - Zoom out button.
 * @csspart zoom-level - The zoom percentage.
 * @csspart fit-width - Fit width button.
 * @csspart fit-page - Fit page button.
 * @csspart search-input - The search field.
 * @csspart search-prev - Previous match button.
 * @csspart search-next - Next match button.
 * @csspart search-status - Match count or "no matches".
 * @csspart search-match - A highlighted match (`search-match-current` on the current one).
 * @csspart outline-toggle - Show/hide the outline button (only when the PDF has an outline).
 * @csspart outline - The outline panel.
 * @csspart markdown-toggle - Show/hide the parsed text button.
 * @csspart markdown - The parsed text panel.
 * @csspart download - The download button.
 * @csspart download-error - The download failure message.
 * @csspart pages - The scrolling column of pages.
 * @csspart page - One page (`data-page-number`, `data-rendered`).
 * @csspart citation - The outline of the cited box.
 * @csspart structures-toggle - Show/hide the boxes of recognised structures (only when the document has some).
 * @csspart structure-box - The box of a recognised structure on its page (`data-structure-id`; `structure-box-selected` on the open one).
 * @csspart structure-panel - The review panel of the open structure.
 * @csspart structure-drawing - The drawing as rendered on its page.
 * @csspart structure-molecule - The molecule read from the drawing (or its correction).
 * @csspart structure-label - The structure's compound label.
 * @csspart structure-confidence - The recognition's confidence.
 * @csspart structure-method - How the structure was read.
 * @csspart structure-smiles - The structure's SMILES (the correction when there is one).
 * @csspart structure-recognised - The SMILES recognised before a correction.
 * @csspart structure-corrected-by - Who corrected the structure, and when.
 * @csspart structure-edit - Opens the chemical editor at the structure.
 * @csspart structure-smiles-input - The corrected structure typed as SMILES.
 * @csspart structure-save - Saves the typed SMILES.
 * @csspart structure-error - The server's message for a structure it refuses.
 * @csspart structure-saved - The correction was saved.
 * @csspart structure-close - Closes the review panel.
 * @csspart structure-page - Goes to the drawing's page.
 * @csspart image-view - The scrolling area of an image document.
 * @csspart image - The image of an image document.
 * @csspart status - Loading or "cannot preview" notice.
 * @csspart error - The failure notice.
 *
 * @cssprop --csai-accent - Accent colour (pressed buttons, citation outline). Default `#2563eb`.
 * @cssprop --csai-radius - Corner radius of the controls. Default `0.5rem`.
 * @cssprop --csai-font - Font family.
 * @cssprop --csai-surface - Background in the light theme (`--csai-surface-dark` in the dark one).
 * @cssprop --csai-ink - Text colour in the light theme (`--csai-ink-dark` in the dark one).
 */
export class CsaiPdfViewerElement extends createCsaiElement(
  pdfViewerAttributes,
  // The view's code (a dozen files) is asked for once the prefetch has asked for the document,
  // its worker and pdf.js (they go first to the server), and runs once the bytes are on their
  // way to pdf.js's worker (at most a moment later; the element is empty meanwhile).
  () =>
    prefetching
      .then(() => import('./prefetch'))
      .then((m) => m.whenOpening(OPENING_WAIT_MS))
      .then(() => import('./PdfViewer')),
  // The document's record, bytes and pdf.js start at once, beside the view's code (prefetch.ts).
  // (Connection runs this before the view loads: the view's loader waits for it.)
  (host) => {
    prefetching = import('./prefetch').then((m) => m.prefetch(host), () => undefined);
  },
) {}

defineOnce('csai-pdf-viewer', CsaiPdfViewerElement);

declare global {
  interface HTMLElementTagNameMap {
    'csai-pdf-viewer': CsaiPdfViewerElement;
  }
}
