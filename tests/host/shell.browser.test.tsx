import { act } from '../react-act';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { clearStatusStorage, statusStore } from '../../src/core/status-store';
import { toastStore } from '../../src/core/toast';
import { hostI18n } from '../../src/host/i18n';
import { AppShell } from '../../src/host/shell/AppShell';
import { readSidebarCookie, SIDEBAR_COOKIE } from '../../src/host/shell/sidebar-state';
import { Toaster } from '../../src/host/shell/Toaster';
import HomePage from '../../src/host/pages/HomePage';
import { $routeProgress, finishRouteProgress, PROGRESS_SPEED, PROGRESS_TRICKLE, startRouteProgress } from '../../src/host/shell/route-progress';
import { transitRedirect } from '../../src/host/transit';
import { holdIdleTasksUntil, whenIdle } from '../../src/host/shell/idle';
import { routeElementNavigation } from '../../src/host/shell/element-navigation';
import { skipsDelay, Tooltip, tooltipClosed, TOOLTIP_OPEN_DELAY, TOOLTIP_SKIP_DELAY } from '../../src/host/shell/Tooltip';
import { expect, waitFor } from '../core/harness';
import { fakeApi, ok } from '../widgets/fake-api';

// The banner asks the server; answer it here so the page stays quiet. Any other call gets the server's 404.
fakeApi([['GET', '/prompt/get_alert', () => ok({ is_show: true, content: '系统将于今晚维护', content_type: 'warning' })]]);

let root: Root | undefined;
let host: HTMLElement;
/**
 * Renders with effects flushed (React's act), so listeners installed by effects — the sidebar
 * shortcut — exist before a test dispatches events; then waits for the first paint.
 */
async function mount(node: React.ReactNode) {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(() => root!.render(<I18nextProvider i18n={hostI18n()}>{node}</I18nextProvider>));
  await waitFor(() => host.firstElementChild, 'the first render');
}
const state = (want: string) => waitFor(() => sidebar()?.dataset.state === want, `sidebar ${want}`);
afterEach(() => {
  root?.unmount();
  host?.remove();
  root = undefined;
});
const sidebar = () => document.querySelector<HTMLElement>('[data-testid="sidebar"]');
const cookieState = () => readSidebarCookie(document.cookie);

describe('the sidebar', () => {
  before(() => {
    clearStatusStorage(sessionStorage);
    // A saved collapsed state from an earlier visit.
    document.cookie = `${SIDEBAR_COOKIE}=false; path=/`;
  });

  it('starts in the state saved in the sidebar:state cookie', async () => {
    await mount(<Router hook={memoryLocation({ path: '/' }).hook}><AppShell>页面</AppShell></Router>);
    await state('collapsed');
    expect(statusStore().layout.$isSidebarOpen.value).to.equal(false);
  });

  it('the toggle button expands it and saves the state for 7 days', async () => {
    await mount(<Router hook={memoryLocation({ path: '/' }).hook}><AppShell>页面</AppShell></Router>);
    document.querySelector<HTMLButtonElement>('[data-testid="sidebar-toggle"]')!.click();
    await state('expanded');
    expect(cookieState()).to.equal(true);
  });

  it('Ctrl+B and Cmd+B toggle it; B alone does not', async () => {
    await mount(<Router hook={memoryLocation({ path: '/' }).hook}><AppShell>页面</AppShell></Router>);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'b', ctrlKey: true }));
    await state('collapsed');
    expect(cookieState()).to.equal(false);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'b', metaKey: true }));
    await state('expanded');
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'b' }));
    expect(statusStore().layout.$isSidebarOpen.value).to.equal(true);
    expect(cookieState()).to.equal(true);
  });

  it('shows the rail entries with the open one marked, and the server banner', async () => {
    await mount(<Router hook={memoryLocation({ path: '/channels' }).hook}><AppShell>页面</AppShell></Router>);
    const current = document.querySelector('[aria-current="page"]');
    expect(current?.textContent).to.equal('历史会话');
    await waitFor(() => document.querySelector('.banner'), 'the banner');
    expect(document.querySelector('.banner')?.textContent).to.contain('系统将于今晚维护');
  });

  it('choosing the open entry again resets to its main view', async () => {
    const location = memoryLocation({ path: '/channels?channel_id=c1', record: true });
    await mount(<Router hook={location.hook} searchHook={location.searchHook}><AppShell>页面</AppShell></Router>);
    const before = statusStore().layout.$main_status.value;
    [...document.querySelectorAll<HTMLButtonElement>('.nav-item')].find((b) => b.textContent === '历史会话')!.click();
    expect(location.history.at(-1)).to.equal('/channels');
    expect(statusStore().layout.$main_status.value).to.equal(before + 1);
  });
});

describe('the toast region', () => {
  it('shows a toast, focuses on F8 and dismisses on a swipe right past 50 px', async () => {
    await mount(<Toaster />);
    toastStore().toast({ title: '登出成功' });
    const toast = await waitFor(() => document.querySelector<HTMLElement>('.toast'), 'the toast');
    expect(toast.textContent).to.contain('登出成功');
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'F8' }));
    expect(document.activeElement).to.equal(document.querySelector('.toaster__list'));
    const pointer = (type: string, x: number) => new PointerEvent(type, { bubbles: true, clientX: x, pointerId: 1 });
    toast.dispatchEvent(pointer('pointerdown', 100));
    toast.dispatchEvent(pointer('pointerup', 130));
    expect(toastStore().$toasts.value[0]?.open).to.equal(true);
    toast.dispatchEvent(pointer('pointerdown', 100));
    toast.dispatchEvent(pointer('pointerup', 160));
    expect(toastStore().$toasts.value[0]?.open).to.equal(false);
    await waitFor(() => !document.querySelector('.toast'), 'the toast to leave');
  });
});

describe('activation and reset fragments', () => {
  it('turn into their pages with the token', async () => {
    expect(transitRedirect('#activate_transit=abcDEF123_-xyz')).to.equal('/auth/activate-transit?token=abcDEF123_-xyz');
    expect(transitRedirect('#pswd_transit=tok456')).to.equal('/auth/reset-password?token=tok456');
    expect(transitRedirect('#other=1')).to.equal(null);
    expect(transitRedirect('#pswd_transit=<script>')).to.equal(null);
  });
});

describe('tooltips', () => {
  it('open after 700 ms, at once within 300 ms of another closing', () => {
    expect([TOOLTIP_OPEN_DELAY, TOOLTIP_SKIP_DELAY]).to.deep.equal([700, 300]);
    tooltipClosed(10_000);
    expect(skipsDelay(10_299)).to.equal(true);
    expect(skipsDelay(10_300)).to.equal(false);
  });

  it('show their label next to the focused control and close on Escape', async () => {
    await mount(<Tooltip label="展开侧边栏" placement="bottom"><button type="button">⇆</button></Tooltip>);
    const button = host.querySelector('button')!;
    tooltipClosed(performance.now()); // within the skip window: opens at once
    button.focus();
    const tip = await waitFor(() => document.querySelector<HTMLElement>('[role="tooltip"]'), 'the tooltip');
    expect(tip.textContent).to.equal('展开侧边栏');
    expect(button.getAttribute('aria-describedby')).to.equal(tip.id);
    await waitFor(() => tip.getBoundingClientRect().top >= button.getBoundingClientRect().bottom, 'the tooltip below its control');
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    await waitFor(() => !document.querySelector('[role="tooltip"]'), 'the tooltip closed');
  });
});

describe('navigation asked by an element', () => {
  it('is routed inside the site for site paths and left alone otherwise', () => {
    const paths: string[] = [];
    const stop = routeElementNavigation(document, (p) => paths.push(p));
    const ask = (path: string) => {
      const event = new CustomEvent('csai-navigate', { detail: { path, url: `http://x${path}` }, bubbles: true, composed: true, cancelable: true });
      document.body.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(ask('/channels?channel_id=c1&closeSider=true')).to.equal(true);
    expect(ask('//evil.example/x')).to.equal(false);
    expect(ask('https://evil.example/')).to.equal(false);
    stop();
    expect(ask('/knowledges')).to.equal(false);
    expect(paths).to.deep.equal(['/channels?channel_id=c1&closeSider=true']);
  });
});

describe('the home page', () => {
  it('shows the title, four example questions and four feature cards, and preselects docIds', async () => {
    statusStore().ask.$docIdList.value = [];
    const location = memoryLocation({ path: '/?docIds=doc1,doc2,doc1' });
    await mount(<Router hook={location.hook} searchHook={location.searchHook}><HomePage /></Router>);
    expect(document.querySelector('h1')?.textContent).to.equal('有什么可以帮您？');
    expect(document.querySelectorAll('.example')).to.have.length(4);
    expect(document.querySelectorAll('.feature')).to.have.length(4);
    expect(document.querySelector('csai-ask')).to.not.equal(null);
    await waitFor(() => statusStore().ask.$docIdList.value.length === 2, 'docIds in the store');
    expect(statusStore().ask.$docIdList.value).to.deep.equal(['doc1', 'doc2']);
  });
});

describe('the route progress bar', () => {
  it('starts on a route change, trickles every 200 ms at speed 300, completes when the page is ready', async () => {
    expect([PROGRESS_SPEED, PROGRESS_TRICKLE]).to.deep.equal([300, 200]);
    startRouteProgress();
    const first = $routeProgress.value!;
    expect(first).to.be.greaterThan(0).and.lessThan(1);
    await waitFor(() => ($routeProgress.value ?? 0) > first, 'a trickle step');
    finishRouteProgress();
    expect($routeProgress.value).to.equal(1);
    await waitFor(() => $routeProgress.value === null, 'the bar to hide');
  });

  it('stays hidden when the new page rendered before the bar heard of the change, and starts for the next one', () => {
    finishRouteProgress('/channels');
    startRouteProgress('/channels');
    expect($routeProgress.value).to.equal(null);
    startRouteProgress('/knowledges');
    expect($routeProgress.value).to.be.greaterThan(0);
    finishRouteProgress('/knowledges');
    expect($routeProgress.value).to.equal(1);
  });
});

describe('work deferred past the first paint', () => {
  it('runs once after a frame, in order, and not at all when cancelled', async () => {
    const ran: string[] = [];
    whenIdle(() => ran.push('first'));
    const cancel = whenIdle(() => ran.push('cancelled'));
    cancel();
    expect(ran).to.deep.equal([]);
    await new Promise<void>((resolve) => whenIdle(() => resolve()));
    await new Promise<void>((resolve) => whenIdle(() => resolve()));
    expect(ran).to.deep.equal(['first']);
  });

  it('waits while the page\'s main content loads (held), then runs; a cancelled task never runs', async () => {
    let loaded!: () => void;
    holdIdleTasksUntil(new Promise<void>((resolve) => (loaded = resolve)));
    const ran: string[] = [];
    whenIdle(() => ran.push('deferred'), 50);
    const cancel = whenIdle(() => ran.push('cancelled'), 50);
    cancel();
    await new Promise((r) => setTimeout(r, 200));
    expect(ran).to.deep.equal([]);
    loaded();
    await new Promise<void>((resolve) => whenIdle(() => resolve()));
    await new Promise<void>((resolve) => whenIdle(() => resolve()));
    expect(ran).to.deep.equal(['deferred']);
  });

  it("home's first load: the rail's entries and the example questions come once the question box is there", async () => {
    let loaded!: () => void;
    holdIdleTasksUntil(new Promise<void>((resolve) => (loaded = resolve)));
    const location = memoryLocation({ path: '/' });
    await mount(<Router hook={location.hook} searchHook={location.searchHook}><HomePage /></Router>);
    expect(host.querySelector('h1')?.textContent).to.contain('有什么可以帮您');
    expect(host.querySelector('csai-ask')).to.not.equal(null);
    expect(sidebar()).to.not.equal(null); // the docked rail keeps its place
    expect(host.querySelector('.nav-item')).to.equal(null);
    expect(host.querySelector('.example')).to.equal(null);
    loaded();
    await waitFor(() => host.querySelectorAll('.example').length === 4 && host.querySelectorAll('.nav-item').length === 4, 'the deferred parts');
  });

  it('lets held tasks go after the limit when the content never arrives', async () => {
    holdIdleTasksUntil(new Promise(() => {}), 100);
    await new Promise<void>((resolve) => whenIdle(() => resolve(), 50));
  });
});
