// The knowledge view's sharing: folders and documents with people and departments (SPEC §7), the
// people search and departments of the share dialog, and the shares of one resource.
import type { KnowledgeContext } from './knowledge-context';

/**
 * The sharing verbs of one element.
 * @example await createKnowledgeSharing(ctx).share({ type: 'folder', id: 'f1' }, ['u1'], []);
 */
export function createKnowledgeSharing({ api, t, selection, toast }: KnowledgeContext) {
  return {
    /** Shares a folder or document with people and departments. Throws (for the dialog) when refused. */
    async share(resource: { type: 'folder' | 'doc'; id: string }, userIds: string[], departmentIds: string[]): Promise<void> {
      if (resource.type === 'folder') await api.shareFolder(resource.id, userIds, departmentIds);
      else await api.shareDoc(resource.id, userIds, departmentIds);
      toast(t('shared'));
      selection.refreshFolders();
    },
    /** Withdraws a share. Throws (for the dialog) when refused. */
    async cancelShare(shareId: string): Promise<void> {
      await api.cancelShare(shareId);
      toast(t('share_cancelled'));
      selection.refreshFolders();
    },
    /** People and departments matching a keyword, for the share dialog. */
    searchPeople: (keyword: string, signal?: AbortSignal) => api.searchPeople(keyword, signal),
    /** Every department (cached 5 minutes), offered before anything is typed. */
    departments: () => api.departments(),
    /** The shares of one folder or document. */
    async shareRecordsOf(resource: { type: 'folder' | 'doc'; id: string }) {
      const all = await api.shareRecords();
      return all.filter((r) => r.resource_type === resource.type && r.resource_id === resource.id);
    },
  };
}
