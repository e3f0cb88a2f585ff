import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { createGeneralApi } from '../../core/general-api';
import { api } from '../../core/page';
import { statusStore } from '../../core/status-store';
import { toastStore } from '../../core/toast';
import { parseDocIds } from '../../core/validation';
import { useT } from '../i18n';
import { AppShell } from '../shell/AppShell';
import { AdoptedElement, CustomElement, usePageTitle } from '../shell/common';
import { firstPaintElement } from '../shell/first-paint';
import { Icon, type IconName } from '../shell/Icons';
import { useAfterMainContent, whenIdle } from '../shell/idle';

/** The part of `<csai-ask>` the home page uses: `ask(question)` sends a question at once. */
interface AskElement extends HTMLElement {
  ask(question: string): void;
}
const canAsk = (el: HTMLElement): el is AskElement => typeof (el as Partial<AskElement>).ask === 'function';

/**
 * SPEC §2: an example question is asked at once. The home page hands it to the `<csai-ask>`
 * element through its `ask(question)` method as soon as the element is defined.
 */
async function askWith(el: HTMLElement | null, question: string, pendingTitle: string) {
  if (!el) return;
  if (!customElements.get('csai-ask')) toastStore().toast({ title: pendingTitle });
  await customElements.whenDefined('csai-ask');
  if (canAsk(el)) el.ask(question);
}

const FEATURE_ICONS: IconName[] = ['brain', 'file', 'search', 'tools'];

/** Home's heading: its mark, title and subtitle (also in the server-rendered first paint). */
export function HomeHero() {
  const t = useT();
  return (
    <section className="home__hero">
      <span className="home__mark" aria-hidden="true">
        <Icon name="sparkles" size={22} />
      </span>
      <h1 className="home__title">{t('home.title')}</h1>
      <p className="home__subtitle">{t('home.subtitle')}</p>
    </section>
  );
}

/** Home (SPEC §2): title, the question box, four example questions and four feature cards. */
export default function HomePage() {
  const t = useT();
  const search = useSearch();
  const askRef = useRef<HTMLElement>(null);
  // The examples are questions this server can answer (with a model or without one).
  const [model, setModel] = useState(false);
  usePageTitle(t('product_full'));
  // The examples and feature cards render after the question box is there (first load only).
  const afterMain = useAfterMainContent();
  // The server-rendered first paint's question box, taken over on the first render.
  const [prerendered] = useState(() => firstPaintElement('csai-ask'));
  // `q` (the first paint's form, sent before the page's scripts ran) was put into that box by the
  // server; it is not left in the address.
  const [, setLocation] = useLocation();
  useLayoutEffect(() => {
    const params = new URLSearchParams(search);
    if (!params.has('q')) return;
    params.delete('q');
    const rest = params.toString();
    setLocation(rest ? `/?${rest}` : '/', { replace: true });
  }, [search, setLocation]);

  // SPEC §2: `docIds` (one id or a comma-separated list) preselects documents.
  useEffect(() => {
    const ids = parseDocIds(new URLSearchParams(search).get('docIds'));
    if (ids.length) statusStore().ask.preselectDocuments(ids);
  }, [search]);

  // SPEC §7: the ping on home (quiet: the page works without it).
  useEffect(
    () =>
      whenIdle(() => {
        void createGeneralApi(api())
          .ping({ quiet: true, redirect: false })
          .then((ping) => setModel(ping.model === true))
          .catch(() => undefined);
      }),
    [],
  );

  const examples = [0, 1, 2, 3].map((i) => t(`home.${model ? 'examples' : 'examples_local'}.${i}`));
  return (
    <AppShell>
      <div className="home">
        <HomeHero />

        <div className="home__ask" role="region" aria-label={t('home.ask_label')}>
          {prerendered ? (
            <AdoptedElement element={prerendered} elementRef={askRef} pending={t('home.ask_pending')} />
          ) : (
            <CustomElement tag="csai-ask" elementRef={askRef} pending={t('home.ask_pending')} />
          )}
        </div>

        {afterMain && (
          <>
            <section className="home__section" aria-labelledby="examples-title">
              <h2 id="examples-title" className="section-title">{t('home.examples_title')}</h2>
              <ul className="examples">
                {examples.map((question) => (
                  <li key={question}>
                    <button type="button" className="example" onClick={() => void askWith(askRef.current, question, t('home.ask_pending'))}>
                      <span>{question}</span>
                      <Icon name="arrow" size={16} />
                    </button>
                  </li>
                ))}
              </ul>
            </section>

            <section className="home__section" aria-labelledby="features-title">
              <h2 id="features-title" className="section-title">{t('home.features_title')}</h2>
              <ul className="features">
                {FEATURE_ICONS.map((icon, i) => (
                  <li key={icon} className="feature">
                    <span className="feature__icon" aria-hidden="true">
                      <Icon name={icon} size={20} />
                    </span>
                    <h3 className="feature__title">{t(`home.features.${i}.title`)}</h3>
                    <p className="feature__text">{t(`home.features.${i}.text`)}</p>
                  </li>
                ))}
              </ul>
            </section>
          </>
        )}
      </div>
    </AppShell>
  );
}

