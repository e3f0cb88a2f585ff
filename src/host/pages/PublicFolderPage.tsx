import { useT } from '../i18n';
import { AppShell } from '../shell/AppShell';
import { CustomElement, usePageTitle } from '../shell/common';

/** /public_folder: shared folders, filled by <csai-knowledge view="public">. */
export default function PublicFolderPage() {
  const t = useT();
  usePageTitle(t('public_folder.title'));
  return (
    <AppShell title={t('public_folder.title')} wide fill>
      <CustomElement tag="csai-knowledge" pending={t('page_loading')} attrs={{ view: 'public' }} />
    </AppShell>
  );
}
