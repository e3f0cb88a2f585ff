// The knowledge view's folder verbs: create, rename, make public or private, delete, open by
// name, and my folders as the targets of move, copy and add.
import { QUESTION_FOLDER_ID, type KbFolder } from '../contract/knowledge';
import { ApiError } from './api';
import type { KnowledgeContext } from './knowledge-context';

/**
 * The folder verbs of one element (each changes the page's selection and folder lists).
 * @example await createKnowledgeFolders(ctx).createFolder('文献');
 */
export function createKnowledgeFolders({ api, t, selection, toast, report, attempt, folder }: KnowledgeContext) {
  return {
    /** Creates a folder and makes it the current one. Throws (for the dialog) when refused. */
    async createFolder(name: string): Promise<void> {
      try {
        const created = await api.createFolder(name);
        selection.selectFolder(created);
        selection.refreshFolders();
        toast(t('created'));
      } catch (err) {
        // A refused name is shown in the dialog; anything else is reported too.
        if (!(err instanceof ApiError) || err.status >= 500 || err.status === 0) report(err);
        throw err;
      }
    },
    /** Renames the current folder. Throws (for the dialog) when refused. */
    async renameFolder(name: string): Promise<void> {
      const current = folder();
      if (!current) return;
      const updated = await api.updateFolder(current.id, { name });
      selection.selectFolder(updated);
      selection.refreshFolders();
      toast(t('renamed'));
    },
    /** Makes the current folder public, or private again. */
    togglePublic: () =>
      attempt(async () => {
        const current = folder();
        if (!current) return;
        const updated = await api.updateFolder(current.id, { is_public: !current.is_public });
        selection.selectFolder(updated);
        selection.refreshFolders();
        toast(updated.is_public ? t('now_public') : t('now_private'));
      }),
    /** Deletes the current folder with its documents. */
    deleteFolder: () =>
      attempt(async () => {
        const current = folder();
        if (!current) return;
        await api.deleteFolder(current.id);
        selection.selectFolder(null);
        selection.refreshFolders();
        toast(t('deleted'));
      }),
    /**
     * Opens one of my folders by its exact name (GET get_folder/xxx?folder_name=); false when I
     * have none of that name (the caller says so).
     */
    async openFolderByName(name: string): Promise<boolean> {
      const wanted = name.trim();
      if (!wanted) return false;
      try {
        selection.selectFolder(await api.folderByName(wanted));
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return false;
        report(err);
        return false;
      }
    },
    /** My folders, the targets of move, copy and add (the question-files folder is not one). */
    myFolders: async (): Promise<KbFolder[]> => {
      try {
        return (await api.folders('mine')).items.filter((f) => f.id !== QUESTION_FOLDER_ID);
      } catch (err) {
        report(err);
        return [];
      }
    },

  };
}
