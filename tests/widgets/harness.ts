// Shared by the browser tests of src/widgets: mocha globals as @web/test-runner provides them,
// chai's expect, and helpers to wait for elements that render asynchronously. The mocha globals,
// chai's expect, nextFrame and waitFor are the core harness's; the CSAI API is faked with ./fake-api.
import { fakeApi, ok, type FakeApi, type Route } from './fake-api';

export { expect, nextFrame, realFetch, restoreFetch, waitFor } from '../core/harness';

/** The routes <csai-status> calls: the ping (version 1.2.3) and the server's banner of the given type (or none). */
export function statusRoutes(banner?: { content: string; content_type: 'info' | 'warning' | 'error' | 'success' }): Route[] {
  return [
    ['GET', '/', () => ok({ name: 'csai', version: '1.2.3', time: new Date().toISOString() })],
    ['GET', '/prompt/get_alert', () => ok({ is_show: !!banner, content: banner?.content ?? '', content_type: banner?.content_type ?? 'warning' })],
  ];
}

/** An element's shadow part by name. */
export const part = (el: Element, name: string) => el.shadowRoot?.querySelector<HTMLElement>(`[part~="${name}"]`) ?? null;

/** Adds markup to the page inside a fresh container, removed by `cleanup()`. */
export function mount(html: string) {
  const box = document.createElement('div');
  box.innerHTML = html;
  document.body.append(box);
  return box;
}

/**
 * For a describe block of an element's tests: `show(routes, html)` fakes the API with `routes`
 * and adds `html` to the page in a fresh container; both go at the end of the test, or at the
 * next `show`.
 */
export function elementPage() {
  let box: HTMLElement | undefined;
  let api: FakeApi | undefined;
  const clear = () => {
    box?.remove();
    box = undefined;
    api?.restore();
    api = undefined;
  };
  afterEach(clear);
  return {
    show(routes: Route[], html: string) {
      clear();
      api = fakeApi(routes);
      box = mount(html);
      return { box, api };
    },
    /** The container of what `show` added. */
    box: () => box!,
  };
}

/**
 * STYLE: any console error fails a browser test. Call inside a describe block; a test that
 * expects one captures console.error itself.
 */
export function failOnConsoleErrors() {
  let original: typeof console.error;
  let errors: string[] = [];
  beforeEach(() => {
    original = console.error;
    errors = [];
    console.error = (...args: unknown[]) => {
      errors.push(args.map(String).join(' '));
      original.apply(console, args);
    };
  });
  afterEach(() => {
    console.error = original;
    if (errors.length) throw new Error(`console.error during the test:\n${errors.join('\n')}`);
  });
}

/**
 * Waits until the CSS transitions and finite animations running in the element (its shadow root
 * included) have finished. axe reads colours as drawn: a button whose tone just changed (the
 * translate dialog's 停止 button becoming 重新翻译, the same <button> under `transition-colors`)
 * is a blend of both for 150 ms, white text on a pale fill, and was reported as a contrast failure.
 * Endless animations (spinners) are not waited for.
 */
export async function transitionsDone(el: Element) {
  const root: DocumentOrShadowRoot = el.shadowRoot ?? document;
  const finite = root.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
  await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
}
