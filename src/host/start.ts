// The first module of the site's entry, evaluated before React and the shell (a chunk of its own,
// see vite.config.ts): home's main content is its question box (<csai-ask>), so on home its
// element and view start downloading now, while the page's other code is still being evaluated,
// rather than when the page's first render asks for them.
import { sendFromFirstPaint } from './shell/first-paint';

const home = window.location.pathname === '/';

// The server-rendered copy of the box (if any) sends as the live box does from now on.
if (home) sendFromFirstPaint();

/**
 * Resolves once home's question box can mount (the elements defined by the embed loader, which is
 * small, and the box's view loaded); `undefined` elsewhere.
 */
export const homeBoxLoaded: Promise<unknown> | undefined = home ? Promise.all([import('../widgets/loader'), import('../widgets/ask/Ask')]) : undefined;
