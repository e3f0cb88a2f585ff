import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { navigate } from 'wouter/use-browser-location';
import { checkEnvironment } from '../core/env';
import { setNavigate } from '../core/page';
import { toastStore } from '../core/toast';
import { App } from './App';
import { hostI18n } from './i18n';
import { routes } from './routes';
import { confirmSession, rememberReturnPath } from './session';
import { seedSidebarFromCookie } from './shell/sidebar-state';
import { transitRedirect } from './transit';
import './theme.css';

// SPEC §2: activation and reset links arrive as fragments; turn them into their pages first.
const transit = transitRedirect(window.location.hash);
if (transit) window.history.replaceState(null, '', transit);

setNavigate((path) => {
  // A 401 sends the visitor to sign-in; remember where they were to bring them back.
  if (path === '/auth/sign-in') rememberReturnPath(window.location.pathname + window.location.search);
  navigate(path);
});
seedSidebarFromCookie();
// Ask who is signed in while React starts, not after (app routes wait for this answer).
if (routes.some((r) => r.auth && r.path === window.location.pathname)) void confirmSession((path) => navigate(path));
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
// SPEC §4: the build environment is checked at start-up (against an empty schema).
checkEnvironment(import.meta.env, { toasts: toastStore(), i18n: hostI18n() });

// The custom elements (<csai-ask>, …) register after the first paint, off the critical path.
const loadElements = () => void import('../widgets/loader');
if ('requestIdleCallback' in window) window.requestIdleCallback(loadElements, { timeout: 2000 });
else setTimeout(loadElements, 200);
