import { useLocation } from 'wouter';
import { useT } from '../i18n';
import { AppShell } from '../shell/AppShell';
import { CustomElement, usePageTitle } from '../shell/common';

/** /knowledges and its parts (SPEC §2): the knowledge-base view, filled by <csai-knowledge>. */
export default function KnowledgePage() {
  const t = useT();
  usePageTitle(t('knowledge.title'));
  const [location] = useLocation();
  const part = location.split('/')[2];
  return (
    <AppShell title={t('knowledge.title')} wide fill>
      <CustomElement tag="csai-knowledge" pending={t('page_loading')} attrs={{ view: part || 'main_list' }} />
    </AppShell>
  );
}
