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

/** Registers an element's strings: `{ zh: {...}, en: {...} }` under namespace `ns`. */
export function addStrings(ns: string, strings: { zh: ResourceLanguage; en: ResourceLanguage }) {
  const i18n = widgetI18n();
  if (i18n.hasResourceBundle(DEFAULT_LANG, ns)) return;
  i18n.addResourceBundle(DEFAULT_LANG, ns, strings.zh);
  i18n.addResourceBundle(FALLBACK_LANG, ns, strings.en);
}

/**
 * A translate function for one element: its `lang` attribute (any BCP 47 tag, e.g. `zh-CN`,
 * `en-US`) or the default, without changing the language of other elements on the page.
 */
export function translator(ns: string, lang: string | undefined): TFunction {
  const i18n = widgetI18n();
  const wanted = (lang ?? DEFAULT_LANG).toLowerCase();
  const base = wanted.split('-')[0] ?? DEFAULT_LANG;
  const code = base === 'en' || base === 'zh' ? base : DEFAULT_LANG;
  return i18n.getFixedT(code, ns);
}
