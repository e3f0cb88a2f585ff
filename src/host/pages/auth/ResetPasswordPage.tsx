import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { resetPasswordBody } from '../../../contract/auth';
import { createAuthApi } from '../../../core/auth-api';
import { api } from '../../../core/page';
import { toastStore } from '../../../core/toast';
import { useT } from '../../i18n';
import { usePageTitle } from '../../shell/common';
import { AuthLayout, FormMessage, PasswordField } from './AuthLayout';
import { checked, useAuthForm } from './use-auth-form';

/** /auth/reset-password?token=: sets a new password with the token from the reset link. */
export default function ResetPasswordPage() {
  const t = useT();
  usePageTitle(t('auth.reset_title'));
  const [, navigate] = useLocation();
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { errors, formError, busy, run } = useAuthForm(['password', 'confirm']);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const check = checked(resetPasswordBody.safeParse({ token, password }), { confirm: confirm !== password ? t('auth.mismatch') : undefined });
    // A malformed token is the link's fault, not a field the user can fix.
    void run('submit', 'errors' in check && check.errors.token ? { formError: t('auth.missing_token') } : check, async (body) => {
      const { message } = await createAuthApi(api()).resetPassword(body);
      toastStore().toast({ title: message });
      navigate('/auth/sign-in');
    });
  };

  return (
    <AuthLayout title={t('auth.reset_title')} subtitle={t('auth.reset_subtitle')} footer={<Link href="/auth/forgot-password">{t('auth.forgot_title')}</Link>}>
      {!token ? (
        <FormMessage error={t('auth.missing_token')} />
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          <PasswordField label={t('auth.new_password')} name="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} error={errors.password} hint={t('auth.password_hint')} />
          <PasswordField label={t('auth.confirm_password')} name="confirm" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} error={errors.confirm} />
          <FormMessage error={formError} />
          <button type="submit" className="button button--primary button--block" disabled={busy !== null}>
            {busy ? t('auth.submitting') : t('auth.reset_submit')}
          </button>
        </form>
      )}
    </AuthLayout>
  );
}
