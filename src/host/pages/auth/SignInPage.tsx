import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { signInBody } from '../../../contract/auth';
import { createAuthApi } from '../../../core/auth-api';
import { api } from '../../../core/page';
import { toastStore } from '../../../core/toast';
import { useT } from '../../i18n';
import { usePageTitle } from '../../shell/common';
import { sessionStarted, takeReturnPath } from '../../session';
import { AuthLayout, Field, FormMessage, PasswordField } from './AuthLayout';
import { checked, useAuthForm } from './use-auth-form';
import { useAuthOptions } from './use-auth-options';

/** /auth/sign-in: account (e-mail or phone) and password. */
export default function SignInPage() {
  const t = useT();
  usePageTitle(t('auth.sign_in_title'));
  const [, navigate] = useLocation();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const { errors, formError, busy, run } = useAuthForm(['account', 'password']);
  const options = useAuthOptions();
  const directory = options?.directory === true;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run('submit', checked(signInBody.safeParse({ account, password })), async (body) => {
      const user = await createAuthApi(api()).signIn(body);
      await sessionStarted(user);
      toastStore().toast({ title: t('auth.sign_in_ok') });
      navigate(takeReturnPath());
    });
  };

  return (
    <AuthLayout
      title={t('auth.sign_in_title')}
      subtitle={directory ? t('auth.directory_hint') : t('auth.sign_in_subtitle')}
      footer={options?.local_signup === false ? undefined : <>{t('auth.no_account')} <Link href="/auth/sign-up">{t('auth.to_sign_up')}</Link></>}
    >
      <form className="form" onSubmit={submit} noValidate>
        <Field label={directory ? t('auth.account_directory') : t('auth.account')} name="account" autoComplete="username" placeholder={directory ? t('auth.account_directory_placeholder') : t('auth.account_placeholder')} value={account} onChange={(e) => setAccount(e.target.value)} error={errors.account} />
        <PasswordField label={t('auth.password')} name="password" autoComplete="current-password" placeholder={t('auth.password_placeholder')} value={password} onChange={(e) => setPassword(e.target.value)} error={errors.password} />
        <div className="form__row">
          <Link href="/auth/otp">{t('auth.otp_link')}</Link>
          <Link href="/auth/forgot-password">{t('auth.forgot_link')}</Link>
        </div>
        <FormMessage error={formError} />
        <button type="submit" className="button button--primary button--block" disabled={busy !== null}>
          {busy ? t('auth.signing_in') : t('auth.sign_in_submit')}
        </button>
      </form>
    </AuthLayout>
  );
}
