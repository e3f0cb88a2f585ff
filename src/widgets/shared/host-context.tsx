import { createContext, useContext, useMemo } from 'react';
import type { TFunction } from 'i18next';
import type { CommonProps } from './element';
import type { ApiClient } from '../../core/api';
import { translator } from './i18n';
import { clientFor } from './site';

/** What every element's React tree can read: its host element and the common attributes. */
export interface HostInfo extends CommonProps {
  /** The custom element itself: dispatch events on it, read its own attributes. */
  host: HTMLElement;
  /** The element's open shadow root. */
  root: ShadowRoot;
  /** `theme` resolved to one of the two supported values. */
  resolvedTheme: 'light' | 'dark';
  /** API origin without a trailing slash; '' means the page's own origin. */
  apiOrigin: string;
}

export const HostContext = createContext<HostInfo | null>(null);

/** The host element and common attributes of the element this component renders in. */
export function useHost(): HostInfo {
  const info = useContext(HostContext);
  if (!info) throw new Error('useHost() outside a csai element');
  return info;
}

/** A translate function for namespace `ns` in the element's language. */
export function useT(ns: string): TFunction {
  const { lang } = useHost();
  return useMemo(() => translator(ns, lang), [ns, lang]);
}

/** The element's API client (`clientFor`): its `api-base`, credentials and `csai-error` reporting. */
export function useApi(): ApiClient {
  const { host, apiOrigin, lang } = useHost();
  return useMemo(() => clientFor(host, apiOrigin, lang), [host, apiOrigin, lang]);
}
