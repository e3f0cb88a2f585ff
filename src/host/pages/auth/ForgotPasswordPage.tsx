import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { z } from 'zod';
import { accountBody } from '../../../contract/auth';
import { api } from '../../../core/page';
import { useT } from '../../i18n';
import { usePageTitle } from '../../shell/common';
import { AuthLayout, Field, fieldErrors, FormMessage, serverError, type FieldErrors } from './AuthLayout';

/** /auth/forgot-password: sends a reset link to the account's e-mail or phone. */
export default function ForgotPasswordPage() {
  const t = useT();
  usePageTitle(t('auth.forgot_title'));
  const [account, setAccount] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const parsed = accountBody.safeParse({ account });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    setBusy(true);
    try {
      const { message } = await api().postWithMessage('/auth/forgot-password', parsed.data, z.null(), { redirect: false });
      setDone(message);
    } catch (err) {
      setFormError(serverError(err).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title={t('auth.forgot_title')} subtitle={t('auth.forgot_subtitle')} footer={<Link href="/auth/sign-in">{t('auth.back_to_sign_in')}</Link>}>
      <form className="form" onSubmit={submit} noValidate>
        <Field label={t('auth.account')} name="account" autoComplete="username" placeholder={t('auth.account_placeholder')} value={account} onChange={(e) => setAccount(e.target.value)} error={errors.account} />
        <FormMessage error={formError} success={done} />
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? t('auth.submitting') : t('auth.forgot_submit')}
        </button>
      </form>
    </AuthLayout>
  );
}
