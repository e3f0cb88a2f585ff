import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { z } from 'zod';
import { ApiError } from '../../../core/api';
import { useT } from '../../i18n';
import { Icon } from '../../shell/Icons';

/** The frame of every auth page: a brand panel (wide screens) beside the form card. */
export function AuthLayout({ title, subtitle, children, footer }: { title: string; subtitle?: string; children: ReactNode; footer?: ReactNode }) {
  const t = useT();
  return (
    <div className="auth">
      <aside className="auth__brand" aria-hidden="true">
        <div className="auth__brand-inner">
          <div className="auth__logo">
            <span className="logo logo--light">C</span>
            <span>{t('product_full')}</span>
          </div>
          <h2 className="auth__brand-title">{t('auth.brand_title')}</h2>
          <p className="auth__brand-text">{t('auth.brand_text')}</p>
          <ul className="auth__points">
            {[0, 1, 2].map((i) => (
              <li key={i}>
                <Icon name="check" size={16} />
                {t(`auth.brand_points.${i}`)}
              </li>
            ))}
          </ul>
        </div>
      </aside>
      <main className="auth__main" id="main">
        <div className="auth__card">
          <div className="auth__mobile-logo">
            <span className="logo">C</span>
            <span>{t('product')}</span>
          </div>
          <h1 className="auth__title">{title}</h1>
          {subtitle && <p className="auth__subtitle">{subtitle}</p>}
          {children}
          {footer && <div className="auth__footer">{footer}</div>}
        </div>
      </main>
    </div>
  );
}

/** A labelled input with its error message (announced and linked for screen readers). */
export function Field({ label, error, hint, ...input }: { label: string; error?: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">{label}</label>
      <input id={id} className="input" aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint && !error && <p id={`${id}-hint`} className="field__hint">{hint}</p>}
      {error && <p id={`${id}-error`} className="field__error">{error}</p>}
    </div>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField(props: { label: string; error?: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const t = useT();
  const [visible, setVisible] = useState(false);
  return (
    <div className="password-field">
      <Field {...props} type={visible ? 'text' : 'password'} />
      <button type="button" className="password-field__toggle icon-button icon-button--small" aria-label={visible ? t('auth.hide_password') : t('auth.show_password')} aria-pressed={visible} onClick={() => setVisible((v) => !v)}>
        <Icon name={visible ? 'eyeOff' : 'eye'} size={16} />
      </button>
    </div>
  );
}

/** A form-level message: an error (role=alert) or a confirmation (role=status). */
export function FormMessage({ error, success }: { error?: string | null; success?: string | null }) {
  if (error) return <p className="form-error" role="alert">{error}</p>;
  if (success) return <p className="form-success" role="status">{success}</p>;
  return null;
}

export type FieldErrors = Record<string, string | undefined>;

/** The first message of each field from a zod failure. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '_form');
    out[key] ??= issue.message;
  }
  return out;
}

/** Splits a failed call into a field error (when the server named the field) or a form error. */
export function serverError(err: unknown): { field?: string; message: string } {
  if (err instanceof ApiError) return err.field ? { field: err.field, message: err.message } : { message: err.message };
  return { message: err instanceof Error ? err.message : String(err) };
}
