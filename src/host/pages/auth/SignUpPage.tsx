import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { signUpBody } from '../../../contract/auth';
import { createAuthApi } from '../../../core/auth-api';
import { api } from '../../../core/page';
import { useT } from '../../i18n';
import { usePageTitle } from '../../shell/common';
import { AuthLayout, Field, FormMessage, PasswordField } from './AuthLayout';
import { checked, useAuthForm } from './use-auth-form';
import { useAuthOptions } from './use-auth-options';

type Via = 'email' | 'phone';

/** /auth/sign-up: name, e-mail or phone, password twice; then the activation link is sent. */
export default function SignUpPage() {
  const t = useT();
  usePageTitle(t('auth.sign_up_title'));
  const [via, setVia] = useState<Via>('email');
  const [form, setForm] = useState({ name: '', email: '', phone: '', password: '', confirm: '' });
  const [done, setDone] = useState<string | null>(null);
  const { errors, setErrors, formError, busy, run } = useAuthForm(['name', 'email', 'phone', 'password', 'confirm']);
  const options = useAuthOptions();
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = { name: form.name, password: form.password, ...(via === 'email' ? { email: form.email } : { phone: form.phone }) };
    const check = checked(signUpBody.safeParse(body), { confirm: form.confirm !== form.password ? t('auth.mismatch') : undefined });
    if ('errors' in check) {
      const found = check.errors;
      // An empty contact field is "missing", not "malformed".
      if (via === 'email' && !form.email.trim()) found.email = t('auth.email_required');
      if (via === 'phone' && !form.phone.trim()) found.phone = t('auth.phone_required');
      if (via === 'phone' && found.email && !found.phone) found.phone = found.email;
    }
    void run('submit', check, async (data) => {
      const { message } = await createAuthApi(api()).signUp(data);
      setDone(message);
    });
  };

  // CSAI_LOCAL_SIGNUP=0: the page says so instead of offering a form the server refuses.
  if (options?.local_signup === false) {
    return (
      <AuthLayout title={t('auth.sign_up_closed_title')}>
        <div className="form">
          <FormMessage error={options.directory ? t('auth.sign_up_closed_directory') : t('auth.sign_up_closed')} />
          <Link href="/auth/sign-in" className="button button--primary button--block">{t('auth.to_sign_in')}</Link>
        </div>
      </AuthLayout>
    );
  }

  if (done) {
    return (
      <AuthLayout title={t('auth.sign_up_done_title')}>
        <div className="form">
          <FormMessage success={done} />
          <Link href="/auth/sign-in" className="button button--primary button--block">{t('auth.to_sign_in')}</Link>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={t('auth.sign_up_title')}
      subtitle={t('auth.sign_up_subtitle')}
      footer={<>{t('auth.have_account')} <Link href="/auth/sign-in">{t('auth.to_sign_in')}</Link></>}
    >
      <form className="form" onSubmit={submit} noValidate>
        <div className="segmented" role="radiogroup" aria-label={t('auth.register_with')}>
          {(['email', 'phone'] as const).map((v) => (
            <button key={v} type="button" role="radio" aria-checked={via === v} className={`segmented__item${via === v ? ' segmented__item--active' : ''}`} onClick={() => { setVia(v); setErrors({}); }}>
              {v === 'email' ? t('auth.by_email') : t('auth.by_phone')}
            </button>
          ))}
        </div>
        <Field label={t('auth.name')} name="name" autoComplete="name" placeholder={t('auth.name_placeholder')} value={form.name} onChange={set('name')} error={errors.name} />
        {via === 'email' ? (
          <Field label={t('auth.email')} name="email" type="email" autoComplete="email" placeholder="name@example.com" value={form.email} onChange={set('email')} error={errors.email} />
        ) : (
          <Field label={t('auth.phone')} name="phone" type="tel" autoComplete="tel" placeholder="13800000000" value={form.phone} onChange={set('phone')} error={errors.phone} />
        )}
        <PasswordField label={t('auth.password')} name="password" autoComplete="new-password" value={form.password} onChange={set('password')} error={errors.password} hint={t('auth.password_hint')} />
        <PasswordField label={t('auth.confirm_password')} name="confirm" autoComplete="new-password" value={form.confirm} onChange={set('confirm')} error={errors.confirm} />
        <FormMessage error={formError} />
        <button type="submit" className="button button--primary button--block" disabled={busy !== null}>
          {busy ? t('auth.signing_up') : t('auth.sign_up_submit')}
        </button>
      </form>
    </AuthLayout>
  );
}
