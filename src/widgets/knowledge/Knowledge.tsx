import { useCallback } from 'react';
import { ApiError, toErrorDetail } from '../../core/api';
import type { CommonProps } from '../shared/element';
import { emit } from '../shared/events';
import { useApi, useHost, useT } from '../shared/host-context';
import { addStrings } from '../shared/i18n';
import { reactView } from '../shared/react-view';
import { isSameOrigin, openProductPage } from '../shared/site';
import { InlineToasts } from '../shared/Toasts';
import { knowledgeStrings } from './knowledge.strings';
import { MainList } from './MainList';
import { SidebarContent, SidebarHeader } from './Sidebar';
import { useDocSource, useKnowledgeModel } from './state';
import { Icon } from './ui';

addStrings('knowledge', knowledgeStrings);

/** The parts SPEC §2 names, plus `public` for /public_folder. */
export type KnowledgeView = 'main_list' | 'main_blank' | 'sidebar_header' | 'sidebar_content' | 'public';

export interface KnowledgeProps extends CommonProps {
  /** Which part to render; the whole two-pane view when absent or `main_list`. */
  view: string | undefined;
}

/** The knowledge bases: folders in a sidebar, the chosen folder's documents in the main pane. */
export function Knowledge({ view }: KnowledgeProps) {
  const { host, apiOrigin } = useHost();
  const t = useT('knowledge');
  const source = useDocSource();
  // On a foreign page there is no site toast area: the element shows the toasts itself.
  const toasts = !isSameOrigin(apiOrigin) ? <InlineToasts label={t('notice')} closeLabel={t('close')} /> : null;

  const onError = useCallback(
    (error: ApiError) => {
      // A failed call was reported by the element's client (csai-error); a local check (no URL) is not.
      if (error.code === 'aborted' || error.url) return;
      emit(host, 'csai-error', toErrorDetail(error));
    },
    [host],
  );
  /** DESIGN §7: csai-navigate first; else the site's router, or the CSAI server from a foreign page. */
  const navigate = useCallback((path: string) => openProductPage(host, apiOrigin, path), [host, apiOrigin]);
  const client = useApi();
  const model = useKnowledgeModel({ client, t, onError, navigate });

  const part = (view ?? 'main_list').trim();
  const blank = (
    <div part="main-blank" className="flex h-full min-h-[16rem] flex-col items-center justify-center gap-2 p-8 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full border border-line text-accent"><Icon name="folder" className="w-6 h-6" /></span>
      <h2 className="m-0 text-base font-semibold">{t('blank_title')}</h2>
      <p className="m-0 max-w-sm text-sm text-muted">{t('blank_text')}</p>
    </div>
  );
  const main = source ? <MainList t={t} model={model} /> : blank;

  if (part === 'sidebar_header') return <>{toasts}<SidebarHeader t={t} model={model} /></>;
  if (part === 'sidebar_content') return <>{toasts}<SidebarContent t={t} model={model} /></>;
  if (part === 'main_blank') return blank;
  const publicOnly = part === 'public';
  return (
    <>
      {toasts && <div className="mb-2">{toasts}</div>}
      <div part="layout" data-view={publicOnly ? 'public' : 'main_list'} className="flex flex-col md:flex-row h-full min-h-[32rem] bg-surface text-ink font-csai rounded-csai border border-line overflow-hidden">
        <aside part="sidebar" className="flex flex-col border-b border-line md:border-b-0 md:border-r md:w-72 md:shrink-0">
          <SidebarHeader t={t} model={model} publicOnly={publicOnly} />
          <div className="max-h-72 overflow-auto md:max-h-[none] md:flex-1">
            <SidebarContent t={t} model={model} publicOnly={publicOnly} />
          </div>
        </aside>
        <div part="main" className="flex-1 min-w-0 min-h-0 overflow-auto">{main}</div>
      </div>
    </>
  );
}

/** The view the element imports on first connection. */
export const view = reactView<KnowledgeProps>(Knowledge);
