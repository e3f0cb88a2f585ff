import i18next, { type i18n as I18n, type Resource } from 'i18next';

/** SPEC §9: default locale. */
export const DEFAULT_LOCALE = 'zh';
/** SPEC §9: fallback locale. */
export const FALLBACK_LOCALE = 'en';

/**
 * Strings shared by every part of the browser (namespace `core`). SPEC messages are verbatim.
 * Parts of the site and the elements add their own namespaces with `addResourceBundle`.
 */
export const coreResources = {
  zh: {
    core: {
      premium: '会员计划',
      upgrade_now: '立即升级',
      error_title: 'Error',
      error_description: '{{url}} error! {{message}}',
      session_expired: '您的登录已失效，请先登录',
      network_error: '网络连接失败，请检查网络后重试',
      unexpected_response: '服务器返回了无法识别的数据',
      env_error_title: 'Env error: you should check your .env file',
      sign_out_ok: '登出成功',
      sign_out_failed: '登出失败',
      need_login_title: '需要登录',
      need_login_description: '请先登录后再试',
      upload_failed_title: '上传失败',
      upload_failed_description: '文件上传过程中发生错误',
      retry_later: '请稍后重试',
      notifications: '通知',
      notifications_region: '通知（{{key}}）',
      dismiss: '关闭',
      loading: '加载中…',
    },
  },
  en: {
    core: {
      premium: 'premium',
      upgrade_now: 'Upgrade Now',
      error_title: 'Error',
      error_description: '{{url}} error! {{message}}',
      session_expired: 'Your session has expired, please sign in',
      network_error: 'Network error, please check your connection',
      unexpected_response: 'The server answered with data the page does not understand',
      env_error_title: 'Env error: you should check your .env file',
      sign_out_ok: 'Signed out',
      sign_out_failed: 'Sign-out failed',
      need_login_title: 'Sign-in required',
      need_login_description: 'Please sign in and try again',
      upload_failed_title: 'Upload failed',
      upload_failed_description: 'An error occurred while uploading the files',
      retry_later: 'Please try again later',
      notifications: 'Notifications',
      notifications_region: 'Notifications ({{key}})',
      dismiss: 'Close',
      loading: 'Loading…',
    },
  },
} satisfies Resource;

/**
 * Creates and initialises an i18next instance: zh by default, en as fallback, the core strings
 * loaded synchronously (`initAsync: false`), React-safe (no HTML escaping).
 * @example const i18n = createI18n(); i18n.t('core:premium') // '会员计划'
 */
export function createI18n(lng: string = DEFAULT_LOCALE, extra: Resource = {}): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng,
    fallbackLng: FALLBACK_LOCALE,
    supportedLngs: ['zh', 'en'],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    defaultNS: 'core',
    ns: ['core'],
    resources: mergeResources(coreResources, extra),
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

function mergeResources(a: Resource, b: Resource): Resource {
  const out: Resource = {};
  for (const lng of new Set([...Object.keys(a), ...Object.keys(b)])) out[lng] = { ...a[lng], ...b[lng] };
  return out;
}

let pageI18n: I18n | undefined;

/** The page's one i18next instance (zh unless `lang` says otherwise on first use). */
export function i18n(): I18n {
  return (pageI18n ??= createI18n(DEFAULT_LOCALE));
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/**
 * A relative time in the given language, Chinese by default (SPEC §1).
 * @example relativeTime(Date.now() - 3 * 3600_000) // '3小时前'
 */
export function relativeTime(when: Date | number | string, lng: string = DEFAULT_LOCALE, now: number = Date.now()): string {
  const then = when instanceof Date ? when.getTime() : typeof when === 'string' ? Date.parse(when) : when;
  if (!Number.isFinite(then)) return '';
  const seconds = Math.round((then - now) / 1000);
  const format = new Intl.RelativeTimeFormat(lng === 'zh' ? 'zh-CN' : lng, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return format.format(Math.trunc(seconds / size), unit);
  }
  return '';
}
