import { useState } from 'react';
import type { z } from 'zod';
import { fieldErrors, serverError, type FieldErrors } from './AuthLayout';

/** What a form's own checks concluded: the request body, messages per field, or one form message. */
export type Checked<T> = { data: T } | { errors: FieldErrors } | { formError: string };

/** A zod parse as a {@link Checked}, with extra per-field messages (e.g. "passwords differ") merged in. */
export function checked<T>(parsed: z.ZodSafeParseResult<T>, extra: FieldErrors = {}): Checked<T> {
  const errors: FieldErrors = { ...(parsed.success ? {} : fieldErrors(parsed.error)), ...extra };
  for (const key of Object.keys(errors)) if (errors[key] === undefined) delete errors[key];
  if (!parsed.success || Object.keys(errors).length) return { errors };
  return { data: parsed.data };
}

/**
 * The submit cycle every auth page shares: check the input, show what is wrong next to its field,
 * call the server while a busy flag disables the buttons, and show a failure where it belongs —
 * under the field the server named when the form has that field, else as the form's message.
 * `Action` names what is running when a page has two buttons (OTP: send the code, sign in).
 */
export function useAuthForm<Action extends string = 'submit'>(fields: readonly string[]) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Action | null>(null);

  /** Runs one action; resolves true when the call succeeded. */
  const run = async <T>(action: Action, check: Checked<T>, call: (data: T) => Promise<void>): Promise<boolean> => {
    setFormError(null);
    if ('formError' in check) {
      setFormError(check.formError);
      return false;
    }
    if ('errors' in check) {
      setErrors(check.errors);
      return false;
    }
    setErrors({});
    setBusy(action);
    try {
      await call(check.data);
      return true;
    } catch (err) {
      const { field, message } = serverError(err);
      if (field && fields.includes(field)) setErrors({ [field]: message });
      else setFormError(message);
      return false;
    } finally {
      setBusy(null);
    }
  };

  return { errors, setErrors, formError, busy, run };
}
