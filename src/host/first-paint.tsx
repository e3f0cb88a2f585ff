// Home's first paint, rendered at build time (scripts/vite-first-paint.ts) from the components the
// page itself renders: the shell as it first shows (the rail's entries and the examples wait for
// the question box, see shell/idle.ts), the heading, and <csai-ask> with a declarative shadow root
// holding the question box as a form. The server sends it to a signed-in `/` beside the empty
// #root (src/server/first-paint.ts), so the box shows and takes typing before any script runs;
// the page's scripts then take it over (shell/first-paint.ts, widgets/shared/prerendered.ts).
// React's server renderer, not src/server (the layer rule matches any path ending in /server).
// eslint-disable-next-line no-restricted-imports
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { Router } from 'wouter';
import { QUESTION_SLOT, type FirstPaint } from '../contract/first-paint';
import { statusStore } from '../core/status-store';
import { Ask } from '../widgets/ask/Ask';
import { PRERENDERED_ATTR } from '../widgets/shared/prerendered';
import { ViewFrame } from '../widgets/shared/react-view';
import { stringsReady } from '../widgets/shared/i18n';
import { hostI18n, type InterfaceLanguage } from './i18n';
import { hostEn } from './locales-en';
import { HomeHero } from './pages/HomePage';
import { AppShell } from './shell/AppShell';
import { FIRST_PAINT_ID } from './shell/first-paint';
import { renderAsFirstLoad } from './shell/idle';

/** One form of the first paint: the interface language and the sidebar's saved state. */
export interface FirstPaintVariant {
  language: InterfaceLanguage;
  sidebarOpen: boolean;
}


/**
 * Rules the static copy needs beside the elements' own: its form lays out as the live box's
 * wrapper does; its send button, enabled so the form can send without script, looks disabled
 * while the box is empty, as the live one is; its other controls, disabled until the live box is
 * there, look as the live ones do.
 */
const COPY_CSS = `
form[data-csai-form] { display: contents; }
form[data-csai-form]:invalid [part~="send"] { opacity: 0.5; cursor: not-allowed; }
form[data-csai-form] :disabled:not([part~="send"]) { opacity: 1; cursor: pointer; }
`;

/**
 * The question box's markup as a form: the text area named `q` and required, send a submit button.
 * Its other controls (tabs, toggles, search type, the editor button) are disabled and its file
 * input left out: they do nothing before the live box is there, and a file given to them would
 * be lost. Disabled, they say so: a program that waits for an enabled control (a test driver, an
 * assistive tool) gets the live one once it has taken the copy over.
 */
function asForm(box: string): string {
  const input = /<textarea part="input"([^>]*)><\/textarea>/;
  const send = /<button type="button" part="send" disabled=""([^>]*)>/;
  const file = /<input type="file"[^>]*\/>/;
  if (!input.test(box) || !send.test(box) || !file.test(box)) throw new Error('first paint: the question box has no text area, send button or file input where expected');
  return box
    .replace(input, `<textarea part="input" name="q" required=""$1>${QUESTION_SLOT}</textarea>`)
    .replace(file, '')
    .replace(send, '<button type="submit" part="send"$1>')
    .replace(/<button type="button"/g, '<button type="button" disabled=""')
    .replace(/<select /g, '<select disabled="" ');
}

/**
 * Renders the first paint for one variant. `css`: the rules the elements' shadow roots adopt
 * (base and class rules), put in the copy's style element.
 */
export async function renderHomeFirstPaint({ language, sidebarOpen }: FirstPaintVariant, css: string): Promise<FirstPaint> {
  const i18n = hostI18n();
  if (!i18n.hasResourceBundle('en', 'host')) i18n.addResourceBundle('en', 'host', hostEn, true, false);
  await i18n.changeLanguage(language);
  const lang = language === 'en' ? 'en' : 'zh-CN';
  await stringsReady(lang);
  statusStore().layout.$isSidebarOpen.value = sidebarOpen;

  const stub = {} as HTMLElement & ShadowRoot;
  const box = renderToStaticMarkup(
    <ViewFrame info={{ host: stub, root: stub, lang, theme: undefined, apiBase: undefined, accent: undefined, radius: undefined, resolvedTheme: 'light', apiOrigin: '' }} prerendered>
      <form data-csai-form="" method="get" action="/">
        <Ask lang={lang} channelId={undefined} navigate={undefined} theme={undefined} apiBase={undefined} accent={undefined} radius={undefined} />
      </form>
    </ViewFrame>,
  );
  const style = `${css}\n${COPY_CSS}`;
  const element = `<csai-ask lang="${lang}" data-csai-first-paint=""><template shadowrootmode="open"><style ${PRERENDERED_ATTR}="">${style}</style>${asForm(box)}</template></csai-ask>`;
  const SLOT = 'csai-first-paint-element';
  const page = renderAsFirstLoad(() =>
    renderToStaticMarkup(
      <I18nextProvider i18n={i18n}>
        <Router ssrPath="/">
          <AppShell>
            <div className="home">
              <HomeHero />
              <div className="home__ask" role="region" aria-label={i18n.t('home.ask_label', { ns: 'host' })}>
                <div className={SLOT} />
              </div>
            </div>
          </AppShell>
        </Router>
      </I18nextProvider>,
    ),
  );
  const slot = `<div class="${SLOT}"></div>`;
  if (!page.includes(slot)) throw new Error('first paint: the page has no place for the question box');
  // Inline style attributes would break the site's CSP (style-src 'self'); theme.css gives the
  // same values as fallbacks.
  const html = page.replace(/ style="[^"]*"/g, '').replace(slot, element);
  return { html: `<div id="${FIRST_PAINT_ID}" lang="${lang}">${html}</div>`, style };
}
