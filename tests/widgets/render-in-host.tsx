// Renders a widget's part (a tool card, a form) on its own, as the widget would: in a fresh open
// shadow root of `host`, inside the HostContext every part reads (light theme, the page's own API,
// the given language). Shared by the browser tests of tool cards and forms.
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { HostContext, type HostInfo } from '../../src/widgets/shared/host-context';

/** Returns the shadow root the part renders in and the React root to unmount after the test. */
export function renderInHost(host: HTMLElement, element: ReactNode, lang: HostInfo['lang'] = 'zh') {
  const shadow = host.attachShadow({ mode: 'open' });
  const info: HostInfo = { host, root: shadow, resolvedTheme: 'light', apiOrigin: '', theme: undefined, lang, apiBase: undefined, accent: undefined, radius: undefined };
  const root = createRoot(shadow);
  root.render(<HostContext.Provider value={info}>{element}</HostContext.Provider>);
  return { shadow, root };
}
