// The knowledge view's behaviour, framework-free: which folder (or document list) is shown, the
// documents with search, pages and parse polling, uploads with per-file progress, and the verbs
// a user applies to folders and documents. <csai-knowledge> renders it; tests drive it directly.
import { createKnowledgeContext, type KnowledgeModelDeps } from './knowledge-context';
import { createKnowledgeDocuments } from './knowledge-documents';
import { createKnowledgeFolders } from './knowledge-folders';
import { createKnowledgeList } from './knowledge-list';
import { createKnowledgeSharing } from './knowledge-sharing';
import { createKnowledgeUploads } from './knowledge-uploads';

export {
  PARSE_POLL_MS,
  SEARCH_DEBOUNCE_MS,
  totalProgress,
  UPLOAD_CLEAR_MS,
  viewerPath,
  type KnowledgeModelDeps,
  type UploadFn,
  type UploadItem,
  type UploadStatus,
} from './knowledge-context';
export { createKnowledgeSelection, knowledgeSelection, type DocSource, type DocumentView, type KnowledgeSelection } from './knowledge-selection';

/**
 * The knowledge view of one element: the main list's documents and uploads, and every verb
 * (upload, move, copy, add, share, delete, download, use in a question, folder changes).
 * `watch()` starts loading (and polling) the list; its return value stops it.
 * @example const kb = createKnowledgeModel({ api, upload, t, onError, navigate }); const stop = kb.watch(); await kb.move(doc, 'f2');
 */
export function createKnowledgeModel(deps: KnowledgeModelDeps) {
  const ctx = createKnowledgeContext(deps);
  const list = createKnowledgeList(ctx);
  const uploads = createKnowledgeUploads(ctx, list);
  return {
    /** The calls the model makes (for the small models beside it, e.g. a translation). */
    api: ctx.api,
    selection: ctx.selection,
    /** Reports a failure as the element's `csai-error` (the client has toasted it already). */
    report: ctx.report,
    ...list,
    ...uploads,
    /**
     * Loads the list whenever the source, page, search or a change asks for it, polls while a
     * document parses, and clears a finished upload batch. Returns the function that stops it all.
     */
    watch(): () => void {
      const stopList = list.watch();
      const stopUploads = uploads.watch();
      return () => {
        stopList();
        stopUploads();
      };
    },
    ...createKnowledgeFolders(ctx),
    ...createKnowledgeDocuments(ctx),
    ...createKnowledgeSharing(ctx),
  };
}
/** A knowledge model. */
export type KnowledgeModel = ReturnType<typeof createKnowledgeModel>;
