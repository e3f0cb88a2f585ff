import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { accountBody, otpVerifyBody } from '../../../contract/auth';
import { createAuthApi } from '../../../core/auth-api';
import { api } from '../../../core/page';
import { toastStore } from '../../../core/toast';
import { useT } from '../../i18n';
import { usePageTitle } from '../../shell/common';
import { sessionStarted, takeReturnPath } from '../../session';
import { AuthLayout, Field, FormMessage } from './AuthLayout';
import { checked, useAuthForm } from './use-auth-form';

const RESEND_SECONDS = 60;

/** /auth/otp: sign in with a one-time code sent to the e-mail or phone. */
export default function OtpPage() {
  const t = useT();
  usePageTitle(t('auth.otp_title'));
  const [, navigate] = useLocation();
  const [account, setAccount] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [wait, setWait] = useState(0);
  const { errors, formError, busy, run } = useAuthForm<'send' | 'verify'>(['account', 'code']);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const send = async () => {
    const ok = await run('send', checked(accountBody.safeParse({ account })), async (body) => {
      const { message } = await createAuthApi(api()).sendOtp(body);
      setSent(message);
      setWait(RESEND_SECONDS);
    });
    if (!ok) setSent(null);
  };

  const verify = (e: FormEvent) => {
    e.preventDefault();
    void run('verify', checked(otpVerifyBody.safeParse({ account, code })), async (body) => {
      const user = await createAuthApi(api()).verifyOtp(body);
      await sessionStarted(user);
      toastStore().toast({ title: t('auth.sign_in_ok') });
      navigate(takeReturnPath());
    });
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
