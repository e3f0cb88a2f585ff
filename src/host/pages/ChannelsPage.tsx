import { useSearch } from 'wouter';
import { useT } from '../i18n';
import { AppShell } from '../shell/AppShell';
import { CustomElement, usePageTitle } from '../shell/common';

/** /channels: conversation history and one conversation (`channel_id`, `closeSider`), filled by <csai-channels>. */
export default function ChannelsPage() {
  const t = useT();
  usePageTitle(t('channels.title'));
  const query = new URLSearchParams(useSearch());
  return (
    <AppShell title={t('channels.title')} wide>
      <CustomElement
        tag="csai-channels"
        pending={t('page_loading')}
        attrs={{ 'channel-id': query.get('channel_id') ?? undefined, 'close-sider': query.get('closeSider') ?? undefined }}
      />
    </AppShell>
  );
}
