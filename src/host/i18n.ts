import { useTranslation } from 'react-i18next';
import { i18n } from '../core/i18n';
import { hostEn, hostZh } from './locales';

/** The page's i18next instance with the site's `host` namespace added. */
export function hostI18n() {
  const instance = i18n();
  if (!instance.hasResourceBundle('zh', 'host')) {
    instance.addResourceBundle('zh', 'host', hostZh);
    instance.addResourceBundle('en', 'host', hostEn);
  }
  return instance;
}

/** `t` for the site's strings. */
export function useT() {
  return useTranslation('host').t;
}

/**
 * Adds a lazy page's strings to the `host` namespace when its module loads, so the home page's
 * first load carries only the shell's strings. English falls back to Chinese where a page has none.
 */
export function addHostStrings(zh: object, en: object) {
  const instance = hostI18n();
  instance.addResourceBundle('zh', 'host', zh, true, false);
  instance.addResourceBundle('en', 'host', en, true, false);
}
