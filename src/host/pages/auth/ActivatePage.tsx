import { useEffect, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { createAuthApi } from '../../../core/auth-api';
import { api } from '../../../core/page';
import { useT } from '../../i18n';
import { usePageTitle } from '../../shell/common';
import { AuthLayout, FormMessage, serverError } from './AuthLayout';

// A token is single-use: one request per token, however often the page renders (StrictMode runs effects twice).
const attempts = new Map<string, Promise<{ ok: boolean; message: string }>>();
function activate(token: string) {
  let attempt = attempts.get(token);
  if (!attempt) {
    attempt = createAuthApi(api())
      .activate(token)
      .then(({ message }) => ({ ok: true, message }))
      .catch((err: unknown) => ({ ok: false, message: serverError(err).message }));
    attempts.set(token, attempt);
  }
  return attempt;
}

/** /auth/activate-transit?token=: activates the account from its link. */
export default function ActivatePage() {
  const t = useT();
  usePageTitle(t('auth.activate_title'));
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(token ? null : { ok: false, message: t('auth.missing_token') });
  useEffect(() => {
    if (!token) return;
    let live = true;
    void activate(token).then((r) => live && setResult(r));
    return () => {
      live = false;
    };
  }, [token]);
  return (
    <AuthLayout title={t('auth.activate_title')}>
      {!result && (
        <p className="page-loading page-loading--inline" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('auth.activating')}
        </p>
      )}
      {result && (
        <div className="form">
          <FormMessage error={result.ok ? null : result.message} success={result.ok ? result.message : null} />
          <Link href="/auth/sign-in" className="button button--primary button--block">{t('auth.to_sign_in')}</Link>
        </div>
      )}
    </AuthLayout>
  );
}
