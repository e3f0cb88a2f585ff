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

/** The interface languages (issue 32 §2). */
export type InterfaceLanguage = 'zh' | 'en';
/** Where the browser remembers the language before (and between) sign-ins. */
const LANGUAGE_KEY = 'csai:language';

/** The language this browser chose last, or null. */
export function storedLanguage(): InterfaceLanguage | null {
  try {
    const v = window.localStorage.getItem(LANGUAGE_KEY);
    return v === 'en' || v === 'zh' ? v : null;
  } catch {
    return null;
  }
}

/** Switches the site (pages and elements) to a language and remembers it in this browser. */
export function applyLanguage(language: InterfaceLanguage): void {
  try {
    window.localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // Storage blocked: the choice lasts for this page (and the server keeps it for a signed-in user).
  }
  document.documentElement.lang = language === 'en' ? 'en' : 'zh-CN';
  const instance = hostI18n();
  if (instance.language !== language) void instance.changeLanguage(language);
}
