// First: starts loading home's question box before the rest evaluates.
import { homeBoxLoaded } from './start';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { navigate } from 'wouter/use-browser-location';
import { setNavigate } from '../core/page';
import { toastStore } from '../core/toast';
import { App } from './App';
import { applyLanguage, hostI18n, storedLanguage } from './i18n';
import { routes } from './routes';
import { confirmSession, probablySignedIn, rememberReturnPath } from './session';
import { copyTakenOver, firstPaintElement } from './shell/first-paint';
import { holdIdleTasksUntil, whenIdle } from './shell/idle';
import { MOBILE_BREAKPOINT, seedSidebarFromCookie } from './shell/sidebar-state';
import { reloadOnStaleBuild } from './shell/stale-build';
import { transitRedirect } from './transit';
import './theme.css';

// zod probes `new Function` when it builds object schemas; under the site's CSP (no 'unsafe-eval')
// the browser reports that probe. zod reads this global (creating it otherwise) when its code first
// loads, which is after this line: it parses without the probe (jitless).
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig ??= { jitless: true };

// Home's deferred work (ping, banner, session check, the other elements) waits for its question box.
if (homeBoxLoaded) holdIdleTasksUntil(homeBoxLoaded);

// SPEC §2: activation and reset links arrive as fragments; turn them into their pages first.
const transit = transitRedirect(window.location.hash);
if (transit) window.history.replaceState(null, '', transit);

setNavigate((path) => {
  // A 401 sends the visitor to sign-in; remember where they were to bring them back.
  if (path === '/auth/sign-in') rememberReturnPath(window.location.pathname + window.location.search);
  navigate(path);
});
seedSidebarFromCookie();
// The language chosen in the user menu, remembered by this browser (also before sign-in).
// An English page renders once its strings have loaded (a Chinese one at once), so it never shows
// Chinese first.
const language = storedLanguage();
const languageReady = language ? applyLanguage(language) : Promise.resolve();
// A tab opened before a rebuild reloads once when the chunks it asks for are gone.
reloadOnStaleBuild();
// Ask who is signed in while React starts, not after, when an app route waits for this answer.
// A returning user's page renders at once (the signed-in hint), and the check follows the first
// render, so its code (zod and the auth contract) stays off the critical path.
if (!probablySignedIn() && routes.some((r) => r.auth && r.path === window.location.pathname)) void confirmSession((path) => navigate(path));
const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
// With home's server-rendered first paint on screen (shell/first-paint.ts), the page's own render
// waits for the live question box, which mounts into the copy's element: the user sees the shell
// either way, and the box the user types in comes first. (A narrow screen does not show the copy.)
const narrow = window.matchMedia(`(max-width: ${MOBILE_BREAKPOINT - 1}px)`).matches;
const firstPaintBox = narrow ? null : firstPaintElement('csai-ask');
const boxFirst = firstPaintBox ? copyTakenOver(firstPaintBox, 3000) : Promise.resolve();
if (language === 'en') void Promise.all([languageReady, boxFirst]).then(render, render);
else if (firstPaintBox) void boxFirst.then(render);
else render();
// After the first paint, off the critical path: SPEC §4's start-up check of the build environment
// (against an empty schema; zod loads for it here) and the custom elements (<csai-ask>, …).
const afterFirstPaint = () => {
  void import('../core/env').then(({ checkEnvironment }) => checkEnvironment(import.meta.env, { toasts: toastStore(), i18n: hostI18n() }));
  void import('../widgets/loader');
};
whenIdle(afterFirstPaint, 2000);
