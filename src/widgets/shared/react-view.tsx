import { Component, type ComponentType, type CSSProperties, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { CommonProps, View } from './element';
import { emit } from './events';
import { HostContext, type HostInfo } from './host-context';
import { addStrings, stringsReady, translator } from './i18n';
import { sharedStrings } from './shared.strings';
import { attachStyles } from './styles';

addStrings('csai', sharedStrings);

/**
 * A render error stays inside the element: it shows a short notice instead of the content and
 * tells the page with `csai-error` (code `render_failed`), instead of an uncaught error.
 */
class RenderBoundary extends Component<{ host: HTMLElement; lang: string | undefined; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error('[csai] element failed to render:', error);
    emit(this.props.host, 'csai-error', { message: translator('csai', this.props.lang)('render_failed'), code: 'render_failed' });
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <p part="error" role="alert" className="text-danger text-sm">
        {translator('csai', this.props.lang)('render_failed')}
      </p>
    );
  }
}

/** `theme="dark"` is dark; anything else (or nothing) is light. */
export const resolveTheme = (theme: string | undefined): 'light' | 'dark' => (theme?.trim().toLowerCase() === 'dark' ? 'dark' : 'light');

/**
 * Whether a token attribute's value is one the CSS property accepts. A custom property takes any
 * text, and a value its user cannot read is not replaced by the fallback but makes the property
 * `unset` (an accent of "blu" would leave buttons transparent with white text), so a bad value is
 * not applied: the page-wide token, or the default, stays.
 */
const cssAccepts = (property: string, value: string) => typeof CSS === 'undefined' || typeof CSS.supports !== 'function' || CSS.supports(property, value);

/** Trims a trailing slash; '' (same origin) when the attribute is absent. */
export const apiOriginOf = (apiBase: string | undefined) => (apiBase ?? '').replace(/\/+$/, '');

/** Each shadow root's React root, and whether its unmount is waiting for the current task to end. */
const roots = new WeakMap<ShadowRoot, { root: Root; leaving: boolean }>();

/**
 * A React root for the shadow root: the one left by a disconnection in this same task (an element
 * moved in the DOM) is taken up again rather than created twice.
 */
function rootOf(shadow: ShadowRoot): { root: Root; leaving: boolean } {
  const known = roots.get(shadow);
  if (known) {
    known.leaving = false;
    return known;
  }
  const entry = { root: createRoot(shadow), leaving: false };
  roots.set(shadow, entry);
  return entry;
}

/**
 * Unmounts after the current task's script: an element removed while another React tree commits
 * (a card's <csai-molecule> dropped by <csai-channels>) disconnects inside that commit, where React
 * cannot unmount a root synchronously.
 */
function leave(shadow: ShadowRoot, entry: { root: Root; leaving: boolean }): void {
  entry.leaving = true;
  queueMicrotask(() => {
    if (!entry.leaving || roots.get(shadow) !== entry) return;
    roots.delete(shadow);
    entry.root.unmount();
  });
}

/**
 * What every element renders its view in: {@link HostContext}, the themed `.csai-root` wrapper
 * and the render boundary. Also rendered on the server, for home's first paint (`children` then
 * stands for the view, inside the form of the static copy).
 */
export function ViewFrame({ info, style, prerendered, children }: { info: HostInfo; style?: CSSProperties; prerendered?: boolean; children: ReactNode }) {
  return (
    <HostContext value={info}>
      <div className="csai-root" part="root" data-theme={info.resolvedTheme} lang={info.lang ?? 'zh-CN'} style={style} data-csai-prerendered={prerendered ? '' : undefined}>
        <RenderBoundary host={info.host} lang={info.lang}>
          {children}
        </RenderBoundary>
      </div>
    </HostContext>
  );
}

/**
 * Turns a React component into an element view: renders it into the shadow root inside a
 * `.csai-root` wrapper (theme and attribute tokens live there), with twind styles attached and
 * {@link HostContext} provided. The component receives the element's props.
 */
export function reactView<P extends CommonProps>(Component: ComponentType<P>): View<P> {
  return {
    mount(root, host, initial) {
      const detachStyles = attachStyles(root);
      const entry = rootOf(root);
      const reactRoot = entry.root;
      const render = (props: P) => {
        const info: HostInfo = { ...props, host, root, resolvedTheme: resolveTheme(props.theme), apiOrigin: apiOriginOf(props.apiBase) };
        // Attribute tokens override the page-wide --csai-* ones for this element only. Set through
        // CSSOM (React's style prop), which a CSP without 'unsafe-inline' still allows.
        const style: Record<string, string> = {};
        if (props.accent && cssAccepts('color', props.accent)) style['--csai-accent'] = props.accent;
        if (props.radius && cssAccepts('border-radius', props.radius)) style['--csai-radius'] = props.radius;
        reactRoot.render(
          <ViewFrame info={info} style={style as CSSProperties}>
            <Component {...props} />
          </ViewFrame>,
        );
      };
      // An element speaking a language whose strings load lazily renders once they are there,
      // rather than in the default language first.
      let latest = initial;
      let mounted = true;
      let waiting = false;
      const show = (props: P) => {
        latest = props;
        const pending = stringsReady(props.lang);
        if (!pending) {
          if (!waiting) render(props);
          return;
        }
        waiting = true;
        void pending.then(() => {
          waiting = false;
          if (mounted) render(latest);
        });
      };
      show(initial);
      return {
        update: show,
        unmount() {
          mounted = false;
          leave(root, entry);
          detachStyles();
        },
      };
    },
  };
}
