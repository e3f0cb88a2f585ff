import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { z } from 'zod';
import { accountBody, otpVerifyBody, userInfo } from '../../../contract/auth';
import { api } from '../../../core/page';
import { toastStore } from '../../../core/toast';
import { useT } from '../../i18n';
import { usePageTitle } from '../../shell/common';
import { sessionStarted, takeReturnPath } from '../../session';
import { AuthLayout, Field, fieldErrors, FormMessage, serverError, type FieldErrors } from './AuthLayout';

const RESEND_SECONDS = 60;

/** /auth/otp: sign in with a one-time code sent to the e-mail or phone. */
export default function OtpPage() {
  const t = useT();
  usePageTitle(t('auth.otp_title'));
  const [, navigate] = useLocation();
  const [account, setAccount] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [wait, setWait] = useState(0);
  const [busy, setBusy] = useState<'send' | 'verify' | null>(null);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const send = async () => {
    setFormError(null);
    const parsed = accountBody.safeParse({ account });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    setBusy('send');
    try {
      const { message } = await api().postWithMessage('/auth/otp/send', parsed.data, z.null(), { redirect: false });
      setSent(message);
      setWait(RESEND_SECONDS);
    } catch (err) {
      setSent(null);
      setFormError(serverError(err).message);
    } finally {
      setBusy(null);
    }
  };

  const verify = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const parsed = otpVerifyBody.safeParse({ account, code });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    setBusy('verify');
    try {
      const user = await api().post('/auth/otp/verify', parsed.data, userInfo, { redirect: false });
      await sessionStarted(user);
      toastStore().toast({ title: t('auth.sign_in_ok') });
      navigate(takeReturnPath());
    } catch (err) {
      const { field, message } = serverError(err);
      if (field) setErrors({ [field]: message });
      else setFormError(message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <AuthLayout
      title={t('auth.otp_title')}
      subtitle={t('auth.otp_subtitle')}
      footer={<Link href="/auth/sign-in">{t('auth.password_link')}</Link>}
    >
      <form className="form" onSubmit={verify} noValidate>
        <Field label={t('auth.account')} name="account" autoComplete="username" placeholder={t('auth.account_placeholder')} value={account} onChange={(e) => setAccount(e.target.value)} error={errors.account} />
        <div className="field-row">
          <Field label={t('auth.code')} name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} placeholder={t('auth.code_placeholder')} value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))} error={errors.code} />
          <button type="button" className="button field-row__action" onClick={() => void send()} disabled={busy !== null || wait > 0}>
            {busy === 'send' ? t('auth.sending') : wait > 0 ? t('auth.resend_in', { seconds: wait }) : t('auth.send_code')}
          </button>
        </div>
        <FormMessage error={formError} success={sent} />
        <button type="submit" className="button button--primary button--block" disabled={busy !== null}>
          {busy === 'verify' ? t('auth.signing_in') : t('auth.sign_in_submit')}
        </button>
      </form>
    </AuthLayout>
  );
}
