/**
 * The elements ask the page to open a product page with the cancelable `csai-navigate` event
 * (`detail.path`, site-relative). The site routes it itself, without a full reload. Returns the
 * function that stops listening.
 */
export function routeElementNavigation(target: EventTarget, navigate: (path: string) => void): () => void {
  const onNavigate = (event: Event) => {
    if (!(event instanceof CustomEvent)) return;
    const detail: unknown = event.detail;
    const path = typeof detail === 'object' && detail !== null && 'path' in detail ? detail.path : undefined;
    // Only site-relative paths: never `//host` or a scheme.
    if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) return;
    event.preventDefault();
    navigate(path);
  };
  target.addEventListener('csai-navigate', onNavigate);
  return () => target.removeEventListener('csai-navigate', onNavigate);
}
