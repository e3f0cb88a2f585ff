import { useEffect, useState } from 'react';
import type { Alert } from '../../contract/general';
import { createGeneralApi } from '../../core/general-api';
import { api } from '../../core/page';
import { useT } from '../i18n';
import { whenIdle } from './idle';
import { Icon } from './Icons';

/** SPEC §2/§8: the server's notice; hidden when there is none or the call fails. */
export function Banner() {
  const t = useT();
  const [notice, setNotice] = useState<Alert | null>(null);
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    // The notice is not needed for the first paint: ask once the page is idle.
    const cancel = whenIdle(() => {
      createGeneralApi(api())
        .alert({ quiet: true, redirect: false, signal: controller.signal })
        .then((a) => setNotice(a.is_show && a.content.trim() ? a : null))
        .catch(() => setNotice(null));
    });
    return () => {
      cancel();
      controller.abort();
    };
  }, []);
  if (!notice || closed) return null;
  return (
    <div className={`banner banner--${notice.content_type}`} role="region" aria-label={t('banner.label')}>
      <Icon name={notice.content_type === 'info' || notice.content_type === 'success' ? 'info' : 'alert'} />
      <p className="banner__text">{notice.content}</p>
      <button type="button" className="icon-button icon-button--small" aria-label={t('banner.close')} onClick={() => setClosed(true)}>
        <Icon name="close" size={16} />
      </button>
    </div>
  );
}
