import { useEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import { useLocation } from 'wouter';
// Signal reads in render are tracked by useSignals() (no compiler plugin), see README.
import { useSignals } from '@preact/signals-react/runtime';
import { statusStore } from '../../core/status-store';
import { useT } from '../i18n';
import { Banner } from './Banner';
import { useAfterMainContent } from './idle';
import { Icon, type IconName } from './Icons';
import { Tooltip } from './Tooltip';
import { UserMenu } from './UserMenu';
import { useIsMobile } from './use-media';
import {
  $openMobile,
  isSidebarShortcut,
  MOBILE_BREAKPOINT,
  seedSidebarFromCookie,
  setSidebarOpen,
  SIDEBAR_WIDTH,
  SIDEBAR_WIDTH_ICON,
  SIDEBAR_WIDTH_MOBILE,
  toggleSidebar,
} from './sidebar-state';

type RailTarget = '/' | '/channels' | '/knowledges' | '/molecules';
const RAIL: { target: RailTarget; icon: IconName; label: string; button: string }[] = [
  { target: '/', icon: 'plus', label: 'nav.new_chat', button: 'new' },
  { target: '/channels', icon: 'history', label: 'nav.history', button: 'channels' },
  { target: '/knowledges', icon: 'library', label: 'nav.knowledge', button: 'knowledges' },
  { target: '/molecules', icon: 'search', label: 'nav.molecules', button: 'molecules' },
];

/** Which rail entry a path belongs to. */
function railEntryOf(path: string): RailTarget | undefined {
  if (path === '/') return '/';
  if (path === '/channels' || path.startsWith('/channels/')) return '/channels';
  if (path === '/knowledges' || path.startsWith('/knowledges/')) return '/knowledges';
  if (path === '/molecules') return '/molecules';
  return undefined;
}

/**
 * The side rail's move (SPEC §2): new conversation → `/`, history → `/channels`, knowledge bases →
 * `/knowledges`; choosing the entry already open resets the URL and shows its main view.
 */
export function useRailNavigation() {
  const [location, navigate] = useLocation();
  const { layout, ask } = statusStore();
  return (target: RailTarget, button: string) => {
    const alreadyOpen = railEntryOf(location) === target;
    layout.setCurrentButton(button);
    if (target === '/') ask.$channel_id.value = '';
    if (alreadyOpen) {
      layout.$show_main_router.value = true;
      layout.incrementMainStatus();
      if (location !== target || window.location.search) navigate(target, { replace: true });
    } else {
      navigate(target);
    }
    $openMobile.value = false;
  };
}

function SidebarContents({ compact, onNavigate }: { compact: boolean; onNavigate?: () => void }) {
  const t = useT();
  const [location] = useLocation();
  const go = useRailNavigation();
  const current = railEntryOf(location);
  return (
    <>
      <div className="sidebar__header">
        <span className="logo" aria-hidden="true">C</span>
        {!compact && (
          <span className="sidebar__brand">
            <span className="sidebar__title">{t('product')}</span>
            <span className="sidebar__subtitle">{t('product_subtitle')}</span>
          </span>
        )}
      </div>
      <nav className="sidebar__nav" aria-label={t('nav.label')}>
        <ul>
          {RAIL.map((entry) => (
            <li key={entry.target}>
              <Tooltip label={t(entry.label)} disabled={!compact}>
                <button
                  type="button"
                  className={`nav-item${current === entry.target ? ' nav-item--active' : ''}`}
                  aria-current={current === entry.target ? 'page' : undefined}
                  aria-label={compact ? t(entry.label) : undefined}
                  onClick={() => {
                    go(entry.target, entry.button);
                    onNavigate?.();
                  }}
                >
                  <Icon name={entry.icon} />
                  {!compact && <span>{t(entry.label)}</span>}
                </button>
              </Tooltip>
            </li>
          ))}
        </ul>
      </nav>
      <div className="sidebar__spacer" />
      <div className="sidebar__footer">
        <UserMenu compact={compact} />
      </div>
    </>
  );
}

/** The mobile drawer: a modal panel over the page, closed by Escape, the overlay or a choice. */
function Drawer() {
  useSignals();
  const t = useT();
  const panel = useRef<HTMLDivElement>(null);
  const open = $openMobile.value;
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.querySelector<HTMLElement>('button')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') $openMobile.value = false;
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [open]);
  if (!open) return null;
  return (
    <div className="drawer">
      <div className="drawer__overlay" onClick={() => ($openMobile.value = false)} />
      <div ref={panel} className="drawer__panel sidebar" role="dialog" aria-modal="true" aria-label={t('nav.label')} data-testid="sidebar-drawer">
        <button type="button" className="icon-button drawer__close" aria-label={t('nav.close_menu')} onClick={() => ($openMobile.value = false)}>
          <Icon name="close" />
        </button>
        <SidebarContents compact={false} onNavigate={() => ($openMobile.value = false)} />
      </div>
    </div>
  );
}

/**
 * The app frame: collapsible sidebar (16rem, 3rem as icons, an 18rem drawer below 770px),
 * the server banner, a top bar and the page. Ctrl/Cmd+B toggles the sidebar.
 */
export function AppShell({ title, children, wide = false, fill = false }: {
  title?: string;
  children: ReactNode;
  wide?: boolean;
  /** The page's element fills the height below the top bar and scrolls inside (knowledge bases). */
  fill?: boolean;
}) {
  useSignals();
  const t = useT();
  const isMobile = useIsMobile();
  seedSidebarFromCookie();
  const expanded = statusStore().layout.$isSidebarOpen.value;
  // On home's first load the rail's entries and the user menu follow the question box (the docked
  // rail keeps its width meanwhile, so nothing moves when they come).
  const afterMain = useAfterMainContent();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isSidebarShortcut(e)) return;
      e.preventDefault();
      toggleSidebar(window.matchMedia(`(max-width: ${MOBILE_BREAKPOINT - 1}px)`).matches);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    if (!isMobile) $openMobile.value = false;
  }, [isMobile]);
  const style = {
    '--sidebar-width': SIDEBAR_WIDTH,
    '--sidebar-width-icon': SIDEBAR_WIDTH_ICON,
    '--sidebar-width-mobile': SIDEBAR_WIDTH_MOBILE,
  } as CSSProperties;
  return (

      <div className={`shell${fill ? ' shell--fill' : ''}`} data-state={expanded ? 'expanded' : 'collapsed'} data-mobile={isMobile || undefined} style={style}>
        <a className="skip-link" href="#main">{t('skip_to_main')}</a>
        {!isMobile && (
          <aside className="sidebar sidebar--docked" data-testid="sidebar" data-state={expanded ? 'expanded' : 'collapsed'}>
            {afterMain && <SidebarContents compact={!expanded} />}
          </aside>
        )}
        {isMobile && <Drawer />}
        <div className="shell__main">
          <Banner />
          <header className="topbar">
            <Tooltip label={t('nav.toggle_sidebar')} placement="bottom">
              <button
                type="button"
                className="icon-button"
                aria-label={isMobile ? t('nav.open_menu') : t('nav.toggle_sidebar')}
                aria-expanded={isMobile ? $openMobile.value : expanded}
                data-testid="sidebar-toggle"
                onClick={() => (isMobile ? ($openMobile.value = true) : setSidebarOpen(!expanded))}
              >
                <Icon name={isMobile ? 'menu' : 'panel'} />
              </button>
            </Tooltip>
            {title && <span className="topbar__title">{title}</span>}
            {!title && isMobile && (
              <span className="topbar__brand" aria-hidden="true">
                <span className="logo">C</span>
                {t('product')}
              </span>
            )}
          </header>
          <main id="main" tabIndex={-1} className={`shell__content${wide ? ' shell__content--wide' : ''}${fill ? ' shell__content--fill' : ''}`}>
            {children}
          </main>
        </div>
      </div>

  );
}
