import { useTranslation } from 'react-i18next';
import { i18n } from '../core/i18n';
import { hostZh } from './locales';
import { LANGUAGE_COOKIE, type InterfaceLanguage } from '../contract/first-paint';

/**
 * The page's i18next instance with the site's `host` namespace added (Chinese; the English
 * strings load with the first switch to English, see `applyLanguage`).
 */
export function hostI18n() {
  const instance = i18n();
  if (!instance.hasResourceBundle('zh', 'host')) instance.addResourceBundle('zh', 'host', hostZh);
  return instance;
}

let english: Promise<void> | undefined;
/** Adds the site's English strings (once), merged under what lazy pages added meanwhile. */
function loadEnglish(): Promise<void> {
  return (english ??= import('./locales-en').then(({ hostEn }) => {
    hostI18n().addResourceBundle('en', 'host', hostEn, true, false);
  }));
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

/** The interface languages. */
export type { InterfaceLanguage };
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

/** Keeps the language cookie (home's first paint is in its language, src/server/first-paint.ts) in step with the language this browser shows (a year; nothing but a rendering hint). */
export function rememberLanguageForServer(language: InterfaceLanguage): void {
  if (!document.cookie.split(';').some((c) => c.trim() === `${LANGUAGE_COOKIE}=${language}`)) {
    document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=${365 * 24 * 3600}; SameSite=Lax`;
  }
}

let wanted: InterfaceLanguage | undefined;
/**
 * Switches the site (pages and elements) to a language and remembers it in this browser. The
 * switch happens once the language's strings are there (English loads on first use).
 */
export async function applyLanguage(language: InterfaceLanguage): Promise<void> {
  try {
    window.localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // Storage blocked: the choice lasts for this page (and the server keeps it for a signed-in user).
  }
  rememberLanguageForServer(language);
  document.documentElement.lang = language === 'en' ? 'en' : 'zh-CN';
  wanted = language;
  const instance = hostI18n();
  if (language === 'en') await loadEnglish();
  // A later choice made while the strings loaded wins.
  if (wanted === language && instance.language !== language) await instance.changeLanguage(language);
}
