import type { ComponentType, CSSProperties } from 'react';
import { createRoot } from 'react-dom/client';
import type { CommonProps, View } from './element';
import { HostContext, type HostInfo } from './host-context';
import { attachStyles } from './styles';

/** `theme="dark"` is dark; anything else (or nothing) is light. */
export const resolveTheme = (theme: string | undefined): 'light' | 'dark' => (theme?.trim().toLowerCase() === 'dark' ? 'dark' : 'light');

/** Trims a trailing slash; '' (same origin) when the attribute is absent. */
export const apiOriginOf = (apiBase: string | undefined) => (apiBase ?? '').replace(/\/+$/, '');

/**
 * Turns a React component into an element view: renders it into the shadow root inside a
 * `.csai-root` wrapper (theme and attribute tokens live there), with twind styles attached and
 * {@link HostContext} provided. The component receives the element's props.
 */
export function reactView<P extends CommonProps>(Component: ComponentType<P>): View<P> {
  return {
    mount(root, host, initial) {
      const detachStyles = attachStyles(root);
      const reactRoot = createRoot(root);
      const render = (props: P) => {
        const info: HostInfo = { ...props, host, root, resolvedTheme: resolveTheme(props.theme), apiOrigin: apiOriginOf(props.apiBase) };
        // Attribute tokens override the page-wide --csai-* ones for this element only. Set through
        // CSSOM (React's style prop), which a CSP without 'unsafe-inline' still allows.
        const style: Record<string, string> = {};
        if (props.accent) style['--csai-accent'] = props.accent;
        if (props.radius) style['--csai-radius'] = props.radius;
        reactRoot.render(
          <HostContext.Provider value={info}>
            <div className="csai-root" part="root" data-theme={info.resolvedTheme} lang={props.lang ?? 'zh-CN'} style={style as CSSProperties}>
              <Component {...props} />
            </div>
          </HostContext.Provider>,
        );
      };
      render(initial);
      return {
        update: render,
        unmount() {
          reactRoot.unmount();
          detachStyles();
        },
      };
    },
  };
}
