import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { signInBody, userInfo } from '../../../contract/auth';
import { api } from '../../../core/page';
import { toastStore } from '../../../core/toast';
import { useT } from '../../i18n';
import { usePageTitle } from '../../shell/common';
import { sessionStarted, takeReturnPath } from '../../session';
import { AuthLayout, Field, fieldErrors, FormMessage, PasswordField, serverError, type FieldErrors } from './AuthLayout';

/** /auth/sign-in: account (e-mail or phone) and password. */
export default function SignInPage() {
  const t = useT();
  usePageTitle(t('auth.sign_in_title'));
  const [, navigate] = useLocation();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const parsed = signInBody.safeParse({ account, password });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    setBusy(true);
    try {
      const user = await api().post('/auth/sign-in', parsed.data, userInfo, { redirect: false });
      await sessionStarted(user);
      toastStore().toast({ title: t('auth.sign_in_ok') });
      navigate(takeReturnPath());
    } catch (err) {
      const { field, message } = serverError(err);
      if (field) setErrors({ [field]: message });
      else setFormError(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout
      title={t('auth.sign_in_title')}
      subtitle={t('auth.sign_in_subtitle')}
      footer={<>{t('auth.no_account')} <Link href="/auth/sign-up">{t('auth.to_sign_up')}</Link></>}
    >
      <form className="form" onSubmit={submit} noValidate>
        <Field label={t('auth.account')} name="account" autoComplete="username" placeholder={t('auth.account_placeholder')} value={account} onChange={(e) => setAccount(e.target.value)} error={errors.account} />
        <PasswordField label={t('auth.password')} name="password" autoComplete="current-password" placeholder={t('auth.password_placeholder')} value={password} onChange={(e) => setPassword(e.target.value)} error={errors.password} />
        <div className="form__row">
          <Link href="/auth/otp">{t('auth.otp_link')}</Link>
          <Link href="/auth/forgot-password">{t('auth.forgot_link')}</Link>
        </div>
        <FormMessage error={formError} />
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? t('auth.signing_in') : t('auth.sign_in_submit')}
        </button>
      </form>
    </AuthLayout>
  );
}
