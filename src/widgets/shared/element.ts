// The custom-element shell shared by every <csai-*> element. It must stay tiny and free of React:
// the embed loader bundles it, and each element's React view is imported on first connection.
import r2wc from '@r2wc/core';
import { emit } from './events';

/** How an attribute's text becomes a prop. */
export type AttrKind = 'string' | 'boolean' | 'number';
/** An element's attributes by camelCase prop name (`apiBase` ↔ attribute `api-base`). */
export type AttrSpec = Record<string, AttrKind>;

type ValueOf<K extends AttrKind> = K extends 'boolean' ? boolean : K extends 'number' ? number | undefined : string | undefined;
/** The props a view receives for an attribute spec. */
export type PropsOf<S extends AttrSpec> = { -readonly [P in keyof S]: ValueOf<S[P]> };

/** Attributes every element accepts (DESIGN §7): theme, language, API base and the two theme tokens. */
export const commonAttributes = {
  theme: 'string',
  lang: 'string',
  apiBase: 'string',
  accent: 'string',
  radius: 'string',
} as const satisfies AttrSpec;
export type CommonProps = PropsOf<typeof commonAttributes>;

/** An element class whose instances expose each attribute as a property (`el.apiBase`). */
export type CsaiElementClass<P> = new () => HTMLElement & Partial<P>;

/** A mounted view inside one element's shadow root. */
export interface ViewHandle<P> {
  update(props: P): void;
  unmount(): void;
}
/** What an element's lazily imported module provides: mount a view into the shadow root. */
export interface View<P> {
  mount(root: ShadowRoot, host: HTMLElement, props: P): ViewHandle<P>;
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Reads the current props from the host's attributes. Presence rules that r2wc does not cover:
 * an empty boolean attribute (`<csai-x compact>`) is `true`, `compact="false"` is `false`, a
 * removed attribute is `undefined` (strings, numbers) or `false` (booleans).
 */
export function readAttributes<S extends AttrSpec>(host: Element, spec: S): PropsOf<S> {
  const props: Record<string, string | number | boolean | undefined> = {};
  for (const [prop, kind] of Object.entries(spec)) {
    const text = host.getAttribute(kebab(prop));
    if (kind === 'boolean') props[prop] = text !== null && text.trim().toLowerCase() !== 'false';
    else if (kind === 'number') {
      const n = text === null || text.trim() === '' ? NaN : Number(text);
      props[prop] = Number.isFinite(n) ? n : undefined;
    } else props[prop] = text === null || text.trim() === '' ? undefined : text.trim();
  }
  return props as PropsOf<S>;
}

interface Mounted<P> {
  live: boolean;
  handle?: ViewHandle<P>;
  observer?: MutationObserver;
}

/**
 * Builds the element class for a view: an open shadow root (through @r2wc/core), props read from
 * the common and the element's own attributes, re-rendered on every attribute change (including
 * removal), and the view module imported on first connection. A failed import dispatches
 * `csai-error` with code `load_failed`. `onConnect` runs on each connection before the view
 * loads (e.g. to start the element's data requests while the view's code downloads).
 * @example class CsaiStatusElement extends createCsaiElement({ compact: 'boolean' }, () => import('./Status')) {}
 */
export function createCsaiElement<S extends AttrSpec>(
  ownAttributes: S,
  loadView: () => Promise<{ view: View<PropsOf<S> & CommonProps> }>,
  onConnect?: (host: HTMLElement) => void,
): CsaiElementClass<PropsOf<S> & CommonProps> {
  type Props = PropsOf<S> & CommonProps;
  const spec = { ...commonAttributes, ...ownAttributes };
  const attributeNames = Object.keys(spec).map(kebab);
  const read = (host: HTMLElement) => readAttributes(host, spec) as Props;
  let viewPromise: Promise<View<Props>> | undefined;
  // The view once loaded: an element moved in the DOM (disconnected, then connected in the same
  // task) mounts again at once and so keeps its React root and state (see react-view's rootOf).
  let loadedView: View<Props> | undefined;

  const ctor = r2wc<Record<string, unknown> & { container?: HTMLElement }, Mounted<Props>>(
    () => null, // never rendered: the view module renders instead (keeps React out of this file)
    // r2wc gives the open shadow root, the lifecycle and property ↔ attribute reflection; the
    // values themselves are re-read from the attributes (r2wc skips empty and removed ones).
    { shadow: 'open', props: spec },
    {
      mount(container) {
        const mounted: Mounted<Props> = { live: true };
        const root = container instanceof ShadowRoot ? container : container.shadowRoot;
        const host = root?.host;
        if (!root || !(host instanceof HTMLElement)) return mounted;
        mounted.observer = new MutationObserver(() => mounted.handle?.update(read(host)));
        mounted.observer.observe(host, { attributes: true, attributeFilter: attributeNames });
        onConnect?.(host);
        if (loadedView) {
          mounted.handle = loadedView.mount(root, host, read(host));
          return mounted;
        }
        viewPromise ??= loadView().then((m) => (loadedView = m.view));
        viewPromise.then(
          (view) => {
            if (mounted.live && !mounted.handle) mounted.handle = view.mount(root, host, read(host));
          },
          (error: unknown) => {
            viewPromise = undefined; // a later connection retries
            console.warn('[csai] element code failed to load:', error);
            // The shell carries no i18n library (it must stay tiny), hence the two literal texts.
            const message = host.getAttribute('lang')?.startsWith('en')
              ? 'The component failed to load. Check the network and reload the page.'
              : '组件加载失败，请检查网络后刷新页面';
            if (mounted.live) emit(host, 'csai-error', { message, code: 'load_failed' });
          },
        );
        return mounted;
      },
      update() {
        // Attribute changes reach the view through the MutationObserver, which also sees removals.
      },
      unmount(mounted) {
        mounted.live = false;
        mounted.observer?.disconnect();
        mounted.handle?.unmount();
        mounted.handle = undefined;
      },
    },
  );
  // A server-rendered element arrives with a declarative shadow root holding a static copy of its
  // view (src/widgets/shared/prerendered.ts). r2wc's attachShadow would empty it; the copy stays
  // on screen instead until the view takes it over.
  class CsaiElement extends (ctor as CustomElementConstructor) {
    override attachShadow(init: ShadowRootInit): ShadowRoot {
      return this.shadowRoot && init.mode === 'open' ? this.shadowRoot : super.attachShadow(init);
    }
  }
  // r2wc defines a property per prop (reflected to its attribute); the type says so.
  return CsaiElement as unknown as CsaiElementClass<Props>;
}
