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
