import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useLocation } from 'wouter';
// Signal reads in render are tracked by useSignals() (no compiler plugin), see README.
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { api } from '../../core/page';
import { statusStore } from '../../core/status-store';
import { toastStore } from '../../core/toast';
import { ApiError } from '../../core/api';
import { createAuthApi } from '../../core/auth-api';
import { sessionEnded } from '../session';
import { applyLanguage, useT, type InterfaceLanguage } from '../i18n';
import { Icon } from './Icons';

const VersionDialog = lazy(() => import('./VersionDialog'));
// Floating UI loads when the menu first opens, not with the page.
const FloatingLayer = lazy(() => import('./FloatingLayer'));

/** Signs out (SPEC §2): "登出成功" and sign-in, or "登出失败" with the error message. */
export async function signOut(navigate: (path: string) => void, t: (key: string) => string) {
  try {
    await createAuthApi(api()).signOut({ quiet: true, redirect: false });
    sessionEnded();
    toastStore().toast({ title: t('core:sign_out_ok') });
    navigate('/auth/sign-in');
  } catch (err) {
    const message = err instanceof ApiError || err instanceof Error ? err.message : String(err);
    toastStore().toast({ variant: 'destructive', title: t('core:sign_out_failed'), description: message });
  }
}

/** Switches the interface language and remembers it for the signed-in user (quietly: the switch itself already happened). */
function chooseLanguage(language: InterfaceLanguage) {
  void applyLanguage(language);
  void createAuthApi(api())
    .setLanguage(language, { quiet: true, redirect: false })
    .catch(() => undefined);
}

/** The user menu at the foot of the sidebar: name, disabled upgrade, version history, sign-out. */
export function UserMenu({ compact }: { compact: boolean }) {
  useSignals();
  const t = useT();
  const { t: tAny, i18n } = useTranslation();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const [showVersions, setShowVersions] = useState(false);
  const trigger = useRef<HTMLButtonElement | null>(null);
  const menu = useRef<HTMLDivElement | null>(null);
  const user = statusStore().session.$user_info.value;
  const name = user.show_name || user.username || '—';
  const initial = (user.username || user.show_name || '?').slice(0, 1).toUpperCase();
  const close = (refocus = false) => {
    setOpen(false);
    if (refocus) trigger.current?.focus();
  };
  const entries = [
    { key: 'versions', icon: 'clock' as const, label: t('user.versions'), run: () => { close(); setShowVersions(true); } },
    { key: 'billing', icon: 'crown' as const, label: t('user.billing'), run: () => { close(); navigate('/billing'); } },
    { key: 'tokens', icon: 'tools' as const, label: t('user.tokens'), run: () => { close(); navigate('/tokens'); } },
    ...(user.is_admin ? [{ key: 'mcp-servers', icon: 'tools' as const, label: t('user.mcp_servers'), run: () => { close(); navigate('/admin/mcp_servers'); } }] : []),
    { key: 'diagnostics', icon: 'gauge' as const, label: t('user.diagnostics'), run: () => { close(); navigate('/test'); } },
    // Each language named in itself; the choice is kept by this browser and for the user.
    ...(['zh', 'en'] as const).map((language) => ({
      key: `language-${language}`,
      icon: (i18n.language === language ? 'check' : 'info') as 'check' | 'info',
      label: language === 'zh' ? '中文' : 'English',
      // Marked with its language, so screen readers say it right and it reads as meant in the other language's page.
      lang: language === 'zh' ? 'zh-CN' : 'en',
      run: () => { close(); chooseLanguage(language); },
    })),
    { key: 'sign-out', icon: 'logout' as const, label: t('user.sign_out'), run: () => { close(); void signOut(navigate, (k) => tAny(k)); } },
  ];

  // Menu behaviour (WAI-ARIA menu button): the first item takes focus once the menu is in the
  // document (FloatingLayer's onMount); a press outside closes.
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!menu.current?.contains(target) && !trigger.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);
  const onMenuKey = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('button[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const move = (i: number) => items[(i + items.length) % items.length]?.focus();
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(items.length - 1);
    else if (e.key === 'Escape') close(true);
    else if (e.key === 'Tab') close();
    else return;
    if (e.key !== 'Tab') e.preventDefault();
  };
  return (
    <>
      <button
        ref={trigger}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className={`user-trigger${compact ? ' user-trigger--compact' : ''}`}
        aria-label={compact ? `${t('user.menu')}：${name}` : undefined}
      >
        <span className="avatar" aria-hidden="true">{initial}</span>
        {!compact && (
          <>
            <span className="user-trigger__text">
              <span className="user-trigger__name">{name}</span>
              <span className="user-trigger__meta">{user.username}</span>
            </span>
            <Icon name="chevron" size={16} />
          </>
        )}
      </button>
      {open && (
        <Suspense fallback={null}>
          <FloatingLayer
            reference={trigger.current}
            placement={compact ? 'right-end' : 'top-start'}
            gap={6}
            onMount={(node) => {
              menu.current = node;
              node.querySelector<HTMLElement>('button[role="menuitem"]')?.focus();
            }}
            role="menu"
            className="menu"
            aria-label={t('user.menu')}
            onKeyDown={onMenuKey}
          >
            <div className="menu__header" role="presentation">
              <span className="menu__name">{name}</span>
              <span className="menu__meta">
                {user.department_name && user.department_name !== 'none' ? t('user.department', { name: user.department_name }) : t('user.no_department')}
              </span>
            </div>
            <div className="menu__item menu__item--disabled" role="menuitem" aria-disabled="true">
              <Icon name="sparkles" />
              <span>{t('user.upgrade')}</span>
              <span className="badge">{t('user.upgrade_soon')}</span>
            </div>
            <div className="menu__separator" role="separator" />
            {entries.map((entry) => (
              <button
                key={entry.key}
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={`menu__item${entry.key === 'sign-out' ? ' menu__item--danger' : ''}`}
                onClick={entry.run}
              >
                <Icon name={entry.icon} />
                <span lang={'lang' in entry ? entry.lang : undefined}>{entry.label}</span>
              </button>
            ))}
          </FloatingLayer>
        </Suspense>
      )}
      {showVersions && (
        <Suspense fallback={null}>
          <VersionDialog onClose={() => setShowVersions(false)} />
        </Suspense>
      )}
    </>
  );
}
