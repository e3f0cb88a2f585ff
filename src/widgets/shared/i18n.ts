import i18next, { type i18n as I18n, type ResourceLanguage, type TFunction } from 'i18next';

/** Default language of every element (SPEC §9); English fills in missing strings. */
export const DEFAULT_LANG = 'zh';
export const FALLBACK_LANG = 'en';

let instance: I18n | undefined;

/**
 * The elements' own i18next instance (not the page's global one, which a host page may use for
 * itself). Each element adds its strings as a namespace with {@link addStrings}.
 */
export function widgetI18n(): I18n {
  if (!instance) {
    instance = i18next.createInstance();
    void instance.init({
      lng: DEFAULT_LANG,
      fallbackLng: FALLBACK_LANG,
      initAsync: false,
      resources: {},
      interpolation: { escapeValue: false }, // React escapes
      returnNull: false,
    });
  }
  return instance;
}

/** English strings given as a module to import when an element first speaks English. */
export type LazyStrings = () => Promise<{ default: ResourceLanguage }>;

// Namespaces whose English strings are not loaded yet, and the load under way.
const lazyEnglish = new Map<string, LazyStrings>();
let englishLoad: Promise<void> | undefined;

/**
 * Registers an element's strings: `{ zh: {...}, en: {...} }` under namespace `ns`. `en` may be a
 * loader (`() => import('./x.strings.en')`): an element on a Chinese page (the default) then never
 * downloads its English texts, and one speaking English renders once they are there (see
 * `reactView`). Only a view's own module may do so: a namespace registered after the view first
 * rendered would show Chinese until the view renders again.
 */
export function addStrings(ns: string, strings: { zh: ResourceLanguage; en: ResourceLanguage | LazyStrings }) {
  const i18n = widgetI18n();
  if (i18n.hasResourceBundle(DEFAULT_LANG, ns)) return;
  i18n.addResourceBundle(DEFAULT_LANG, ns, strings.zh);
  if (typeof strings.en === 'function') lazyEnglish.set(ns, strings.en);
  else i18n.addResourceBundle(FALLBACK_LANG, ns, strings.en);
}

/** The supported language an element's `lang` attribute asks for. */
function languageOf(lang: string | undefined): typeof DEFAULT_LANG | typeof FALLBACK_LANG {
  const base = (lang ?? DEFAULT_LANG).trim().toLowerCase().split('-')[0];
  return base === FALLBACK_LANG ? FALLBACK_LANG : DEFAULT_LANG;
}

/**
 * Resolves once every registered namespace has its strings in `lang`; `undefined` when they are
 * all there already. A failed download leaves the Chinese strings standing in; the next call retries.
 */
export function stringsReady(lang: string | undefined): Promise<void> | undefined {
  if (languageOf(lang) !== FALLBACK_LANG || lazyEnglish.size === 0) return undefined;
  return (englishLoad ??= Promise.all(
    [...lazyEnglish].map(([ns, load]) =>
      load().then(
        (m) => {
          widgetI18n().addResourceBundle(FALLBACK_LANG, ns, m.default);
          lazyEnglish.delete(ns);
        },
        () => undefined,
      ),
    ),
  ).then(() => {
    englishLoad = undefined;
  }));
}

/**
 * A translate function for one element: its `lang` attribute (any BCP 47 tag, e.g. `zh-CN`,
 * `en-US`) or the default, without changing the language of other elements on the page.
 */
export function translator(ns: string, lang: string | undefined): TFunction {
  return widgetI18n().getFixedT(languageOf(lang), ns);
}
