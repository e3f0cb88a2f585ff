import { createCsaiElement } from '../shared/element';
import { defineOnce } from '../shared/define-once';

/** The element's own attributes, beside the common ones (theme, lang, api-base, accent, radius). */
export const knowledgeAttributes = { view: 'string' } as const;

/**
 * The knowledge bases of the signed-in user: folders (mine, shared with me, public) in a sidebar
 * and the chosen folder's documents in the main pane, with upload (click or drop; per-file
 * progress), parse status, search, pages, sharing, move, copy, download, translation, use in a
 * question and the viewer. The sidebar also opens the documents shared with me one by one
 * (与我共享) and all my documents (全部文档); Enter in its search opens my folder of that exact
 * name. The
 * parts share the page's status store (folder_id, folder_name, folder_file_count, now_knowledge),
 * so `sidebar_content` and `main_list` placed apart still work together.
 *
 * @tagname csai-knowledge
 * @summary Knowledge bases: folders, documents, uploads, parsing, sharing.
 *
 * @attr {"main_list" | "main_blank" | "sidebar_header" | "sidebar_content" | "public"} view - Which part to show: `main_list` (or absent) the whole two-pane view, `public` the same limited to public folders, the others only that part.
 * @attr {string} api-base - Origin of the CSAI server, e.g. `https://csai.example.com`; the page's own origin when absent.
 * @attr {"light" | "dark"} theme - Colour scheme; `light` when absent.
 * @attr {string} lang - Language of the texts: `zh` (default) or `en`, any region subtag accepted.
 * @attr {string} accent - Accent colour (any CSS colour); overrides `--csai-accent` for this element.
 * @attr {string} radius - Corner radius (any CSS length); overrides `--csai-radius` for this element.
 *
 * @fires {CustomEvent<CsaiErrorDetail>} csai-error - A call failed (the server's message and code, with `status`), a file was refused by the SPEC §5 rules (`invalid_file`), an upload needs a sign-in (`need_login`), or the element's code failed to load (`load_failed`) or to render (`render_failed`). Bubbles, composed.
 * @fires {CustomEvent<CsaiNavigateDetail>} csai-navigate - The element wants to open a page of the product: `path` site-relative (`/pdf_viewer?docId=…&if_img=…`, `/auth/sign-in`, `/?docIds=…` after "用于提问"), `url` absolute on the CSAI server. Cancelable: call `preventDefault()` to route it yourself; otherwise the page navigates to it. Bubbles, composed.
 *
 * @csspart root - The themed wrapper of everything inside.
 * @csspart layout - The two-pane frame (`data-view` is `main_list` or `public`).
 * @csspart sidebar - The left pane.
 * @csspart sidebar-header - Title, new-folder button, search and sort.
 * @csspart new-folder - The new-folder button.
 * @csspart sidebar-content - The folder lists.
 * @csspart folder-section - One folder list (also `section-mine`, `section-shared`, `section-public`).
 * @csspart folder - A folder in a list (`folder-active` when chosen).
 * @csspart doc-view - 与我共享 (documents shared with me one by one) or 全部文档 (all mine), `data-view` `shared_docs` or `all_docs` (`doc-view-active` when chosen).
 * @csspart folder-lookup - Says that no folder has the exact name searched for with Enter.
 * @csspart main - The right pane.
 * @csspart main-blank - The view shown when no folder is chosen.
 * @csspart main-list - The chosen folder (or document view, `data-source` `folder`, `shared_docs`, `all_docs`) with its documents.
 * @csspart folder-actions - Upload, share, rename, public and delete buttons (owner only).
 * @csspart upload-button - The upload button.
 * @csspart file-input - The hidden file input.
 * @csspart drop-zone - The click-or-drop upload area.
 * @csspart notice - A refused file or failed upload, in words.
 * @csspart notice-close - Closes the notice (and the failed files of the upload panel).
 * @csspart uploads - The upload progress panel; a finished batch leaves it after 2 s, a failed one stays until closed.
 * @csspart uploads-close - Closes the upload panel's finished or failed files (not shown while uploading).
 * @csspart upload-total - The total progress (rounded mean).
 * @csspart upload-item - One file being uploaded (`data-status` 1 uploading, 2 done, 3 failed).
 * @csspart documents - The document list.
 * @csspart document - One document (`data-parse-status` 1, 2 or 3).
 * @csspart document-title - The document title (opens the viewer).
 * @csspart parse-status - The parse state: 解析中 N%, 完成 or 失败.
 * @csspart molecule-count - The molecule count of an SDF document.
 * @csspart document-menu - The more-actions menu of a document.
 * @csspart empty - Shown when the folder has no (matching) documents.
 * @csspart pagination - Previous / next page.
 * @csspart dialog - Every dialog (also `folder-dialog`, `confirm-dialog`, `share-dialog`, `target-dialog`, `translate-dialog`).
 * @csspart translation-progress - While a translation runs: the seconds so far and an indeterminate bar.
 * @csspart translation - The finished translation (plain text).
 * @csspart translation-download - Downloads the translation as markdown.
 * @csspart translation-error - Why the translation failed (no language model configured, the document not parsed, …).
 * @csspart share-options - People and departments to share with.
 * @csspart share-record - One existing share, with its cancel button.
 * @csspart toasts - On a foreign page (another origin in `api-base`): the element's own notification area.
 * @csspart toast - One notification in it (`data-variant` is `default` or `destructive`).
 * @csspart error - The notice shown instead of the content when the element failed to render.
 *
 * @cssprop --csai-accent - Accent colour (buttons, the chosen folder). Default `#2563eb`.
 * @cssprop --csai-accent-dark - Accent colour in the dark theme. Default: `--csai-accent`, else `#60a5fa`.
 * @cssprop --csai-radius - Corner radius. Default `0.5rem`.
 * @cssprop --csai-font - Font family. Default: the system UI font with Chinese fallbacks.
 * @cssprop --csai-surface - Background in the light theme (`--csai-surface-dark` in the dark one).
 * @cssprop --csai-ink - Text colour in the light theme (`--csai-ink-dark` in the dark one).
 */
export class CsaiKnowledgeElement extends createCsaiElement(knowledgeAttributes, () => import('./Knowledge')) {}

defineOnce('csai-knowledge', CsaiKnowledgeElement);

declare global {
  interface HTMLElementTagNameMap {
    'csai-knowledge': CsaiKnowledgeElement;
  }
}
