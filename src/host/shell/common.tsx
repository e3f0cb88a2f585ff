import { createElement, useEffect, useImperativeHandle, useLayoutEffect, useRef, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useT } from '../i18n';
import { dropFirstPaint } from './first-paint';
import { Icon } from './Icons';

/** Sets the window title to `<title> · CSAI`. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · CSAI` : 'CSAI';
  }, [title]);
}

/** The loading fallback while a page's code arrives. */
export function PageLoading() {
  const t = useT();
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{t('page_loading')}</span>
    </div>
  );
}

/**
 * A custom element by tag name (its code may load later or not at all: until it is defined the
 * browser shows it as an empty box, styled by `:not(:defined)` with `data-pending` text).
 */
export function CustomElement({ tag, attrs = {}, elementRef, pending }: {
  tag: `csai-${string}`;
  attrs?: Record<string, string | undefined>;
  elementRef?: Ref<HTMLElement>;
  pending?: string;
}) {
  const props: Record<string, unknown> = { ref: elementRef };
  for (const [k, v] of Object.entries(useElementAttributes(attrs, pending))) if (v !== undefined) props[k] = v;
  return createElement(tag, props);
}

/** The attributes a site page gives an element: its pending text, the site's language unless `attrs` say otherwise, and `attrs`. */
function useElementAttributes(attrs: Record<string, string | undefined>, pending: string | undefined): Record<string, string | undefined> {
  const { i18n } = useTranslation();
  return { 'data-pending': pending, lang: i18n.language === 'en' ? 'en' : 'zh-CN', ...attrs };
}

/**
 * A custom element that already exists (the server-rendered first paint's `<csai-ask>`), moved
 * into this place in the page when it mounts, with the attributes {@link CustomElement} would give
 * it. What has focus inside it keeps its focus and caret across the move; the rest of the static
 * copy goes in the same frame.
 */
export function AdoptedElement({ element, attrs = {}, elementRef, pending }: {
  element: HTMLElement;
  attrs?: Record<string, string | undefined>;
  elementRef?: Ref<HTMLElement>;
  pending?: string;
}) {
  const slot = useRef<HTMLDivElement>(null);
  useImperativeHandle(elementRef, () => element, [element]);
  useLayoutEffect(() => {
    const box = slot.current;
    if (!box || element.parentNode === box) return dropFirstPaint();
    const inner = element.shadowRoot?.activeElement;
    const caret = inner instanceof HTMLTextAreaElement ? ([inner.selectionStart, inner.selectionEnd, inner.selectionDirection] as const) : undefined;
    box.append(element);
    // The page (#root) shows once the copy is gone: only then can what had focus take it again.
    dropFirstPaint();
    if (inner instanceof HTMLElement) inner.focus({ preventScroll: true });
    if (caret && inner instanceof HTMLTextAreaElement) inner.setSelectionRange(...caret);
  }, [element]);
  const all = useElementAttributes(attrs, pending);
  useLayoutEffect(() => {
    for (const [name, value] of Object.entries(all)) {
      if (value === undefined) element.removeAttribute(name);
      else if (element.getAttribute(name) !== value) element.setAttribute(name, value);
    }
  });
  return <div ref={slot} className="adopted-element" />;
}

/**
 * A way back from a full-window page (the document viewer, a PDB's 3D view): the
 * previous page when the visit came from one, else the home page. `children`: the page's other
 * links (the viewer's 构效关系表), set out in the same bar after it.
 */
export function BackLink({ children }: { children?: ReactNode } = {}) {
  const t = useT();
  const canGoBack = typeof history !== 'undefined' && history.length > 1;
  return (
    <nav className="viewer-page__bar" aria-label={t('errors.back')}>
      {canGoBack ? (
        <button type="button" className="button button--ghost" data-testid="back-link" onClick={() => history.back()}>
          <Icon name="back" size={16} />
          {t('errors.back')}
        </button>
      ) : (
        <Link href="/" className="button button--ghost" data-testid="back-link">
          <Icon name="back" size={16} />
          {t('errors.home')}
        </Link>
      )}
      {children}
    </nav>
  );
}
