import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { accountBody } from '../../../contract/auth';
import { createAuthApi } from '../../../core/auth-api';
import { api } from '../../../core/page';
import { useT } from '../../i18n';
import { usePageTitle } from '../../shell/common';
import { AuthLayout, Field, FormMessage } from './AuthLayout';
import { checked, useAuthForm } from './use-auth-form';
import { useAuthOptions } from './use-auth-options';

/** /auth/forgot-password: sends a reset link to the account's e-mail or phone. */
export default function ForgotPasswordPage() {
  const t = useT();
  usePageTitle(t('auth.forgot_title'));
  const [account, setAccount] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const { errors, formError, busy, run } = useAuthForm(['account']);
  const options = useAuthOptions();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run('submit', checked(accountBody.safeParse({ account })), async (body) => {
      const { message } = await createAuthApi(api()).forgotPassword(body);
      setDone(message);
    });
  };

  return (
    <AuthLayout title={t('auth.forgot_title')} subtitle={t('auth.forgot_subtitle')} footer={<Link href="/auth/sign-in">{t('auth.back_to_sign_in')}</Link>}>
      <form className="form" onSubmit={submit} noValidate>
        <Field label={t('auth.account')} name="account" autoComplete="username" placeholder={t('auth.account_placeholder')} value={account} onChange={(e) => setAccount(e.target.value)} error={errors.account} hint={options?.directory ? t('auth.forgot_directory_note') : undefined} />
        <FormMessage error={formError} success={done} />
        <button type="submit" className="button button--primary button--block" disabled={busy !== null}>
          {busy ? t('auth.submitting') : t('auth.forgot_submit')}
        </button>
      </form>
    </AuthLayout>
  );
}
