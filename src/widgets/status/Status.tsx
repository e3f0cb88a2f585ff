import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import type { Alert } from '../../contract/general';
import { createGeneralApi } from '../../core/general-api';
import type { CommonProps } from '../shared/element';
import { emit } from '../shared/events';
import { useApi, useHost, useT } from '../shared/host-context';
import { addStrings } from '../shared/i18n';
import { reactView } from '../shared/react-view';
import { statusStrings } from './status.strings';

addStrings('status', statusStrings);

export interface StatusProps extends CommonProps {
  /** Only the coloured dot; the words stay available to screen readers. */
  compact: boolean;
}

type Reachability = { state: 'checking' } | { state: 'online'; version: string } | { state: 'offline' };

const bannerColour: Record<Alert['content_type'], string> = {
  info: 'border-info text-info',
  success: 'border-success text-success',
  warning: 'border-warning text-warning',
  error: 'border-danger text-danger',
};
const dotColour = { checking: 'bg-muted', online: 'bg-success', offline: 'bg-danger' } as const;

/** Server reachability (GET /api/v1/) and the server banner (GET /api/v1/prompt/get_alert). */
export function Status({ compact }: StatusProps) {
  const { host, apiOrigin } = useHost();
  const client = useApi();
  const api = useMemo(() => createGeneralApi(client), [client]);
  const t = useT('status');
  const [reach, setReach] = useState<Reachability>({ state: 'checking' });
  const [banner, setBanner] = useState<Alert | null>(null);

  // The checks run again for another server, not for another language (the client's messages).
  const check = useEffectEvent((signal: AbortSignal) => {
    setReach({ state: 'checking' });
    // A failure reaches the page as the client's csai-error (toErrorDetail); the pill says it in its words.
    api.ping({ signal, redirect: false }).then(
      (ping) => {
        if (signal.aborted) return; // a newer api-base owns the state now
        setReach({ state: 'online', version: ping.version });
        emit(host, 'csai-status-change', { online: true, version: ping.version });
      },
      () => {
        if (signal.aborted) return;
        setReach({ state: 'offline' });
        emit(host, 'csai-status-change', { online: false });
      },
    );
    // SPEC §8: the banner is hidden when its call fails (that row replaces the generic toast).
    api.alert({ signal, quiet: true, redirect: false }).then(
      (alert) => {
        if (!signal.aborted) setBanner(alert.is_show && alert.content.trim() !== '' ? alert : null);
      },
      () => {
        if (!signal.aborted) setBanner(null);
      },
    );
  });
  useEffect(() => {
    const abort = new AbortController();
    check(abort.signal);
    return () => abort.abort();
  }, [apiOrigin, host]);

  const label = reach.state === 'online' ? t('online') : reach.state === 'offline' ? t('offline') : t('checking');
  return (
    <div part="base" className="flex flex-col gap-2 font-csai">
      <div
        role="status"
        part="pill"
        data-state={reach.state}
        title={reach.state === 'online' ? t('version', { version: reach.version }) : label}
        className="inline-flex items-center gap-2 self-start rounded-csai border border-line bg-surface text-ink px-3 py-1 text-sm"
      >
        <span part="indicator" aria-hidden="true" className={`inline-block w-2.5 h-2.5 rounded-full ${dotColour[reach.state]}`} />
        <span part="product" className={compact ? 'sr-only' : 'font-semibold text-accent'}>{t('product')}</span>
        <span part="label" className={compact ? 'sr-only' : 'text-ink'}>{label}</span>
      </div>
      {banner && (
        <div
          part="banner"
          role="note"
          data-type={banner.content_type}
          className={`rounded-csai border border-l-4 bg-surface px-3 py-2 text-sm whitespace-pre-wrap ${bannerColour[banner.content_type]}`}
        >
          {banner.content}
        </div>
      )}
    </div>
  );
}

/** The view the element imports on first connection. */
export const view = reactView<StatusProps>(Status);
