import { Link, useParams } from 'wouter';
import { useT } from '../i18n';
import { usePageTitle } from '../shell/common';
import { Icon } from '../shell/Icons';

const CODES = ['401', '403', '404', '500', '503'] as const;
type Code = (typeof CODES)[number];

/** Error pages 401/403/404/500/503 (and any unknown path as 404), each with a way back. */
export default function ErrorPage() {
  const t = useT();
  const params = useParams<{ code?: string }>();
  const code: Code = CODES.find((c) => c === params.code) ?? '404';
  usePageTitle(t(`errors.${code}.title`));
  const canGoBack = typeof window !== 'undefined' && window.history.length > 1;
  return (
    <main className="error-page" id="main">
      <div className="error-card">
        <p className="error-card__code">{code}</p>
        <h1 className="error-card__title">{t(`errors.${code}.title`)}</h1>
        <p className="error-card__text">{t(`errors.${code}.text`)}</p>
        <div className="error-card__actions">
          {code === '401' ? (
            <Link href="/auth/sign-in" className="button button--primary">{t('errors.sign_in')}</Link>
          ) : (
            <Link href="/" className="button button--primary">
              <Icon name="back" size={16} />
              {t('errors.home')}
            </Link>
          )}
          {(code === '500' || code === '503') && (
            <button type="button" className="button" onClick={() => window.location.reload()}>{t('errors.retry')}</button>
          )}
          {canGoBack && (
            <button type="button" className="button button--ghost" onClick={() => window.history.back()}>{t('errors.back')}</button>
          )}
        </div>
      </div>
    </main>
  );
}
