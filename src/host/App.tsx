import { Suspense, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Route, Router, Switch, useLocation } from 'wouter';
// Signal reads in render are tracked by useSignals() (no compiler plugin), see README.
import { useSignals } from '@preact/signals-react/runtime';
import { statusStore } from '../core/status-store';
import { hostI18n } from './i18n';
import { notFoundPage, routes, type RouteDef } from './routes';
import { PageLoading } from './shell/common';
import { layouts } from './shell/layouts';
import { ProgressBar, RouteReady } from './shell/ProgressBar';
import { Toaster } from './shell/Toaster';
import { confirmSession, probablySignedIn } from './session';
import { routeElementNavigation } from './shell/element-navigation';
import { whenIdle } from './shell/idle';
import { dropFirstPaint } from './shell/first-paint';

/** Shows its children to a signed-in user; otherwise confirms the session (401 → sign-in). */
function RequireUser({ children }: { children: ReactNode }) {
  useSignals();
  const [, navigate] = useLocation();
  const known = statusStore().session.$user_info.value.id !== '' || probablySignedIn();
  const [confirmed, setConfirmed] = useState(false);
  useEffect(() => {
    let live = true;
    const check = () => void confirmSession(navigate).then((ok) => live && setConfirmed(ok));
    // A returning user already sees the page; the check (and its code) can wait for the first paint.
    // (`known` only decides when the check runs, so it is not a dependency.)
    let cancel: (() => void) | undefined;
    if (known) cancel = whenIdle(check);
    else check();
    return () => {
      live = false;
      cancel?.();
    };
  }, [navigate]);
  return known || confirmed ? <>{children}</> : <PageLoading />;
}

/** One route: its page inside its layout (SPEC §2 rule), behind the sign-in guard when asked. */
function RoutePage({ def }: { def: RouteDef }) {
  const Page = def.page;
  let content: ReactNode = <Page />;
  if (def.layout !== false) {
    const Layout = layouts[def.layout ?? 'default'];
    content = <Layout>{content}</Layout>;
  }
  return def.auth ? <RequireUser>{content}</RequireUser> : content;
}

const NotFound = notFoundPage;

/** Routes the elements' `csai-navigate` requests inside the site. */
function ElementNavigation() {
  const [location, navigate] = useLocation();
  useEffect(() => routeElementNavigation(document, (path) => navigate(path)), [navigate]);
  // Home's server-rendered first paint is home's: any other page (a redirect before home rendered) goes without it.
  useLayoutEffect(() => {
    if (location !== '/') dropFirstPaint();
  }, [location]);
  return null;
}

/** The root view (SPEC §2): progress bar, toast area and the routed view with its loading fallback. */
export function App() {
  return (
    <I18nextProvider i18n={hostI18n()}>
      <Router>
        <ProgressBar />
        <ElementNavigation />
        <Suspense fallback={<PageLoading />}>
          <Switch>
            {routes.map((def) => (
              <Route key={def.path} path={def.path}>
                <RoutePage def={def} />
              </Route>
            ))}
            <Route>
              <layouts.blank>
                <NotFound />
              </layouts.blank>
            </Route>
          </Switch>
          <RouteReady />
        </Suspense>
        <Toaster />
      </Router>
    </I18nextProvider>
  );
}
