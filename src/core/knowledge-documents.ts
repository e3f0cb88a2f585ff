// The knowledge view's document verbs: delete, move, copy, add to a knowledge base, download,
// use in a question and open in the viewer.
import { batch } from '@preact/signals-core';
import type { KbDocument } from '../contract/knowledge';
import { ApiError } from './api';
import { viewerPath, type KnowledgeContext } from './knowledge-context';
import { canAddToKnowledgeBase, canSelectFile } from './validation';

/**
 * The document verbs of one element.
 * @example await createKnowledgeDocuments(ctx).move(doc, 'f2');
 */
export function createKnowledgeDocuments({ deps, api, t, selection, store, toast, report, attempt, afterListChange }: KnowledgeContext) {
  return {
    deleteDoc: (doc: KbDocument) =>
      attempt(async () => {
        await api.deleteDoc(doc.docId);
        afterListChange();
        toast(t('deleted'));
      }),
    move: (doc: KbDocument, folderId: string) =>
      attempt(async () => {
        await api.moveDoc(doc.docId, folderId);
        toast(t('moved'));
        afterListChange();
      }),
    copy: (doc: KbDocument, folderId: string) =>
      attempt(async () => {
        await api.copyDoc(doc.docId, folderId);
        toast(t('copied'));
        afterListChange();
      }),
    /** SPEC §4/§8: adds a parsed document to a knowledge base with the 添加成功 / 添加失败 toasts. */
    async addToKb(doc: KbDocument, folderId: string): Promise<boolean> {
      // SPEC §5: adding needs both a folder and a document.
      if (!canAddToKnowledgeBase(folderId, doc.docId)) return false;
      try {
        await api.addToKb(doc.docId, folderId);
        toast(t('add_ok_title'), t('add_ok_text'));
        selection.refreshFolders();
        return true;
      } catch (err) {
        toast(t('add_fail_title'), err instanceof ApiError && err.message ? err.message : t('add_fail_text'), true);
        report(err);
        return false;
      }
    },
    /** The file, with the name the server gives it; null when the download failed (reported). */
    async download(doc: KbDocument): Promise<{ blob: Blob; filename: string } | null> {
      try {
        const { blob, filename } = await api.download(doc.docId);
        return { blob, filename: filename ?? doc.title };
      } catch (err) {
        report(err);
        return null;
      }
    },
    /**
     * Copies a document into my question files (POST es_copy_doc_to_question_channel), puts it
     * among the question box's files (status store files_list, docIdList; SPEC §5 rules first) and
     * opens the question page.
     */
    async useInQuestion(doc: KbDocument): Promise<boolean> {
      const ask = store.ask;
      const chosen = ask.$files_list.peek();
      const verdict = canSelectFile(chosen.length, ask.$selectedKbs.peek().length);
      if (!verdict.ok) {
        toast(verdict.message, undefined, true);
        deps.onError(new ApiError(400, verdict.message, 'invalid_selection', ''));
        return false;
      }
      return attempt(async () => {
        const copied = (await api.copyToQuestion([doc.docId])).name_id[0];
        if (!copied) return;
        batch(() => {
          if (!ask.$files_list.peek().some((f) => f.docId === copied.docId)) ask.$files_list.value = [...ask.$files_list.peek(), { docId: copied.docId, name: copied.name }];
          ask.$docIdList.value = [...new Set([...ask.$docIdList.peek(), copied.docId])];
        });
        toast(t('question_added'), t('question_added_text', { name: copied.name }));
        // docIds too: from a foreign page the question page is on the CSAI origin, with its own store.
        deps.navigate(`/?docIds=${encodeURIComponent(copied.docId)}`);
      });
    },
    /** Opens a document in the viewer. */
    open(doc: Pick<KbDocument, 'docId' | 'type'>) {
      deps.navigate(viewerPath(doc));
    },

  };
}
