import '../../src/widgets/status/status.element';
import { expect, failOnConsoleErrors, mount, part, statusRoutes, waitFor } from './harness';
import { fakeApi } from './fake-api';

// What a host page would notice: its own elements keep their look, and its styles cannot break ours.
const looks = (el: Element) => {
  const s = getComputedStyle(el);
  return { display: s.display, padding: s.padding, color: s.color, font: s.fontFamily, radius: s.borderTopLeftRadius, bg: s.backgroundColor };
};

describe('style isolation of the elements', () => {
  failOnConsoleErrors();
  let restore: () => void = () => {};
  let box: HTMLElement | undefined;
  let hostile: HTMLStyleElement | undefined;
  afterEach(() => {
    box?.remove();
    hostile?.remove();
    hostile = undefined;
    restore();
  });
  const showStatus = async (html: string) => {
    restore = fakeApi(statusRoutes({ content: '今晚维护', content_type: 'warning' })).restore;
    box = mount(html);
    const el = box.querySelector('csai-status')!;
    await waitFor(() => part(el, 'banner'), 'the banner');
    return el;
  };

  describe('when an element renders on a page', () => {
    it('changes no style of the page: same computed styles, no new style sheets', async () => {
      const page = mount('<div class="flex rounded-full p-8 text-accent bg-surface font-csai csai-root" id="page-div">页面内容</div><button class="sr-only">按钮</button>');
      const before = [looks(page.firstElementChild!), looks(page.querySelector('button')!), looks(document.body)];
      const sheetsBefore = document.styleSheets.length;
      await showStatus('<csai-status></csai-status>');
      expect([looks(page.firstElementChild!), looks(page.querySelector('button')!), looks(document.body)]).to.deep.equal(before);
      expect(document.styleSheets.length).to.equal(sheetsBefore);
      expect(document.adoptedStyleSheets.length).to.equal(0);
      expect(document.querySelectorAll('style[data-twind], link[rel=stylesheet]').length).to.equal(0);
      page.remove();
    });
  });

  describe('when the page has a hostile stylesheet', () => {
    it('still shows the element with its own look', async () => {
      hostile = document.createElement('style');
      hostile.textContent = `
        * { all: unset !important; }
        button { display: none !important; }
        body, div { color: transparent !important; font-size: 0 !important; line-height: 0 !important; letter-spacing: 30px !important; visibility: hidden !important; }
        span { display: none !important; }
        csai-status { font-family: "Comic Sans MS", cursive !important; }
      `;
      document.head.append(hostile);
      const el = await showStatus('<div><csai-status></csai-status></div>');
      const label = part(el, 'label')!;
      const banner = part(el, 'banner')!;
      for (const node of [label, banner, part(el, 'pill')!]) {
        const s = getComputedStyle(node);
        expect(node.getBoundingClientRect().width, node.getAttribute('part')!).to.be.greaterThan(0);
        expect(node.getBoundingClientRect().height, node.getAttribute('part')!).to.be.greaterThan(0);
        expect(s.visibility).to.equal('visible');
        expect(s.display).to.not.equal('none');
        expect(s.fontSize).to.equal('14px');
        expect(s.letterSpacing).to.equal('normal');
        expect(s.fontFamily).to.not.contain('Comic');
      }
      expect(getComputedStyle(label).color).to.equal('rgb(17, 24, 39)');
      expect(getComputedStyle(banner).color).to.equal('rgb(180, 83, 9)');
      expect(label.textContent).to.equal('服务正常');
    });
  });
});
