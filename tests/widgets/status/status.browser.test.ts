import axe from 'axe-core';
import '../../../src/widgets/status/status.element';
import { elementPage, expect, failOnConsoleErrors, nextFrame, part, statusRoutes, waitFor } from '../harness';
import { fail, ok, type Route } from '../fake-api';

/** The two calls of <csai-status>, each failing as a request the browser could not send. */
const offline: Route[] = statusRoutes().map(([method, path]) => [method, path, () => Promise.reject(new TypeError('Failed to fetch'))]);

const rgb = (el: Element | null, prop: string) => (el ? getComputedStyle(el).getPropertyValue(prop) : '');

describe('<csai-status>', () => {
  failOnConsoleErrors();
  const page = elementPage();
  const show = async (attrs = '', routes: Route[] = statusRoutes()) => {
    const { box, api } = page.show(routes, `<csai-status ${attrs}></csai-status>`);
    const el = box.querySelector('csai-status')!;
    await waitFor(() => part(el, 'pill')?.dataset.state !== 'checking' && part(el, 'pill'), 'the ping');
    return { el, urls: api.urls };
  };

  describe('when the server answers', () => {
    it('renders in an open shadow root with its twind classes applied', async () => {
      const { el } = await show();
      expect(el.shadowRoot?.mode).to.equal('open');
      const pill = part(el, 'pill')!;
      expect(pill.dataset.state).to.equal('online');
      expect(part(el, 'label')!.textContent).to.equal('服务正常');
      expect(getComputedStyle(pill).alignItems).to.equal('center'); // items-center
      expect(getComputedStyle(pill).borderTopLeftRadius).to.equal('8px'); // rounded-csai → --csai-radius default 0.5rem
      expect(rgb(part(el, 'product'), 'color')).to.equal('rgb(37, 99, 235)'); // text-accent default
      expect(getComputedStyle(part(el, 'indicator')!).width).to.equal('10px');
      expect(pill.title).to.equal('版本 1.2.3');
    });

    it('calls the server named by api-base', async () => {
      const { urls } = await show('api-base="https://csai.example.com/"');
      expect(urls()).to.have.members(['https://csai.example.com/api/v1/', 'https://csai.example.com/api/v1/prompt/get_alert']);
    });

    it('follows a change of api-base and ignores the old server’s late answers', async () => {
      let releaseOld: () => void = () => {};
      const oldAnswered = new Promise<void>((r) => (releaseOld = r));
      const old = (answer: () => Response) => async (req: { origin: string }) => {
        if (req.origin !== 'https://old.example') return undefined;
        await oldAnswered;
        return answer();
      };
      const { box, api: fake } = page.show(
        [
          ...statusRoutes(),
          ['GET', '/', old(() => ok({ name: 'csai', version: 'old', time: '' }))],
          ['GET', '/prompt/get_alert', old(() => ok({ is_show: true, content: '旧服务器的公告', content_type: 'info' }))],
        ],
        '<csai-status api-base="https://old.example"></csai-status>',
      );
      const el = box.querySelector('csai-status')!;
      await waitFor(() => fake.urls().length === 2, 'the calls to the old server');
      el.setAttribute('api-base', 'https://new.example');
      await waitFor(() => part(el, 'pill')?.dataset.state === 'online', 'the new server');
      releaseOld();
      await oldAnswered;
      await nextFrame(); // let the old answers settle
      await nextFrame();
      expect(part(el, 'pill')!.title).to.equal('版本 1.2.3');
      expect(part(el, 'banner')).to.equal(null);
      expect(fake.urls().slice(2)).to.have.members(['https://new.example/api/v1/', 'https://new.example/api/v1/prompt/get_alert']);
    });

    it('speaks English with lang="en" and Chinese otherwise', async () => {
      const { el, urls } = await show('lang="en-US"');
      expect(part(el, 'label')!.textContent).to.equal('Service available');
      el.removeAttribute('lang');
      await waitFor(() => part(el, 'label')!.textContent === '服务正常', 'Chinese after removing lang');
      expect(urls().length, 'a language change does not call the server again').to.equal(2);
    });

    it('shows the banner coloured by its type', async () => {
      const { el } = await show('', statusRoutes({ content: '系统将于今晚 22:00 维护', content_type: 'error' }));
      const banner = await waitFor(() => part(el, 'banner'), 'the banner');
      expect(banner.textContent).to.equal('系统将于今晚 22:00 维护');
      expect(banner.dataset.type).to.equal('error');
      expect(rgb(banner, 'color')).to.equal('rgb(185, 28, 28)');
      expect(rgb(banner, 'border-left-width')).to.equal('4px');
    });

    it('renders every part custom-elements.json documents', async () => {
      const manifest = await (await fetch('/custom-elements.json')).json();
      const status = manifest.modules.flatMap((m: { declarations: { tagName: string; cssParts: { name: string }[] }[] }) => m.declarations).find((d: { tagName: string }) => d.tagName === 'csai-status');
      const { el } = await show('', statusRoutes({ content: '公告', content_type: 'success' }));
      await waitFor(() => part(el, 'banner'), 'the banner');
      // `error` replaces the content only after a render failure (tests/widgets/element.browser.test.ts).
      for (const { name } of status.cssParts.filter((p: { name: string }) => p.name !== 'error')) expect(part(el, name), name).to.not.equal(null);
    });

    it('has no serious accessibility violation in any state, theme or banner type', async () => {
      const quietErrors = (e: Event) => e.stopPropagation();
      const cases: [string, Route[]][] = [
        ['', statusRoutes()],
        ['compact', statusRoutes()],
        ['', offline],
        ['theme="dark"', offline],
        ...(['info', 'success', 'warning', 'error'] as const).flatMap((type): [string, Route[]][] => [
          ['', statusRoutes({ content: `${type} 公告`, content_type: type })],
          ['theme="dark"', statusRoutes({ content: `${type} 公告`, content_type: type })],
        ]),
      ];
      for (const [attrs, routes] of cases) {
        const { el } = await show(attrs, routes);
        el.addEventListener('csai-error', quietErrors);
        if (routes !== offline && attrs !== 'compact') await waitFor(() => part(el, 'pill')?.dataset.state === 'online', 'online');
        const result = await axe.run(el);
        const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.failureSummary).join(' / ')}`), `${attrs} ${part(el, 'banner')?.dataset.type ?? ''}`).to.deep.equal([]);
      }
    });
  });

  describe('when the banner call fails', () => {
    it('hides the banner and still shows reachability', async () => {
      const { el } = await show('', [...statusRoutes(), ['GET', '/prompt/get_alert', () => fail(500, '服务器内部错误，请稍后重试', 'internal_error')]]);
      expect(part(el, 'pill')!.dataset.state).to.equal('online');
      expect(part(el, 'banner')).to.equal(null);
    });
  });

  describe('when the ping fails', () => {
    it('shows the server as unreachable and emits csai-error, bubbling and composed', async () => {
      const seen: CustomEvent[] = [];
      const listener = (e: Event) => seen.push(e as CustomEvent);
      document.addEventListener('csai-error', listener);
      try {
        const { el } = await show('', offline);
        expect(part(el, 'pill')!.dataset.state).to.equal('offline');
        expect(part(el, 'label')!.textContent).to.equal('无法连接服务器');
        expect(part(el, 'banner')).to.equal(null);
        await waitFor(() => seen.length > 0, 'csai-error');
        const [event] = seen;
        expect(event!.bubbles).to.equal(true);
        expect(event!.composed).to.equal(true);
        expect(event!.target).to.equal(el);
        expect(event!.detail).to.deep.equal({ message: '网络连接失败，请检查网络后重试', code: 'network_error' });
      } finally {
        document.removeEventListener('csai-error', listener);
      }
    });

    it('passes the server envelope code and status on', async () => {
      const seen: CustomEvent[] = [];
      const { box } = page.show(statusRoutes().map(([method, path]) => [method, path, () => fail(503, '维护中', 'maintenance')]), '');
      box.addEventListener('csai-error', (e) => seen.push(e));
      box.innerHTML = '<csai-status></csai-status>';
      await waitFor(() => seen.length > 0, 'csai-error');
      expect(seen[0]!.detail).to.deep.equal({ message: '维护中', code: 'maintenance', status: 503 });
    });

    it('reports an answer it cannot read', async () => {
      const seen: CustomEvent[] = [];
      const { box } = page.show(statusRoutes().map(([method, path]) => [method, path, () => ok({ name: 'other' })]), '');
      box.addEventListener('csai-error', (e) => seen.push(e));
      box.innerHTML = '<csai-status lang="en"></csai-status>';
      await waitFor(() => seen.length > 0, 'csai-error');
      expect(seen[0]!.detail.code).to.equal('unexpected_response');
      expect(seen[0]!.detail.message).to.equal('The server answered with data the page does not understand');
    });
  });

  describe('theming', () => {
    it('theme="dark" changes the colours, and removing it restores them', async () => {
      const { el } = await show('theme="dark"');
      const pill = part(el, 'pill')!;
      expect(rgb(pill, 'background-color')).to.equal('rgb(17, 24, 39)');
      expect(rgb(pill, 'color')).to.equal('rgb(243, 244, 246)');
      el.removeAttribute('theme');
      await waitFor(() => rgb(pill, 'background-color') === 'rgb(255, 255, 255)', 'the light theme');
    });

    it('accent and radius attributes override the tokens, and removing them restores the defaults', async () => {
      const { el } = await show('accent="rgb(200, 10, 20)" radius="3px"');
      expect(rgb(part(el, 'product'), 'color')).to.equal('rgb(200, 10, 20)');
      expect(rgb(part(el, 'pill'), 'border-top-left-radius')).to.equal('3px');
      el.setAttribute('accent', 'rgb(0, 128, 0)');
      await waitFor(() => rgb(part(el, 'product'), 'color') === 'rgb(0, 128, 0)', 'the new accent');
      el.removeAttribute('accent');
      el.removeAttribute('radius');
      await waitFor(() => rgb(part(el, 'product'), 'color') === 'rgb(37, 99, 235)', 'the default accent');
      expect(rgb(part(el, 'pill'), 'border-top-left-radius')).to.equal('8px');
    });

    it('an accent or radius the browser cannot read is not applied: the default or the page-wide token stays', async () => {
      const { el } = await show('accent="blu" radius="round"');
      expect(rgb(part(el, 'product'), 'color')).to.equal('rgb(37, 99, 235)');
      expect(rgb(part(el, 'pill'), 'border-top-left-radius')).to.equal('8px');
      page.box().style.setProperty('--csai-accent', 'rgb(1, 2, 3)');
      expect(rgb(part(el, 'product'), 'color')).to.equal('rgb(1, 2, 3)');
      el.setAttribute('accent', 'rgb(0, 128, 0)');
      await waitFor(() => rgb(part(el, 'product'), 'color') === 'rgb(0, 128, 0)', 'a good accent after a bad one');
    });

    it('page-wide --csai-* tokens inherit through the shadow root', async () => {
      const { el } = await show();
      page.box().style.setProperty('--csai-accent', 'rgb(1, 2, 3)');
      page.box().style.setProperty('--csai-font', 'monospace');
      expect(rgb(part(el, 'product'), 'color')).to.equal('rgb(1, 2, 3)');
      expect(getComputedStyle(part(el, 'pill')!).fontFamily).to.equal('monospace');
    });

    it('accepts the JS property API, reflected to the attribute', async () => {
      const { el } = await show();
      el.accent = 'rgb(9, 9, 9)';
      expect(el.getAttribute('accent')).to.equal('rgb(9, 9, 9)');
      await waitFor(() => rgb(part(el, 'product'), 'color') === 'rgb(9, 9, 9)', 'the accent set by property');
    });
  });

  describe('the compact boolean attribute', () => {
    it('is on when present and empty, off with "false", and off again when removed', async () => {
      const { el } = await show('compact');
      const label = part(el, 'label')!;
      expect(getComputedStyle(label).position).to.equal('absolute'); // sr-only
      el.setAttribute('compact', 'false');
      await waitFor(() => getComputedStyle(label).position === 'static', 'compact off');
      el.setAttribute('compact', '');
      await waitFor(() => getComputedStyle(label).position === 'absolute', 'compact on again');
      el.removeAttribute('compact');
      await waitFor(() => getComputedStyle(label).position === 'static', 'compact removed');
    });
  });
});
