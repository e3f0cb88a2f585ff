// Renders a widget's part (a tool card, a form) on its own, as the widget would: in a fresh open
// shadow root of `host`, inside the HostContext every part reads (light theme, the page's own API,
// the given language); and the page those tests share (a host element, the fake API). Shared by
// the browser tests of tool cards and forms.
import type { ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { HostContext, type HostInfo } from '../../src/widgets/shared/host-context';
import { fakeApi, type FakeApi, type Route } from './fake-api';

/** Returns the shadow root the part renders in and the React root to unmount after the test. */
export function renderInHost(host: HTMLElement, element: ReactNode, lang: HostInfo['lang'] = 'zh') {
  const shadow = host.attachShadow({ mode: 'open' });
  const info: HostInfo = { host, root: shadow, resolvedTheme: 'light', apiOrigin: '', theme: undefined, lang, apiBase: undefined, accent: undefined, radius: undefined };
  const root = createRoot(shadow);
  root.render(<HostContext.Provider value={info}>{element}</HostContext.Provider>);
  return { shadow, root };
}

/**
 * The page of a describe block's tests of one part, on the fake API: before each test the CSRF
 * cookie, the fake API answering `routes` and an empty host element (`width` px wide when given); after it the part unmounted, the host removed and the
 * page's fetch put back.
 */
export function partPage(routes: Route[], width?: number) {
  let host: HTMLElement;
  let root: Root | undefined;
  let api: FakeApi;
  const newHost = () => {
    host = document.createElement('div');
    if (width) host.style.width = `${width}px`;
    document.body.append(host);
  };
  const clear = () => {
    root?.unmount();
    root = undefined;
    host.remove();
  };
  beforeEach(() => {
    document.cookie = 'XSRF-TOKEN=tok; path=/';
    api = fakeApi(routes);
    newHost();
  });
  afterEach(() => {
    clear();
    api.restore();
  });
  return {
    /** This test's fake API. */
    api: () => api,
    /** Renders the part in the host (see renderInHost); returns its shadow root. */
    render(element: ReactNode, lang: HostInfo['lang'] = 'zh') {
      let shadow: ShadowRoot;
      ({ shadow, root } = renderInHost(host, element, lang));
      return shadow;
    },
    /** Removes the part and its host and puts a fresh host in their place, for a second part in the same test. */
    again() {
      clear();
      newHost();
    },
  };
}
